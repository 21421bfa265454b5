"""A search hit is one record from the ranking to the faces (issue 32): the ranking's
``SearchHit`` is the API's, the literal fast path writes that record's JSON, and no second
hit shape (a named tuple, a dataclass, a hand-built dict of the hit's fields) may appear
in the package again."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory, SearchHit
from memsearch_tui.engine.api.literal import literal_json
from memsearch_tui.engine.api.serialise import to_json
from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search import hit as engine_hit
from tests.source_scan import SOURCE_SCAN, source_tree

PACKAGE = Path(__file__).resolve().parents[2] / "memsearch_tui"
HIT_ONLY = {"snippet", "lines", "heading"}  # fields no other record of the package carries together


def test_the_api_hit_is_the_rankings_record() -> None:
    import typing

    from memsearch_tui.mcp import tools
    from memsearch_tui.tui.panes import search_extras, search_pane

    assert SearchHit is engine_hit.SearchHit
    assert search_pane.SearchHit is search_extras.SearchHit is SearchHit  # the app draws the record
    hints = typing.get_type_hints(tools.SearchResult)  # the search tool's return type
    assert hints["hits"] == tuple[SearchHit, ...]  # the MCP search tool's result holds it


@pytest.mark.parametrize("strategy", ["grep", "index", "auto"])
def test_every_search_path_hands_out_the_one_record(memory, strategy: str) -> None:
    root, project = memory
    with Searcher(root, project) as s:
        run = (
            s.search("Fly.io 深色", strategy=strategy) if strategy == "auto" else s.search("Fly.io", strategy=strategy)
        )
    assert run.hits and {type(h) for h in run.hits} == {SearchHit}
    with Memory(root, project) as mem:
        res = mem.search.query("Fly.io", strategy=strategy)
    assert res.hits and {type(h) for h in res.hits} == {SearchHit}


def test_the_fast_paths_json_is_the_records_json(memory) -> None:
    """The literal fast path cannot load ``dataclasses``: it writes the record's values
    itself, and must write exactly what ``to_json`` of the record writes."""
    root, project = memory
    fast = literal_json(root, project, "Fly.io", 5, None, "all")
    with Memory(root, project) as mem:
        res = mem.search.query("Fly.io", k=5, strategy="grep")
    assert fast["hits"] and fast["hits"] == to_json(res.hits)
    assert list(fast) == list(to_json(res))


def _shapes(tree: ast.Module) -> list[str]:
    """Hit shapes in one module: a class whose annotated fields hold all of HIT_ONLY, a
    ``namedtuple`` whose fields do, a dict literal whose keys do."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            names = {t.target.id for t in node.body if isinstance(t, ast.AnnAssign) and isinstance(t.target, ast.Name)}
            if names >= HIT_ONLY:
                found.append(f"class {node.name}")
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if keys >= HIT_ONLY:
                found.append(f"dict at line {node.lineno}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = node.value.replace(",", " ").split()  # a namedtuple's field string holds names only
            if all(w.isidentifier() for w in words) and set(words) >= HIT_ONLY:
                found.append(f"field string at line {node.lineno}")
    return found


@SOURCE_SCAN
def test_no_second_hit_shape_in_the_package() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for shape in _shapes(source_tree(path)):
            found.append(f"{path.relative_to(PACKAGE)}: {shape}")
    assert found == ["engine/search/hit.py: class SearchHit"]
