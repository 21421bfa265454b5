"""One plural helper for every count a person reads: no "1 hits", no "3 file(s)" (QA, issue #14)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from memsearch_tui.engine.core.text import plural, verb
from tests.source_scan import SOURCE_SCAN, source_tree

PACKAGE = Path(__file__).resolve().parents[1] / "memsearch_tui"
OPTIONAL_S = re.compile(r"[a-z]\((s|es|ies)\)(?!://)")  # "file(s)", not "http(s)://"


def test_plural_and_verb() -> None:
    assert plural(1, "hit") == "1 hit" and plural(0, "hit") == "0 hits" and plural(2, "hit") == "2 hits"
    assert plural(1, "entry", "entries") == "1 entry" and plural(3, "entry", "entries") == "3 entries"
    assert verb(1, "needs", "need") == "needs" and verb(2, "needs", "need") == "need"


def test_the_app_uses_the_same_helper() -> None:
    from memsearch_tui.tui.panes import base

    assert base.plural is plural


def _printed_strings(path: Path) -> list[tuple[int, str]]:
    """String literals and f-string parts of ``path``, docstrings left out."""
    tree = source_tree(path)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


@SOURCE_SCAN
def test_no_optional_plural_in_any_printed_string() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}"
        for folder in ("cli", "engine", "mcp", "tui")
        for path in sorted((PACKAGE / folder).rglob("*.py"))
        for line, text in _printed_strings(path)
        if OPTIONAL_S.search(text)
    ]
    assert not found, "use engine.core.text.plural:\n" + "\n".join(found)


def test_one_search_hit_is_one_hit(cli, store) -> None:
    store.add("notes", "Kyoto", "the tea house in Kyoto opens at nine\n")
    r = cli("search", "tea house", "--strategy", "grep")
    assert r.code == 0
    assert r.out.splitlines()[0].startswith("1 hit · grep"), r.out
    auto = cli("search", "Kyoto")  # one word: auto stays on grep
    assert auto.out.splitlines()[0].startswith("1 hit · grep (1 file < 50"), auto.out
