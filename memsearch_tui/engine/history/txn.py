"""Transactions: every file change of one operation, rolled back on failure, logged for undo.

A store operation (add, update, archive, split, proposal accept, …) writes several files: the
entry and its indexes. ``transaction`` holds the memory root's write lock, records the
bytes each path had before its first change, restores them all if anything raises, and on
success appends the net change to the operation log so ``undo`` can restore it exactly.

Those "before" bytes also go to the intent journal (``intent.py``) before the path is
touched, so a process killed half-way is rolled back by the next one to take the lock:
the logged record is the commit point.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from memsearch_tui.engine.core.atomic import atomic_write_bytes, fsync_dir
from memsearch_tui.engine.core.locking import root_lock
from memsearch_tui.engine.history import intent, oplog
from memsearch_tui.engine.history.changes import FileChange, read_bytes_or_none

# Who is making the changes (e.g. "mcp:claude-code"); set by the engine API for agent
# writes so ``undo --list`` shows the client's name on every operation it made.
ACTOR: ContextVar[str] = ContextVar("memsearch_tui_actor", default="")
# Which face this process is (``cli``, ``tui``, ``hook``): each sets it once at start, so the
# undo history says who did what. An environment variable, not an import: the hook path
# sets it before importing anything, and the hook's background runner inherits it.
FACE_ENV = "MEMSEARCH_TUI_FACE"
# Where the paths a committed transaction changed are noted, when a caller asks (the API's
# ``Memory.acting``: its warm searcher then re-reads those files only, not the whole store).
CHANGED: ContextVar[list[Path] | None] = ContextVar("memsearch_tui_changed", default=None)
# How many transactions this thread has open (the root lock is re-entrant): only the
# outermost one recovers what a killed process left, never a journal of its own.
_DEPTH: ContextVar[int] = ContextVar("memsearch_tui_txn_depth", default=0)


def actor() -> str:
    """Who is writing: an agent named by the API, else the process's face ("" if unknown)."""
    return ACTOR.get() or os.environ.get(FACE_ENV, "")


class Transaction:
    """Collects file changes; call ``rollback`` to put every touched path back."""

    def __init__(self, journal: intent.Intent | None = None) -> None:
        self._journal = journal
        self._writes = 0
        self.recovered: list[Path] = []  # what a killed earlier operation left, put back first
        self._before: dict[Path, bytes | None] = {}
        # What this transaction last put at a path (None: deleted); moved-to paths are
        # read back. The log records these, not a re-read: a hand edit made meanwhile
        # must show up at undo as "changed since", not be taken for our own bytes.
        self._after: dict[Path, bytes | None] = {}

    @property
    def id(self) -> str:
        """The intent journal's id: a record logged with it is this transaction's commit."""
        return self._journal.id if self._journal is not None else ""

    def _remember(self, path: Path) -> Path:
        path = Path(path).absolute()
        if path not in self._before:
            before = self._before[path] = read_bytes_or_none(path)
            if self._journal is not None:
                self._journal.remember(path, before)
                intent.crash_point(f"txn-journaled-{len(self._before)}")
        return path

    def _written(self) -> None:
        self._writes += 1
        intent.crash_point(f"txn-write-{self._writes}")

    def write(self, path: Path, data: bytes | str) -> os.stat_result:
        """Atomically replace ``path`` with ``data`` (str is written as UTF-8); its stat."""
        path = self._remember(path)
        raw = data.encode("utf-8") if isinstance(data, str) else data
        if self._journal is not None:
            self._journal.will_write(path, raw)  # a journal day outside the store: its bytes-to-be
        self._after.pop(path, None)  # unknown until the write succeeded
        st = atomic_write_bytes(path, raw)
        self._after[path] = raw
        self._written()
        return st

    def delete(self, path: Path) -> None:
        path = self._remember(path)
        if self._journal is not None:
            self._journal.will_write(path, None)
        self._after.pop(path, None)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
            fsync_dir(path.parent)
        self._after[path] = None
        self._written()

    def move(self, src: Path, dst: Path, *, sync: bool = True) -> None:
        """Rename ``src`` to ``dst`` atomically: at no moment do both or neither exist.

        ``sync=False`` skips the folder fsyncs, for bulk moves (a split of 1k entries) that
        sync once at the end: the rename is still atomic, only its durability is deferred.
        """
        src, dst = self._remember(src), self._remember(dst)
        if self._journal is not None:
            self._journal.will_write(src, None)
            if self._journal.tracks(dst):
                self._journal.will_write(dst, read_bytes_or_none(src))
        self._after.pop(src, None)
        self._after.pop(dst, None)  # whatever src held: read back by ``changes``
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dst)
        self._after[src] = None
        if sync:
            fsync_dir(dst.parent)
            fsync_dir(src.parent)
        self._written()

    def touched(self) -> bool:
        """Whether any path was written, deleted or moved (a refusal touches none)."""
        return bool(self._before)

    def changes(self) -> list[FileChange]:
        """The net change per path, in first-touched order; unchanged paths left out."""
        out = []
        for path, before in self._before.items():
            after = self._after[path] if path in self._after else read_bytes_or_none(path)
            if after != before:
                out.append(FileChange(path, before, after))
        return out

    def rollback(self) -> bool:
        """Restore every touched path to its first-seen bytes (newest first); False when a
        path could not be restored. Paths this transaction created go first, which frees
        space for the rest, and a changed path gets back its kept file itself (the intent
        journal's hard link), which needs no free space: a rollback on a disk full to the
        last byte still completes. A path that fails does not stop the others, and the
        caller then keeps the intent journal for the next writer."""
        done = True
        newest_first = list(reversed(list(self._before.items())))
        for path, before in sorted(newest_first, key=lambda item: item[1] is not None):
            try:
                if before is None:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path)
                elif read_bytes_or_none(path) != before and not (
                    self._journal is not None and self._journal.relink(path, before)
                ):
                    atomic_write_bytes(path, before)  # no kept link (another file system): written anew
            except OSError:
                done = False
        return done


