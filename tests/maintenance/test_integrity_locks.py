"""Maintenance beside memsearch: one lock, taken before any input is read (issue #12, item 7)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance import run as run_mod
from memsearch_tui.engine.maintenance import run_tasks
from memsearch_tui.engine.maintenance.locks import inspect_pid_lock, pid_lock_path, stale_locks
from memsearch_tui.engine.memsearch.state import input_digest, load_state, record_success, state_path
from tests.maintenance.conftest import answer_script

NONE = '{"action": "none", "reason": "nothing new"}'
KEY = "claude-code.project_review"


def counting_provider(env, delay: float = 0.0) -> Path:
    """A provider that notes each call (one line per call) and answers "none"."""
    calls = env.tmp / "calls.txt"
    quoted = NONE.replace("'", "'\"'\"'")
    script = env.script("counting", f"cat > /dev/null\necho call >> '{calls}'\nsleep {delay}\nprintf '%s' '{quoted}'\n")
    env.command_provider(script)
    return calls


def calls_made(calls: Path) -> int:
    return len(calls.read_text().splitlines()) if calls.exists() else 0


def test_memsearch_finishing_between_our_check_and_our_lock_is_not_run_twice(env, monkeypatch):
    calls = counting_provider(env)
    real_lock = run_mod.task_lock

    @contextlib.contextmanager
    def memsearch_finishes_first(mem, platform, task):
        # memsearch held the lock while we checked "due"; it records its success and
        # deletes its lock just before we take ours.
        digest = input_digest(env.mem / "memory")
        record_success(mem, f"{platform}.{task}", digest=digest, action="none", output_file=env.mem / "PROJECT.md")
        with real_lock(mem, platform, task) as held:
            yield held

    monkeypatch.setattr(run_mod, "task_lock", memsearch_finishes_first)
    (r,) = [r for r in run_tasks(env.project, env.config(), tasks=["project_review"]) if r.result != "disabled"]
    assert r.result == "skip" and r.reason == "input unchanged"
    assert calls_made(calls) == 0  # no second LLM call for the same input


def test_two_runners_at_the_same_moment_call_the_llm_once(env):
    calls = counting_provider(env, delay=2)
    code = (
        "from pathlib import Path; from memsearch_tui.engine.maintenance import run_tasks;"
        "from memsearch_tui.engine.memsearch.config import load_config;"
        f"p = Path({str(env.project)!r}); h = Path({str(env.home)!r});"
        "print([r.result for r in run_tasks(p, load_config(p, home=h), tasks=['project_review'])"
        " if r.result != 'disabled'])"
    )
    environ = {**os.environ, "HOME": str(env.home), "PYTHONPATH": os.getcwd()}
    procs = [
        subprocess.Popen([sys.executable, "-c", code], env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    results = sorted(out.decode().strip() for out, _ in outs)
    assert all(p.returncode == 0 for p in procs), [e.decode() for _, e in outs]
    assert calls_made(calls) == 1
    assert results[0] in ("['locked']", "['skip']") and results[1] == "['none']", results


def test_a_live_memsearch_lock_is_respected_and_never_deleted(env):
    calls = counting_provider(env)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        lock = pid_lock_path(env.mem, "claude-code", "project_review")
        lock.write_text(str(sleeper.pid))
        old = time.time() - 10 * 3600  # old, but its owner lives: still memsearch's
        os.utime(lock, (old, old))
        (r,) = [r for r in run_tasks(env.project, env.config(), tasks=["project_review"]) if r.result != "disabled"]
        assert r.result == "locked" and calls_made(calls) == 0
        assert lock.read_text() == str(sleeper.pid)
    finally:
        sleeper.kill()
        sleeper.wait()


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.mark.parametrize(
    "content",
    ["dead", "99999999999999999999999", "4294967296", "0", "-5", "not a pid", b"\xff\xfe\x00", "9" * 5000],
    ids=["dead", "huge", "over-pid-max", "zero", "negative", "words", "binary", "5000-digits"],
)
def test_stale_locks_are_broken_never_a_traceback(env, content):
    calls = counting_provider(env)
    lock = pid_lock_path(env.mem, "claude-code", "project_review")
    data = str(_dead_pid()).encode() if content == "dead" else content
    lock.write_bytes(data if isinstance(data, bytes) else data.encode())
    info = inspect_pid_lock(lock)
    assert info is not None and info.stale
    assert [s.path for s in stale_locks(env.mem)] == [lock]
    (r,) = [r for r in run_tasks(env.project, env.config(), tasks=["project_review"]) if r.result != "disabled"]
    assert r.result == "none" and calls_made(calls) == 1
    assert not lock.exists()


def test_a_fifo_as_lock_file_is_stale_not_a_hang(env):
    lock = pid_lock_path(env.mem, "claude-code", "project_review")
    os.mkfifo(lock)
    code = (
        "import sys; from pathlib import Path; from memsearch_tui.engine.maintenance.locks import inspect_pid_lock;"
        "print(inspect_pid_lock(Path(sys.argv[1])).stale)"
    )
    environ = {**os.environ, "PYTHONPATH": os.getcwd()}
    proc = subprocess.run([sys.executable, "-c", code, str(lock)], env=environ, capture_output=True, timeout=60)
    assert proc.stdout.strip() == b"True", proc.stderr  # a process: a blocking open would hang, not fail


def test_a_pending_proposal_is_recorded_as_proposed_in_our_own_key(env):
    env.command_provider(answer_script(env, '{"action": "replace", "reason": "r", "content": "# P"}'))
    (r,) = [r for r in run_tasks(env.project, env.config(), tasks=["project_review"]) if r.result != "disabled"]
    assert r.result == "proposed"
    entry = json.loads(state_path(env.mem).read_text())[KEY]
    assert entry["last_action"] == "none"  # memsearch's key: one of its own values, and true
    assert entry["tui_action"] == "proposed" and entry["proposal_id"] == r.proposal_id
    assert {"last_checked_at", "last_success_at", "last_input_digest", "output_file"} <= set(entry)


def test_deeply_nested_state_is_reported_not_a_traceback(env):
    state_path(env.mem).write_text("[" * 100_000 + "]" * 100_000)
    state, problem = load_state(env.mem)
    assert state == {} and str(state_path(env.mem)) in problem
    env.command_provider(answer_script(env, NONE))
    environ = {**os.environ, "HOME": str(env.home), "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store)}
    proc = subprocess.run(
        [sys.executable, "-c", "from memsearch_tui.cli import main; main()", "--run-due"],
        cwd=env.project,
        env=environ,
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr


def test_a_fifo_as_state_file_is_reported_not_a_hang(env):
    os.mkfifo(state_path(env.mem))
    code = (
        "import sys; from pathlib import Path; from memsearch_tui.engine.memsearch.state import load_state;"
        "state, problem = load_state(Path(sys.argv[1])); print(state == {} and sys.argv[1] in problem)"
    )
    environ = {**os.environ, "PYTHONPATH": os.getcwd()}
    proc = subprocess.run([sys.executable, "-c", code, str(env.mem)], env=environ, capture_output=True, timeout=60)
    assert proc.stdout.strip() == b"True", proc.stderr


def test_a_looping_project_config_is_an_error_not_a_traceback(env):
    os.symlink(".memsearch.toml", env.project / ".memsearch.toml")
    environ = {**os.environ, "HOME": str(env.home), "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store)}
    for args in (["--run-due"], ["--run-due", "--hook", "codex"], ["doctor"]):
        proc = subprocess.run(
            [sys.executable, "-c", "from memsearch_tui.cli import main; main()", *args],
            cwd=env.project,
            env=environ,
            capture_output=True,
            timeout=120,
        )
        both = proc.stdout + proc.stderr
        assert b"Traceback" not in both and b".memsearch.toml" in both and proc.returncode in (0, 1), both
