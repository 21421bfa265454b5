"""One inter-process write lock per memory root, so a hook and the TUI never interleave.

An OS-level lock on ``.memsearch-tui/write.lock`` (a killed holder releases it, so it can
never be left stuck). On POSIX it is ``fcntl.flock`` taken directly: the same lock
``filelock`` takes on that file (so processes using either exclude each other), without
the ~9 ms that importing ``filelock`` adds to every CLI write. Elsewhere ``filelock``.

Waiting is fair between processes: a waiter polls, and a busy writer (the MCP server, its
agents' writes one after another) used to take the lock again the moment it let it go,
so a CLI ``trash`` polling beside it could miss every gap and give up ("try again").
Now a process that has to wait says so (a shared ``flock`` on ``<lock>.wait``, released
by the kernel if it dies), and a writer that finds someone waiting queues behind them
(polls like them) instead of taking the lock first.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

from memsearch_tui.engine.core.errors import LockTimeout
from memsearch_tui.engine.core.state_files import STATE_DIR, WRITE_LOCK

POLL_SECONDS = 0.01
WAIT_SUFFIX = ".wait"  # beside the lock file: waiters hold a shared flock on it


class _Lock(Protocol):
    def acquire(self, timeout: float) -> bool: ...

    def release(self) -> None: ...


@contextmanager
def root_lock(root: Path, *, timeout: float = 30.0) -> Iterator[None]:
    """Hold the write lock of memory root ``root`` (re-entrant within one thread)."""
    state = Path(root) / STATE_DIR
    state.mkdir(parents=True, exist_ok=True)
    lock = _lock_for(state / WRITE_LOCK, fair=True)
    if not lock.acquire(timeout):
        raise LockTimeout(
            f"{root}: another memsearch-tui process holds the write lock "
            f"({state / WRITE_LOCK}); try again when it finishes"
        )
    try:
        yield
    finally:
        lock.release()


class FlockLock:
    """``flock`` on one file: re-entrant in the holding thread, exclusive across threads
    (a thread-level RLock) and processes (the flock, held while the depth is above 0)."""

    def __init__(self, path: str, *, fair: bool = False) -> None:
        self.path = path
        self.fair = fair  # waiters queue (see the module's docstring)
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def acquire(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        if not self._thread_lock.acquire(timeout=max(timeout, 0.0)):
            return False
        if self._depth == 0:
            try:
                self._fd = self._flock(deadline)
            except BaseException:
                self._thread_lock.release()
                raise
            if self._fd is None:
                self._thread_lock.release()
                return False
        self._depth += 1
        return True

    def _flock(self, deadline: float) -> int | None:
        """An open descriptor holding the flock, or None when ``deadline`` passed first.

        Someone already waiting goes first: then this caller waits too (announced), and
        the waiters' polls decide, instead of this caller taking the lock at once."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        queue = _WaitQueue(self.path + WAIT_SUFFIX if self.fair else None)
        try:
            defer = time.monotonic() < deadline and queue.others_waiting()
            while True:
                if not defer:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        return fd
                    except BlockingIOError:
                        pass
                defer = False
                if time.monotonic() >= deadline:
                    os.close(fd)
                    return None
                queue.join()
                time.sleep(POLL_SECONDS)
        except BaseException:
            os.close(fd)
            raise
        finally:
            queue.leave()

    def release(self) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
        self._thread_lock.release()


class _WaitQueue:
    """The waiters of one lock file: each holds a shared ``flock`` on ``<lock>.wait`` while
    it waits. Best effort: a wait file that cannot be opened (a read-only folder) only
    loses the fairness, never the lock."""

    def __init__(self, path: str | None) -> None:
        self.path = path  # None: no queue (an unfair lock)
        self.fd: int | None = None
        self.joined = False

    def others_waiting(self) -> bool:
        """Another process (or thread) waits now: an exclusive probe of the file fails."""
        fd = self._open()
        if fd is None:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False

    def join(self) -> None:
        """Say this caller waits (once; kept until :meth:`leave`)."""
        fd = None if self.joined else self._open()
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_SH)  # at most a probe's instant: nobody holds it exclusively longer
            self.joined = True

    def leave(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing drops the shared lock
            self.fd = None

    def _open(self) -> int | None:
        if self.fd is None and self.path is not None:
            try:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError:
                return None
        return self.fd


class _FileLockAdapter:  # pragma: no cover - Windows
    """``filelock.FileLock`` behind the same acquire/release as ``FlockLock``."""

    def __init__(self, path: str) -> None:
        from filelock import FileLock

        self._lock = FileLock(path)

    def acquire(self, timeout: float) -> bool:
        from filelock import Timeout

        try:
            self._lock.acquire(timeout=timeout)
        except Timeout:
            return False
        return True

    def release(self) -> None:
        self._lock.release()


_LOCKS: dict[tuple[int, Path], _Lock] = {}


def path_lock(path: Path) -> _Lock:
    """The one lock object of the lock file ``path`` in this process (``acquire(timeout)``
    → bool, ``release()``): ``flock`` on POSIX, the lock ``filelock`` takes on that file."""
    return _lock_for(path)


def _lock_for(path: Path, *, fair: bool = False) -> _Lock:
    """One lock object per path per process (keyed by pid: a forked child must not reuse
    its parent's), so nested use within a process is re-entrant."""
    key = (os.getpid(), path.resolve())
    if key not in _LOCKS:
        _LOCKS[key] = FlockLock(str(key[1]), fair=fair) if fcntl is not None else _FileLockAdapter(str(key[1]))
    return _LOCKS[key]


PID_MAX = 1 << 22  # Linux's ceiling (pid_max ≤ 2**22); macOS and BSDs stay far below


def pid_alive(pid: int) -> bool:
    """A running process owns ``pid``: in range, signalable, and not a zombie (exited but
    not yet reaped). The one rule for every pid lock: memsearch's and our own runners'."""
    if pid <= 0 or pid > PID_MAX:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OverflowError, OSError):
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True  # no /proc: trust kill(0)


def process_start(pid: int) -> str | None:
    """When ``pid``'s process started (field 22 of ``/proc/<pid>/stat``, clock ticks since
    boot), or None without ``/proc``. A pid is reused once its process exits; the pair
    (pid, start) names one process for good, so a pid file holding both cannot be taken
    for a live stranger that got the number later."""
    if pid <= 0 or pid > PID_MAX:
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read(4096).rsplit(b")", 1)[1].split()[19].decode("ascii")
    except (OSError, IndexError, UnicodeDecodeError):
        return None


def flock_held(path: Path, *, create: bool = False) -> bool:
    """True when another process holds the ``flock`` on ``path`` (probed, never kept).
    Without ``create`` a missing file is simply not held."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDWR | (os.O_CREAT if create else 0), 0o600)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)
