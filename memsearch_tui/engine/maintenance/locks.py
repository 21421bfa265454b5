"""The per-task lock: a killed run can never leave it stuck.

Two layers, so we interoperate with memsearch's own runner:

* an OS lock (``filelock``, fcntl/msvcrt) on ``.maintenance-<platform>-<task>.tui-lock`` —
  the kernel drops it when the holder dies, so it cannot go stale;
* memsearch's ``O_EXCL`` pid file ``.maintenance-<platform>-<task>.lock``, which we create
  too (so a memsearch run started meanwhile reports "locked") and which memsearch never
  cleans up after a crash. We treat it as stale when its pid is dead or it is older than
  ``STALE_AFTER_S``, and remove it.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

STALE_AFTER_S = 2 * 3600


@dataclass
class PidLock:
    path: Path
    pid: int | None
    age_s: float
    stale: bool


def pid_lock_path(memsearch_dir: Path, platform: str, task: str) -> Path:
    return Path(memsearch_dir) / f".maintenance-{platform}-{task}.lock"


def os_lock_path(memsearch_dir: Path, platform: str, task: str) -> Path:
    return Path(memsearch_dir) / f".maintenance-{platform}-{task}.tui-lock"


def inspect_pid_lock(path: Path) -> PidLock | None:
    """The memsearch-style pid lock at ``path``, or None when there is none."""
    try:
        raw = path.read_text(encoding="utf-8", errors="replace").strip()
        age = time.time() - path.stat().st_mtime
    except FileNotFoundError:
        return None
    except OSError:
        return PidLock(path, None, 0.0, False)
    pid = int(raw) if raw.isdigit() else None
    stale = age > STALE_AFTER_S or (pid is not None and not _alive(pid)) or (pid is None and age > 60)
    return PidLock(path, pid, age, stale)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stale_locks(memsearch_dir: Path) -> list[PidLock]:
    """Stale memsearch pid locks (for ``doctor``)."""
    found = []
    for path in sorted(Path(memsearch_dir).glob(".maintenance-*.lock")):
        info = inspect_pid_lock(path)
        if info and info.stale:
            found.append(info)
    return found


@contextlib.contextmanager
def task_lock(memsearch_dir: Path, platform: str, task: str) -> Iterator[bool]:
    """Yield True while holding the task's lock, False if another run holds it."""
    from filelock import FileLock, Timeout  # small, but keep the no-op hook path lean

    Path(memsearch_dir).mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(os_lock_path(memsearch_dir, platform, task)))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        yield False
        return
    try:
        pid_path = pid_lock_path(memsearch_dir, platform, task)
        if not _take_pid_lock(pid_path):
            yield False
            return
        try:
            yield True
        finally:
            with contextlib.suppress(OSError):
                pid_path.unlink()
    finally:
        lock.release()


def _take_pid_lock(path: Path) -> bool:
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            info = inspect_pid_lock(path)
            if info is None:
                continue
            if not info.stale:
                return False
            with contextlib.suppress(OSError):
                path.unlink()
            continue
        with os.fdopen(fd, "w") as fh:
            fh.write(str(os.getpid()))
        return True
    return False
