"""Issue 19: a real ``add`` (and ``undo``) SIGKILLed at each step of its transaction leaves
either the whole operation (entry, INDEX.md rows, undo record) or nothing at all, byte for
byte, once the next reader or writer opens the store; the next ``undo`` reverts the right
operation. The process kills itself at a named point (``MEMSEARCH_TUI_TEST_KILL_AT``, a
test-only hook in ``history/intent.py``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.history.intent import KILL_ENV, pending_dir
from memsearch_tui.engine.history.undo import undo_last
from memsearch_tui.engine.store.store import Store
from tests.conftest import tree_bytes

MAIN = "from memsearch_tui.cli import main; main()"
# An add to an existing category touches three paths: the entry, the category's INDEX.md
# and the root INDEX.md; each is journaled, then written.
BEFORE_COMMIT = [f"txn-{step}-{n}" for n in (1, 2, 3) for step in ("journaled", "write")] + ["txn-before-log"]


def _cli(root: Path, *args: str, kill_at: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop(KILL_ENV, None)
    if kill_at:
        env[KILL_ENV] = kill_at
    cmd = [sys.executable, "-c", MAIN, "--memory-root", str(root), *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    store = Store(tmp_path / "memory")
    store.init()
    store.add("notes", "First", "the first note, added before the crash")
    return store.root


def _killed(root: Path, point: str) -> None:
    proc = _cli(root, "add", "notes", "Second", "--body", "the second note, cut short", kill_at=point)
    assert proc.returncode == -signal.SIGKILL, (point, proc.returncode, proc.stderr[-500:])


@pytest.mark.parametrize("point", BEFORE_COMMIT)
def test_an_add_killed_before_its_commit_leaves_nothing(root: Path, point: str) -> None:
    before = tree_bytes(root)
    seqs = [r.seq for r in oplog.records(root)]
    _killed(root, point)
    assert any(pending_dir(root).iterdir())  # the journal the kill left
    assert [e.id for e in Store(root).list()] == ["notes/first"]  # a reader rolls it back
    assert tree_bytes(root) == before
    assert not any(pending_dir(root).iterdir())
    assert [r.seq for r in oplog.records(root)] == seqs
    assert undo_last(root).summary.startswith("add to notes: First")  # the right operation
    assert not (root / "notes" / "first.md").exists()


def test_an_add_killed_after_its_record_is_complete(root: Path) -> None:
    _killed(root, "txn-logged")
    assert sorted(e.id for e in Store(root).list()) == ["notes/first", "notes/second"]
    assert "Second" in (root / "notes" / "INDEX.md").read_text(encoding="utf-8")
    assert not any(pending_dir(root).iterdir())  # rolled forward: only the journal went
    assert undo_last(root).summary.startswith("add to notes: Second")
    assert not (root / "notes" / "second.md").exists() and (root / "notes" / "first.md").exists()


def test_the_next_writer_rolls_back_too(root: Path) -> None:
    before = tree_bytes(root)
    _killed(root, "txn-write-1")  # the entry is written, no INDEX.md row, no record
    proc = _cli(root, "add", "notes", "Third", "--body", "the third note, after the crash")
    assert proc.returncode == 0, proc.stderr
    assert not (root / "notes" / "second.md").exists()
    index = (root / "notes" / "INDEX.md").read_text(encoding="utf-8")
    assert "Third" in index and "Second" not in index
    assert undo_last(root).summary.startswith("add to notes: Third")
    assert tree_bytes(root) == before


@pytest.mark.parametrize("point", ["txn-write-1", "txn-write-2", "txn-before-log"])
def test_an_undo_killed_half_way_can_be_run_again(root: Path, point: str) -> None:
    assert _cli(root, "add", "notes", "Second", "--body", "the second note, to undo").returncode == 0
    after = tree_bytes(root)
    proc = _cli(root, "undo", kill_at=point)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-500:]
    Store(root).list()
    assert tree_bytes(root) == after  # the half-done undo was put back
    assert undo_last(root).summary.startswith("add to notes: Second")
    assert not (root / "notes" / "second.md").exists()
    assert undo_last(root).summary.startswith("add to notes: First")


def test_an_undo_killed_while_its_journal_is_removed_loses_nothing(tmp_path: Path, monkeypatch) -> None:
    """The undo's files are done and its journal is being removed when the kill comes: the
    kept "before" bytes are gone but the record is not (the folder's removal is not one
    step). The undo is never logged, so recovery took it for unfinished, deleted the path
    it had created and could not restore the one it had changed: the entry was lost (the
    SIGKILL loop of tests/curator found it). The record now goes first."""
    import shutil

    from memsearch_tui.engine.curator import lifecycle
    from memsearch_tui.engine.history import intent
    from tests.curator.curator_helpers import bodies

    store = Store(tmp_path / "memory")
    store.init()
    entry = store.add("work", "Item 9", "Item 9 remembers delta echo.\n")
    lifecycle.archive(store, entry.id)
    before = bodies(store.root)
    real_rmtree = shutil.rmtree

    def killed_part_way(folder, *args, **kwargs):  # the kept bytes go, then the kill
        if pending_dir(store.root) not in Path(folder).parents:
            # shutil.rmtree is global: a TemporaryDirectory finalised by the garbage
            # collector meanwhile must get the real one (a KeyboardInterrupt raised inside
            # gc surfaced as PytestUnraisableExceptionWarning in full runs).
            return real_rmtree(folder, *args, **kwargs)
        for p in Path(folder).iterdir():
            if p.name != intent.RECORD:
                p.unlink()
        raise KeyboardInterrupt  # stands in for the SIGKILL: nothing after it runs

    monkeypatch.setattr(intent.shutil, "rmtree", killed_part_way)
    with pytest.raises(KeyboardInterrupt):
        undo_last(store.root)
    monkeypatch.setattr(intent.shutil, "rmtree", real_rmtree)
    store.rebuild_index()  # the next writer recovers what the kill left
    assert bodies(store.root) == before
    assert not any(pending_dir(store.root).iterdir())


def test_the_next_writer_removes_the_temp_files_a_killed_writer_left(root: Path) -> None:
    """Issue 38: a writer killed inside an atomic write leaves ``.INDEX.md.<random>.tmp``
    beside the file; the next writer (which rolls the killed one back) removes it too."""
    _killed(root, "txn-journaled-2")  # journaled notes/INDEX.md, killed before writing it
    left = root / "notes" / ".INDEX.md.k1ll3d42.tmp"  # what a kill inside the write leaves
    left.write_text("| half a table")
    kept = root / "notes" / ".INDEX.md.notours.bak"  # not our temp name: never touched
    kept.write_text("x")
    proc = _cli(root, "add", "notes", "Third", "--body", "the next writer")
    assert proc.returncode == 0, proc.stderr
    assert not left.exists() and kept.exists()
