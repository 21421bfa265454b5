"""The hook under hostile input (issue 19): its stdin payload and its runner's pid file.

A payload is read once within a size cap and one overall deadline and parsed without a
RecursionError; the background runner's protocol files are read only when they are small
regular files; a pid file names our runner only with the start time it had when spawned.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.upkeep import background
from memsearch_tui.engine.upkeep.fast_path import PAYLOAD_SECONDS
from tests.maintenance.test_run_due import due

CODEX_OK = b'{"continue":true}\n'


@pytest.mark.parametrize(
    "payload",
    [b"[" * 5_000, b'{"a":' * 5_000, b'{"cwd": ' + b"[" * 5_000],  # the decoder recurses ~1,000 levels deep
    ids=["lists", "objects", "inside-an-object"],
)
def test_a_deeply_nested_payload_is_ignored_not_a_traceback(env, payload):
    r = due(env, "--hook", "codex", stdin=payload)
    assert (r.returncode, r.stdout) == (0, CODEX_OK), r.stderr[-800:]
    assert b"Traceback" not in r.stderr and b"ignoring malformed hook payload" in r.stderr


def test_an_oversized_payload_is_ignored(env):
    r = due(env, "--hook", "codex", stdin=b'{"cwd": "' + b"x" * 2_000_000 + b'"}')
    assert (r.returncode, r.stdout) == (0, CODEX_OK)
    assert b"byte limit" in r.stderr and b"Traceback" not in r.stderr


def test_a_trickling_payload_cannot_hold_the_hook(env):
    """Bytes that keep arriving, slower than any host writes, forever: one overall deadline."""
    code = "import sys; from memsearch_tui.cli import main; main(sys.argv[1:])"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "--run-due", "--hook", "codex"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=env.project,
        env={**os.environ, "HOME": str(env.home), "MEMSEARCH_TUI_MEMORY_ROOT": str(env.store)},
    )
    stop = threading.Event()

    def trickle() -> None:
        assert proc.stdin is not None
        try:
            proc.stdin.write(b'{"cwd": "')
            while not stop.is_set():
                proc.stdin.write(b"x")
                proc.stdin.flush()
                time.sleep(0.05)
        except (BrokenPipeError, ValueError):
            pass

    writer = threading.Thread(target=trickle, daemon=True)
    writer.start()
    try:
        proc.wait(timeout=30 + PAYLOAD_SECONDS)  # not communicate(): it would close stdin (an EOF)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the hook waited on a trickling payload")
    finally:
        stop.set()
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    assert (proc.returncode, out) == (0, CODEX_OK)
    assert b"still arriving" in err and b"Traceback" not in err


def _in_subprocess(code: str, timeout: float = 30) -> str:
    try:
        return subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=True
        ).stdout.strip()
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung: {code}")


@pytest.mark.parametrize("name", [background.PID_FILE, background.REQUEST])
def test_a_fifo_in_the_runner_protocol_never_hangs(tmp_path, name):
    os.mkfifo(tmp_path / name)
    code = (
        "from pathlib import Path\nfrom memsearch_tui.engine.upkeep import background\n"
        f"state = Path({str(tmp_path)!r})\n"
        "print(background.runner_active(state), background.run(state, lambda: {'result': 'none'}))\n"
    )
    assert _in_subprocess(code) == "None 1"


@pytest.fixture
def stranger():
    """A live process that is not our runner (its pid is what a stale pid file may name)."""
    proc = subprocess.Popen(["sleep", "60"])
    yield proc.pid
    proc.kill()
    proc.wait()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="start times come from /proc")
def test_a_stale_pid_file_naming_a_live_stranger_does_not_stop_the_upkeep(tmp_path, stranger, monkeypatch):
    (tmp_path / background.PID_FILE).write_text(str(stranger), encoding="utf-8")  # a pid, fresh, alive
    assert background.starting_pid(tmp_path) is None
    spawned = []
    monkeypatch.setattr(background, "spawn", lambda *a: spawned.append(a) or stranger)  # not a runner: a stand-in
    assert background.request(tmp_path, tmp_path / "memory", tmp_path) == ("spawned", stranger)
    assert len(spawned) == 1


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="start times come from /proc")
def test_a_pid_file_recorded_at_spawn_still_merges_requests(tmp_path, stranger, monkeypatch):
    monkeypatch.setattr(background, "spawn", lambda *a: stranger)  # the process we "spawned"
    assert background.request(tmp_path, tmp_path / "memory", tmp_path) == ("spawned", stranger)
    assert (tmp_path / background.PID_FILE).read_text().split()[0] == str(stranger)
    assert background.starting_pid(tmp_path) == stranger
    assert background.request(tmp_path, tmp_path / "memory", tmp_path) == ("merged", stranger)
