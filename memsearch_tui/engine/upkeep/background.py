"""Vector upkeep off the hook's clock: one detached runner at a time, later requests merged.

Why: a Stop hook runs after every agent turn, and every turn adds a journal line, so
"something changed" is the common case. Embedding it (loading the model, opening Milvus)
takes seconds; a hook must return in a fraction of one. So the hook only *requests* the
work, and a detached process does it, the way due maintenance is already handed off.

Three files in the search state dir carry the protocol (all tiny, written atomically):

* ``upkeep.request`` — a fresh random token per request. A runner notes the token before
  a pass and runs another pass if it changed meanwhile, so requests that arrive while it
  works are merged into one more pass instead of one runner each.
* ``upkeep-runner.lock`` — held (``flock``) by the runner that is working. A second
  runner that cannot take it exits at once: the holder will see its request.
* ``upkeep-runner.pid`` — the pid of a runner just spawned and its start time (``"pid
  start"``), so a second hook in the instant before that runner takes the lock does not
  spawn another. A runner removes it when it ends; a stale one (crash) stops counting after
  :data:`STARTING_GRACE` seconds, and at once when the pid now names another process (the
  start time differs: pids are reused).

Every one of these files is read only when it is a small regular file (``read_capped``):
a FIFO planted under one of the names must not hang the hook.

The last pass's result row is kept in ``upkeep-last.json`` for ``vectors status`` and for
whoever wonders what the background did.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.locking import flock_held, pid_alive, process_start
from memsearch_tui.engine.core.safe_io import load_json, read_capped

REQUEST = "upkeep.request"
RUNNER_LOCK = "upkeep-runner.lock"
SPAWN_LOCK = "upkeep-spawn.lock"
PID_FILE = "upkeep-runner.pid"
LAST = "upkeep-last.json"
STARTING_GRACE = 120.0  # seconds a spawned runner may take to start before its pid file is ignored
MAX_PASSES = 20  # a runner gives up after this many passes in a row (files changing non-stop)

Row = dict[str, Any]  # one task row, as --run-due prints it (the hook's steps name it from here)


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _read(path: Path) -> str:
    """A small protocol file's text; "" for a missing, oversized or non-regular one."""
    try:
        return read_capped(path, 200).decode("utf-8")
    except (OSError, InvalidInput, UnicodeDecodeError):
        return ""


def _pid_record(pid: int) -> str:
    return f"{pid} {process_start(pid) or ''}".strip()


def starting_pid(state_dir: Path) -> int | None:
    """The pid of a runner spawned moments ago that may not hold the lock yet: the file is
    fresh, and the pid it names is alive *and* is the process we spawned (same start time)."""
    path = state_dir / PID_FILE
    words = _read(path).split()
    try:
        pid = int(words[0]) if words and words[0].isdigit() and len(words[0]) <= 10 else 0
        fresh = time.time() - path.stat().st_mtime < STARTING_GRACE
    except OSError:
        return None
    if pid <= 0 or not fresh or not pid_alive(pid):
        return None
    return pid if _pid_record(pid) == " ".join(words[:2]) else None


def runner_active(state_dir: Path) -> int | None:
    """The pid of the runner at work or starting (0 when one holds the lock but its pid is unknown)."""
    pid = starting_pid(state_dir)
    if pid is not None:
        return pid
    return 0 if flock_held(state_dir / RUNNER_LOCK, create=True) else None


def request(state_dir: Path, memory_root: Path, project: Path) -> tuple[str, int]:
    """Ask for an upkeep pass; returns ("spawned" | "merged", pid of the runner).

    Never waits for the work: it writes a token, and spawns a runner only when none is
    working or starting. The check-and-spawn runs under a short lock so two hooks at the
    same instant start one runner, not two.
    """
    state_dir.mkdir(parents=True, exist_ok=True)
    _write(state_dir / REQUEST, uuid.uuid4().hex)
    fd = os.open(state_dir / SPAWN_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        pid = runner_active(state_dir)
        if pid is not None:
            return "merged", pid
        pid = spawn(state_dir, memory_root, project)
        _write(state_dir / PID_FILE, _pid_record(pid))
        return "spawned", pid
    finally:
        os.close(fd)


def spawn(state_dir: Path, memory_root: Path, project: Path) -> int:
    """Start :func:`main` in its own session with no terminal and output discarded."""
    code = "import sys; from memsearch_tui.engine.upkeep.background import main; sys.exit(main(sys.argv[1:]))"
    return detached([sys.executable, "-c", code, str(state_dir), str(memory_root), str(project)], project)


def detached(cmd: list[str], project: Path) -> int:
    """Start ``cmd`` in its own session, no terminal, output discarded; its pid."""
    import subprocess  # only when work is handed off

    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        cwd=str(project) if Path(project).is_dir() else None,
    )
    return proc.pid


def run(state_dir: Path, work: Callable[[], Row]) -> int:
    """Do ``work`` until no request arrived during the last pass; returns the passes run.

    Returns 0 at once when another runner holds the lock (it will see our request).
    """
    lock = state_dir / RUNNER_LOCK
    passes = 0
    try:
        while passes < MAX_PASSES:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    return passes
                while passes < MAX_PASSES:
                    seen = _read(state_dir / REQUEST)
                    try:
                        row = work()
                    except Exception as exc:  # a detached runner has no one to raise to: record it
                        row = {"result": "error", "reason": f"{type(exc).__name__}: {exc}"[:500]}
                    passes += 1
                    _write(
                        state_dir / LAST,
                        json.dumps({**row, "pid": os.getpid(), "finished_at": time.time()}, ensure_ascii=False),
                    )
                    if _read(state_dir / REQUEST) == seen:
                        break
            finally:
                os.close(fd)  # releases the lock
            _forget_pid(state_dir)  # no longer working or starting: a hook from now on spawns
            if _read(state_dir / REQUEST) == seen:
                return passes  # nothing arrived before this runner stopped counting as active
    finally:
        _forget_pid(state_dir)
    return passes


def _forget_pid(state_dir: Path) -> None:
    """Stop counting as a runner starting, under the spawn lock: a hook checks and spawns
    under it, so it either found this pid (and its token is read after this) or spawns.
    Forgotten only at exit, a hook between the runner's last look and its exit merged its
    request into a runner that was leaving: the request was lost until the next hook."""
    path = state_dir / PID_FILE
    fd = os.open(state_dir / SPAWN_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if _read(path).split()[:1] == [str(os.getpid())]:
            path.unlink(missing_ok=True)
    finally:
        os.close(fd)


def last_result(state_dir: Path) -> Row | None:
    """The row of the last background pass, if any."""
    try:
        data = load_json(state_dir / LAST, 1_000_000)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def main(argv: list[str]) -> int:
    """The detached runner: ``state_dir memory_root project``."""
    from memsearch_tui.engine.search.upkeep import upkeep

    state_dir, memory_root, project = (Path(a) for a in argv[:3])
    try:
        os.nice(10)  # background work: the agent, its hooks and the TUI come first
    except (AttributeError, OSError):  # pragma: no cover - no nice() here
        pass
    run(state_dir, lambda: upkeep(memory_root, project))
    return 0
