"""The per-task lock: a killed run can never leave it stuck.

Two layers, so we interoperate with memsearch's own runner:

* an OS lock (``filelock``, fcntl/msvcrt) on ``.maintenance-<platform>-<task>.tui-lock`` —
  the kernel drops it when the holder dies, so it cannot go stale;
* memsearch's ``O_EXCL`` pid file ``.maintenance-<platform>-<task>.lock``, which we create
  too (so a memsearch run started meanwhile reports "locked") and which memsearch never
  cleans up after a crash. We treat it as stale only when no live process can own it
  (``inspect_pid_lock``), and remove it while holding the OS lock, so two of our runs
  never both break it; memsearch only ever creates it with O_EXCL, so it cannot appear
  under us between the check and the removal.

Take the lock *before* reading a task's state or input (``run.run_one`` checks due
cheaply, locks, then checks again): a run that read the state before memsearch finished
the same task would run it a second time.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.locking import pid_alive
from memsearch_tui.engine.core.safe_io import read_capped

EMPTY_GRACE_S = 60


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
    """The memsearch-style pid lock at ``path``, or None when there is none.

    Stale means no live process can hold it: a dead pid, a pid no system hands out (0,
    negative, over ``PID_MAX``), content that is no pid at all, or a file that cannot be
    read. A live pid is never stale, however old (memsearch's lock is respected as long as
    its owner runs). An empty file younger than ``EMPTY_GRACE_S`` is a lock being written
    (memsearch creates it, then writes its pid), so it is live.
    """
    try:
        age = time.time() - path.lstat().st_mtime
    except FileNotFoundError:
        return None
    except OSError:
        return PidLock(path, None, 0.0, True)
    try:
        raw = read_capped(path, 64).decode("ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, InvalidInput, UnicodeDecodeError):
        return PidLock(path, None, age, True)  # a FIFO, a huge or binary file: nobody's lock
    if not raw:
        return PidLock(path, None, age, age > EMPTY_GRACE_S)
    pid = int(raw) if raw.isdigit() and len(raw) <= 10 else None
    stale = pid is None or not pid_alive(pid)
    return PidLock(path, pid, age, stale)


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
            info = inspect_pid_lock(pid_path)
            if info is not None and info.pid == os.getpid():  # only ever our own
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
