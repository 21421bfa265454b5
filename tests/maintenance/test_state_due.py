"""Digest, due logic, state schema and task locks, as memsearch defines them."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memsearch_tui.engine.maintenance.due import is_due, resolve_task_path
from memsearch_tui.engine.maintenance.locks import inspect_pid_lock, pid_lock_path, stale_locks, task_lock
from memsearch_tui.engine.memsearch.config import TaskSettings
from memsearch_tui.engine.memsearch.state import (
    input_digest,
    load_state,
    record_failure,
    record_success,
    state_path,
)


def task(interval: float = 24) -> TaskSettings:
    return TaskSettings(
        "claude-code", "project_review", True, "native", "", interval, ".memsearch/memory", ".memsearch/PROJECT.md"
    )


def test_digest_is_memsearchs(tmp_path: Path):
    d = tmp_path / "memory"
    assert input_digest(d) == "sha256:empty"
    (d / "sub").mkdir(parents=True)
    (d / "b.md").write_bytes(b"B")
    (d / "sub" / "a.md").write_bytes(b"A\xff")
    (d / "ignored.txt").write_bytes(b"x")
    h = hashlib.sha256()
    for rel, data in sorted([("b.md", b"B"), ("sub/a.md", b"A\xff")]):
        h.update(rel.encode() + b"\0" + data + b"\0")
    assert input_digest(d) == "sha256:" + h.hexdigest()
    empty = hashlib.sha256().hexdigest()
    (tmp_path / "e").mkdir()
    assert input_digest(tmp_path / "e") == f"sha256:{empty}"


def test_due_order():
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    recent = (now - timedelta(hours=2)).isoformat().replace("+00:00", "Z")
    old = (now - timedelta(hours=30)).isoformat().replace("+00:00", "Z")
    assert is_due(task(), {"last_input_digest": "d"}, "d", force=True, now=now) == (True, "forced")
    assert is_due(task(), {"last_input_digest": "d", "last_success_at": old}, "d", now=now) == (
        False,
        "input unchanged",
    )
    assert is_due(task(), {}, "d", now=now) == (True, "never run")
    due, why = is_due(task(), {"last_input_digest": "x", "last_success_at": recent}, "d", now=now)
    assert not due and why.startswith("not due for 24h")
    assert is_due(task(), {"last_input_digest": "x", "last_success_at": old}, "d", now=now) == (True, "due")
    assert is_due(task(0), {"last_input_digest": "x", "last_success_at": recent}, "d", now=now) == (True, "due")
    assert is_due(task(), {"last_success_at": "garbage"}, "d", now=now) == (True, "invalid state timestamp")
    # a failure alone (no success) keeps the task due
    assert is_due(task(), {"last_failed_at": recent, "failed_input_digest": "d"}, "d", now=now)[0]


def test_paths_follow_memsearch(tmp_path: Path):
    project, mem = tmp_path / "p", tmp_path / "elsewhere"
    assert resolve_task_path(".memsearch/memory", project, mem) == (mem / "memory").resolve()
    assert resolve_task_path(".memsearch/PROJECT.md", project, mem) == (project / ".memsearch/PROJECT.md").resolve()
    assert resolve_task_path("/abs/x.md", project, mem) == Path("/abs/x.md")


def test_state_success_replaces_failure_merges(tmp_path: Path):
    mem = tmp_path / ".memsearch"
    record_success(mem, "codex.user_profile", digest="sha256:1", action="none", output_file=tmp_path / "U.md")
    record_success(
        mem, "claude-code.project_review", digest="sha256:1", action="replace", output_file=tmp_path / "P.md"
    )
    first = load_state(mem)[0]["claude-code.project_review"]
    record_failure(mem, "claude-code.project_review", digest="sha256:2", error="x" * 5000)
    state, problem = load_state(mem)
    entry = state["claude-code.project_review"]
    assert problem == ""
    assert entry["last_success_at"] == first["last_success_at"] and entry["last_input_digest"] == "sha256:1"
    assert entry["last_action"] == "error" and entry["failed_input_digest"] == "sha256:2"
    assert (
        len(entry["last_error"]) == 2000
        and entry["last_error"].endswith("... [truncated]")
        and entry["last_failed_at"].endswith("Z")
    )
    assert "codex.user_profile" in state
    raw = state_path(mem).read_text(encoding="utf-8")
    assert raw == json.dumps(state, indent=2, sort_keys=True) + "\n"
    record_success(mem, "claude-code.project_review", digest="sha256:3", action="none", output_file=tmp_path / "P.md")
    assert set(load_state(mem)[0]["claude-code.project_review"]) == {
        "last_checked_at",
        "last_success_at",
        "last_input_digest",
        "last_action",
        "output_file",
    }


def test_broken_state_reads_empty_with_problem(tmp_path: Path):
    mem = tmp_path
    state_path(mem).write_text("{not json", encoding="utf-8")
    state, problem = load_state(mem)
    assert state == {} and "unreadable state" in problem


def test_lock_busy_then_free(tmp_path: Path):
    with task_lock(tmp_path, "codex", "user_profile") as held:
        assert held
        assert inspect_pid_lock(pid_lock_path(tmp_path, "codex", "user_profile")).pid == os.getpid()
        with task_lock(tmp_path, "codex", "user_profile") as again:
            assert not again  # a second holder in the same process is refused (non-reentrant by design)
    assert not pid_lock_path(tmp_path, "codex", "user_profile").exists()
    with task_lock(tmp_path, "codex", "user_profile") as held:
        assert held


def test_killed_run_leaves_no_stuck_lock(tmp_path: Path):
    """A process killed while holding the lock: the OS lock is gone, its pid file is stale."""
    code = (
        "import os, sys, time; from pathlib import Path\n"
        "from memsearch_tui.engine.maintenance.locks import task_lock\n"
        f"with task_lock(Path({str(tmp_path)!r}), 'codex', 'project_review') as h:\n"
        "    print('held', flush=True); os.kill(os.getpid(), 9)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == -9 and "held" in proc.stdout
    assert pid_lock_path(tmp_path, "codex", "project_review").exists()
    assert [lk.path.name for lk in stale_locks(tmp_path)] == [".maintenance-codex-project_review.lock"]
    with task_lock(tmp_path, "codex", "project_review") as held:
        assert held


def test_live_memsearch_lock_is_respected(tmp_path: Path):
    pid_lock_path(tmp_path, "codex", "project_review").write_text(str(os.getppid()))
    with task_lock(tmp_path, "codex", "project_review") as held:
        assert not held
    assert stale_locks(tmp_path) == []
