"""Issue 38: a ``journal forget`` SIGKILLed half-way (its day rewritten outside the store,
its trash copy written, no undo record) is rolled back by the next command, the project's
day included: the day is on disk as before, nothing is in the trash, nothing is logged. A
day changed since the kill (a hook's appended turn) is not overwritten by the recovery of a
copy of the store. The process kills itself at a named step (``MEMSEARCH_TUI_TEST_KILL_AT``)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.history.intent import KILL_ENV, pending_dir
from tests.conftest import tree_bytes
from tests.journals.conftest import DAY, JOURNAL

MAIN = "from memsearch_tui.cli import main; main()"
APPENDED = "\n### 18:00\n<!-- session:s3 turn:t9 transcript:/tmp/s3.jsonl -->\n- 新的一轮：部署到了预发布环境\n"


def _cli(proj: Path, root: Path, *args: str, kill_at: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop(KILL_ENV, None)
    if kill_at:
        env[KILL_ENV] = kill_at
    cmd = [sys.executable, "-c", MAIN, "--memory-root", str(root), "--project", str(proj), *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)


def _killed_forget(proj: Path, root: Path, point: str) -> None:
    args = ("journal", "forget", DAY, "--session", "s1", "--turn", "t1", "--reason", "wrong 错误")
    proc = _cli(proj, root, *args, kill_at=point)
    assert proc.returncode == -signal.SIGKILL, (point, proc.returncode, proc.stderr[-500:])


# A forget of one turn: the trash copy (1), the day (2), then the trash index.
@pytest.mark.parametrize("point", ["txn-journaled-2", "txn-write-2", "txn-write-3", "txn-before-log"])
@pytest.mark.parametrize("next_command", [("ls",), ("add", "notes", "After", "--body", "after the crash 崩溃之后")])
def test_a_killed_journal_forget_is_rolled_back_day_included(
    proj: Path, day_path: Path, point: str, next_command: tuple[str, ...]
) -> None:
    root = proj / "memory"
    store_before, seqs = tree_bytes(root), [r.seq for r in oplog.records(root)]
    _killed_forget(proj, root, point)
    assert any(pending_dir(root).iterdir())
    r = _cli(proj, root, *next_command)
    assert r.returncode == 0, r.stderr
    assert day_path.read_text(encoding="utf-8") == JOURNAL  # the forgotten turn is back in the day
    assert not (root / ".trash").exists() or not list((root / ".trash").rglob("*2026-11-28*"))
    assert not any(pending_dir(root).iterdir())
    if next_command == ("ls",):
        assert tree_bytes(root) == store_before
        assert [r.seq for r in oplog.records(root)] == seqs


def test_a_killed_forget_after_its_record_is_complete(proj: Path, day_path: Path) -> None:
    root = proj / "memory"
    _killed_forget(proj, root, "txn-logged")
    assert _cli(proj, root, "ls").returncode == 0
    assert "hunter2-staging" not in day_path.read_text(encoding="utf-8")  # kept: it was committed
    assert list((root / ".trash").rglob("2026-11-28*.md"))
    r = _cli(proj, root, "undo")
    assert r.returncode == 0, r.stderr
    assert day_path.read_text(encoding="utf-8") == JOURNAL


def test_a_copy_recovering_later_leaves_a_day_changed_since(proj: Path, day_path: Path, tmp_path: Path) -> None:
    root, copy = proj / "memory", tmp_path / "copy"
    _killed_forget(proj, root, "txn-write-2")
    shutil.copytree(root, copy, symlinks=True)  # a backup taken while the writer lay dead
    assert _cli(proj, root, "ls").returncode == 0  # the original recovers: the day is back
    assert day_path.read_text(encoding="utf-8") == JOURNAL
    with day_path.open("a", encoding="utf-8") as fh:  # the agent's hook goes on writing
        fh.write(APPENDED)
    assert _cli(proj, copy, "ls").returncode == 0  # the copy's recovery
    assert day_path.read_text(encoding="utf-8") == JOURNAL + APPENDED
    assert not any(pending_dir(copy).iterdir())
