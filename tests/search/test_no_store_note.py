"""A ``--memory-root`` that holds no store (a typo, a file, a folder never initialised) is
said in one line naming the path, on both CLI search paths, in text and ``--json``: a
search there used to answer "0 hits" (or the journal's hits only) as if the store were
empty, while ``ls`` said "no memory store here"."""

from __future__ import annotations

import json

import pytest

from memsearch_tui.cli import search_fast
from memsearch_tui.cli.app import run


@pytest.fixture
def roots(memory, tmp_path):
    """(a real store, a missing folder, a file, an empty folder) and the project with its journal."""
    root, project = memory
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a store\n", encoding="utf-8")
    empty = tmp_path / "空的"
    empty.mkdir()
    return {"store": root, "missing": tmp_path / "memroy", "file": a_file, "empty": empty}, project


WHY = {"missing": "no such folder", "file": "not a folder", "empty": "no INDEX.md"}
# -s grep and -s index take the fast path; --explain goes through Typer and mem.search
LINES = [["-s", "grep"], ["-s", "index"], ["-s", "index", "--explain"]]


def _search(root, project, capsys, *args: str) -> tuple[int | None, str]:
    line = ["--memory-root", str(root), "--project", str(project), *args]
    capsys.readouterr()
    rc = search_fast.main(line)
    if rc is None:  # not the fast path's: Typer's
        rc = run(line)
    return rc, capsys.readouterr().out


@pytest.mark.parametrize("kind", sorted(WHY))
@pytest.mark.parametrize("opts", LINES, ids=" ".join)
def test_a_root_without_a_store_is_named_in_one_line(roots, capsys, kind, opts):
    places, project = roots
    root = places[kind]
    rc, out = _search(root, project, capsys, "search", "Postgres", *opts)
    assert rc == 0
    assert f"note: {root}: no memory store here ({WHY[kind]})\n" in out
    assert "Migrated the orders database" in out  # the journal is still searched
    rc, out = _search(root, project, capsys, "--json", "search", "Postgres", *opts)
    notes = json.loads(out)["data"]["notes"]
    assert f"{root}: no memory store here ({WHY[kind]})" in notes


@pytest.mark.parametrize("opts", LINES, ids=" ".join)
def test_a_real_store_or_a_journal_only_search_gets_no_such_note(roots, capsys, opts):
    places, project = roots
    _, out = _search(places["store"], project, capsys, "--json", "search", "Postgres", *opts)
    assert not any("no memory store" in n for n in json.loads(out)["data"]["notes"])
    _, out = _search(places["missing"], project, capsys, "search", "Postgres", "--source", "journal", *opts)
    assert "no memory store" not in out and "Migrated the orders database" in out


def _not_a_store(folder):
    """A folder someone might pass as ``--memory-root`` (``/tmp``, ``~``): Markdown files in
    nested folders that look like entries and hold the query, English and Chinese, but no
    INDEX.md."""
    for rel in ("notes/db.md", "deep/er/still/数据库.md", "readme.md"):
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("---\ntitle: not an entry\n---\nPostgres 迁移 notes\n", encoding="utf-8")


@pytest.mark.parametrize("opts", LINES, ids=" ".join)
def test_a_folder_without_a_store_is_not_walked_or_written(roots, capsys, opts):
    """Nothing below a root without INDEX.md is listed, read or written: only the journal
    is searched (its one day counted in ``files``), on the fast path and through Typer."""
    places, project = roots
    root = places["empty"]
    _not_a_store(root)
    rc, out = _search(root, project, capsys, "--json", "search", "Postgres", *opts)
    data = json.loads(out)["data"]
    assert rc == 0
    assert {h["kind"] for h in data["hits"]} == {"journal"}
    assert data["files"] == 2  # the day and PROJECT.md: none of the three .md files above
    assert f"{root}: no memory store here (no INDEX.md)" in data["notes"]
    assert sorted(p.name for p in root.iterdir()) == ["deep", "notes", "readme.md"]  # no cache made in it


def test_the_api_faces_neither_search_nor_count_a_folder_without_a_store(roots):
    """``mem.search.query`` (the MCP tool, the app) and ``mem.vectors.status`` (what
    ``vectors index`` would index) list the journal side only."""
    from memsearch_tui.engine.api import Memory

    places, project = roots
    root = places["empty"]
    _not_a_store(root)
    with Memory(root, project) as mem:
        for strategy in ("grep", "index"):
            res = mem.search.query("Postgres", strategy=strategy)
            assert {h.kind for h in res.hits} == {"journal"} and res.files == 2
        status = mem.vectors.status()  # the listing `vectors index` embeds
        assert (status.files, status.drift.unindexed_files) == (2, 0)
    assert sorted(p.name for p in root.iterdir()) == ["deep", "notes", "readme.md"]


@pytest.fixture
def bare(tmp_path):
    """A project with no journal, PROJECT.md or USER.md, and roots that hold no store."""
    project = tmp_path / "项目"
    project.mkdir()
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a store\n", encoding="utf-8")
    return {"missing": tmp_path / "memroy", "file": a_file}, project


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_nothing_to_search_answers_at_once_without_opening_a_searcher(bare, capsys, monkeypatch, kind):
    """No store and no project journals: the note and no hits, without the Searcher (which
    loaded the embedding model, ~2.5 s, to search 0 files), on the fast path, through
    Typer and through ``mem.search``."""
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.search.searcher import Searcher

    def opened(*_a, **_kw):
        raise AssertionError("a Searcher was opened to search 0 files")

    monkeypatch.setattr(Searcher, "__init__", opened)
    places, project = bare
    root = places[kind]
    for opts in (["-s", "auto"], ["-s", "hybrid", "--explain"]):
        rc, out = _search(root, project, capsys, "--json", "search", "部署 deploy", *opts)
        data = json.loads(out)["data"]
        assert rc == 0 and data["hits"] == [] and data["files"] == 0, out
        assert f"{root}: no memory store here ({WHY[kind]})" in data["notes"]
    with Memory(root, project) as mem:
        res = mem.search.query("deploy", strategy="vector")
    assert res.hits == () and f"{root}: no memory store here ({WHY[kind]})" in res.notes


def test_vectors_status_with_nothing_to_index_does_not_suggest_indexing(bare, capsys):
    places, project = bare
    line = ["--memory-root", str(places["missing"]), "--project", str(project), "vectors", "status"]
    capsys.readouterr()
    assert run(line) == 0
    out = capsys.readouterr().out
    assert "vectors index" not in out and "nothing to index" in out, out
