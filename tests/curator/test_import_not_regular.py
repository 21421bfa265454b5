"""`import` of something that is not a regular file says so: a FIFO given as the source is
an error like a missing path (never "0 imported, 0 skipped" and exit 0, never a hang); in a
folder, a FIFO named MEMORY.md or a symlink loop is listed as skipped with the reason."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsearch_tui.engine.store.store import Store


@pytest.fixture
def fifo_folder(tmp_path: Path) -> Path:
    src = tmp_path / "agent"
    src.mkdir()
    os.mkfifo(src / "MEMORY.md")
    (src / "build.md").write_text("# Build\n\nrun make before pushing\n", encoding="utf-8")
    (src / "loop.md").symlink_to("loop.md")
    return src


@pytest.mark.parametrize("as_json", [False, True])
def test_a_fifo_source_is_an_error_naming_it(cli, store: Store, tmp_path: Path, as_json: bool) -> None:
    fifo = tmp_path / "f.md"
    os.mkfifo(fifo)
    r = cli("import", str(fifo), *(["--json"] if as_json else []))
    assert r.code == 1, r.out + r.err
    if as_json:
        assert r.json["ok"] is False and r.json["error"]["code"] == "invalid"
        message = r.json["error"]["message"]
    else:
        message = r.err
    assert str(fifo) in message and "FIFO" in message and "not a regular file" in message
    assert store.list() == []


def test_a_missing_source_is_still_not_found(cli, store: Store, tmp_path: Path) -> None:
    r = cli("import", str(tmp_path / "nope.md"), "--json")
    assert r.code == 1 and r.json["error"]["code"] == "not_found"


def test_a_fifo_and_a_loop_in_a_folder_are_skipped_with_the_reason(cli, store: Store, fifo_folder: Path) -> None:
    r = cli("import", str(fifo_folder), "--json")
    assert r.code == 0, r.out + r.err
    data = r.json["data"]
    assert data["imported"] == ["imported/build"]
    skipped = {s["title"]: s["reason"] for s in data["skipped"]}
    assert "FIFO" in skipped["MEMORY.md"] and "not a regular file" in skipped["MEMORY.md"]
    assert "symlink loop" in skipped["loop.md"]
    human = cli("import", str(fifo_folder))
    assert human.code == 0 and "skipped 'MEMORY.md': is a FIFO" in human.out, human.out