@contextmanager
def transaction(memory_root: Path, kind: str, summary: str, *, record: bool = True) -> Iterator[Transaction]:
    """Run one operation under the root's write lock; roll back on error, log on success.

    The outermost transaction of a thread first rolls back what a killed process left
    (``txn.recovered`` lists those paths)."""
    with root_lock(memory_root):
        recovered = recover(memory_root) if _DEPTH.get() == 0 else []
        journal = intent.Intent(memory_root)
        txn = Transaction(journal)
        txn.recovered = recovered
        depth = _DEPTH.set(_DEPTH.get() + 1)
        try:
            yield txn
            changes = txn.changes()
            intent.crash_point("txn-before-log")
            if record and changes:  # inside: a change that cannot be logged (disk full) is undone
                who = actor()
                oplog.append(memory_root, kind, oplog.with_actor(summary, who), changes, txn=journal.id)
                intent.crash_point("txn-logged")
            noted = CHANGED.get()
            if noted is not None:
                noted.extend(c.path for c in changes)
        except BaseException as exc:
            if not txn.rollback():
                journal.keep = True  # the next writer finishes the rollback from the journal
                if isinstance(exc, OSError):
                    raise _unfinished(exc) from None
            raise
        finally:
            _DEPTH.reset(depth)
            journal.close()


def _unfinished(exc: OSError) -> OSError:
    """``exc`` when the rollback after it could not finish either (a disk full to the last
    byte): the files are as the intent journal knows them, and the message says what to do."""
    why = exc.strerror or str(exc)
    return type(exc)(
        exc.errno,
        f"{why}; the change was not applied and putting its files back ran out of space too: "
        "free some space, then run any memsearch-tui command (`index check` will do): it puts them back",
        exc.filename,
    )


def recover(memory_root: Path) -> list[Path]:
    """Roll back every operation a killed process left unfinished (call under the lock)."""
    if not intent.unfinished(memory_root):
        return []
    return intent.recover(memory_root, oplog.txn_ids(memory_root))


def recover_unlocked(memory_root: Path) -> list[Path]:
    """For readers: recover when a journal is left and no one holds the write lock now (a
    journal under a held lock is a live operation, not a crashed one). Never waits."""
    if _DEPTH.get() or not intent.unfinished(memory_root):
        return []
    from memsearch_tui.engine.core.errors import LockTimeout

    try:
        with root_lock(memory_root, timeout=0):
            return recover(memory_root)
    except LockTimeout:
        return []
