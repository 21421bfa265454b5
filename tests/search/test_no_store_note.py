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
