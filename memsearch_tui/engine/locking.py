"""One inter-process write lock per memory root, so a hook and the TUI never interleave.

Backed by ``filelock`` (an OS-level lock: a killed holder releases it, so it can never be
left stuck). The lock file lives in the root's private state folder.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from filelock import FileLock, Timeout

from .errors import LockTimeout

STATE_DIR = ".memsearch-tui"


@contextmanager
def root_lock(root: Path, *, timeout: float = 10.0) -> Iterator[None]:
    """Hold the write lock of memory root ``root`` (re-entrant within one process)."""
    state = Path(root) / STATE_DIR
    state.mkdir(parents=True, exist_ok=True)
    lock = _lock_for(state / "write.lock")
    try:
        lock.acquire(timeout=timeout)
    except Timeout:
        raise LockTimeout(
            f"{root}: another memsearch-tui process holds the write lock "
            f"({state / 'write.lock'}); try again when it finishes"
        ) from None
    try:
        yield
    finally:
        lock.release()


_LOCKS: dict[tuple[int, Path], FileLock] = {}


def _lock_for(path: Path) -> FileLock:
    """One FileLock object per path per process (keyed by pid: a forked child must not
    reuse its parent's), so nested use within a process is re-entrant."""
    key = (os.getpid(), path.resolve())
    if key not in _LOCKS:
        _LOCKS[key] = FileLock(str(key[1]))
    return _LOCKS[key]
