"""Issue 38, item 1: a store that is copied (``cp -a``) or moved (``mv``) keeps its history.

The op log and the intent journal name paths relative to the memory root, so ``undo`` and
``redo`` in a copy change the copy only, a moved store can still undo, and a record from
before (absolute paths) is read against the current root when it lies under it and
refused, naming the path, when it does not: never applied to the other store.
"""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Conflict
from memsearch_tui.engine.history import oplog, undo
from memsearch_tui.engine.history.intent import pending_dir
from memsearch_tui.engine.store.store import Store
from tests.conftest import tree_bytes
from tests.store.test_crash_safety import _cli


def _cp_a(src: Path, dst: Path) -> None:
    subprocess.run(["cp", "-a", str(src), str(dst)], check=True)


@pytest.fixture
def a(tmp_path: Path) -> Path:
    store = Store(tmp_path / "a")
    store.init()
    store.add("notes", "First", "the first note\n")
    store.add("notes", "Second", "the second note\n")
    return store.root


def _absolute_records(root: Path) -> None:
    """Rewrite the log as it was before paths were relative: absolute, under ``root``."""
    log = root / ".memsearch-tui" / "oplog"
    for p in log.glob("*.json"):
        data = json.loads(p.read_text(encoding="utf-8"))
        for f in data["files"]:
            f["path"] = str(root.absolute() / f["path"])
        p.write_text(json.dumps(data), encoding="utf-8")


def test_the_log_keeps_paths_relative_to_the_root(a: Path) -> None:
    for p in (a / ".memsearch-tui" / "oplog").glob("*.json"):
        for f in json.loads(p.read_text(encoding="utf-8"))["files"]:
            assert not Path(f["path"]).is_absolute(), f
            assert str(a) not in f["path"]


def test_undo_in_a_copy_changes_the_copy_only(a: Path, tmp_path: Path) -> None:
    b = tmp_path / "b"
    _cp_a(a, b)
    original = tree_bytes(a)
    proc = _cli(b, "undo")
    assert proc.returncode == 0, proc.stderr
    assert not (b / "notes" / "second.md").exists()
    assert "Second" not in (b / "notes" / "INDEX.md").read_text(encoding="utf-8")
    assert tree_bytes(a) == original  # the original keeps its acknowledged entry
    assert not any(r.undone for r in oplog.records(a))
    proc = _cli(b, "redo")
    assert proc.returncode == 0, proc.stderr
    assert (b / "notes" / "second.md").exists()
    assert tree_bytes(a) == original and tree_bytes(b) == original


def test_a_moved_store_keeps_its_history(a: Path, tmp_path: Path) -> None:
    c = tmp_path / "moved" / "c"
    c.parent.mkdir()
    subprocess.run(["mv", str(a), str(c)], check=True)
    proc = _cli(c, "undo")
    assert proc.returncode == 0, proc.stderr
    assert not (c / "notes" / "second.md").exists() and (c / "notes" / "first.md").exists()
    assert not a.exists()  # nothing recreated where the store was


def test_an_old_absolute_record_under_the_root_still_undoes(a: Path) -> None:
    _absolute_records(a)
    rec = undo.undo_last(a)
    assert "Second" in rec.summary
    assert not (a / "notes" / "second.md").exists()


def test_an_old_absolute_record_from_elsewhere_is_refused_and_named(a: Path, tmp_path: Path) -> None:
    _absolute_records(a)
    b = tmp_path / "b"
    _cp_a(a, b)
    original, copy = tree_bytes(a), tree_bytes(b)
    with pytest.raises(Conflict, match=r"outside this store") as exc:
        undo.undo_last(b)
    assert str(a / "notes" / "second.md") in str(exc.value)
    proc = _cli(b, "undo", "--json")
    out = json.loads(proc.stdout)
    assert proc.returncode == 1 and not out["ok"] and "outside this store" in out["error"]["message"]
    assert "Traceback" not in proc.stderr
    assert tree_bytes(a) == original and tree_bytes(b) == copy  # neither store touched


def test_a_copy_of_a_crashed_store_recovers_in_the_copy(a: Path, tmp_path: Path) -> None:
    before = tree_bytes(a)
    proc = _cli(a, "add", "notes", "Third", "--body", "cut short", kill_at="txn-write-2")
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-500:]
    crashed = tree_bytes(a)
    assert crashed != before and any(pending_dir(a).iterdir())
    b = tmp_path / "b"
    _cp_a(a, b)
    assert sorted(e.id for e in Store(b).list()) == ["notes/first", "notes/second"]
    assert tree_bytes(b) == before  # the copy rolled its own files back
    assert tree_bytes(a) == crashed  # the original was not touched by the copy's recovery
    assert any(pending_dir(a).iterdir())
