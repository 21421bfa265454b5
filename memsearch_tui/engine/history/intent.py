"""The intent journal: what a transaction is about to change, written before it changes it.

A process killed in the middle of an operation (SIGKILL, OOM, a closed terminal) used to
leave what it had written so far: an entry with no INDEX.md row and no undo record, so the
next ``undo`` reverted an older operation. Now every transaction first records, per path,
the bytes the path had before its first change, in its own folder under
``.memsearch-tui/pending/``; only then does it touch the path. A transaction that ends
(committed or rolled back) removes its folder. A folder left behind is an operation that
never finished: the next writer (or reader) that gets the root's write lock puts its paths
back, unless the operation log already holds it (the crash came after the commit point,
the logged record), in which case it is complete and only the folder goes.

Durability: a killed process is what this is for, and the kernel keeps every write it was
given, so the journal is written in order but fsynced once, with its first path (usually
the entry). After a power cut a later path's record or kept copy may be missing: a copy
is checked against its digest, and a file that cannot be put back is left for
``index check --fix`` (those later paths are INDEX.md files, which it rebuilds).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.atomic import fsync_dir
from memsearch_tui.engine.core.paths import inside
from memsearch_tui.engine.core.state_files import PENDING_TXN, STATE_DIR
from memsearch_tui.engine.history.changes import read_bytes_or_none

ABSENT = "absent"
RECORD = "intent.json"
KILL_ENV = "MEMSEARCH_TUI_TEST_KILL_AT"  # tests only: SIGKILL this process at a named point


def crash_point(name: str) -> None:
    """Test hook: when ``$MEMSEARCH_TUI_TEST_KILL_AT`` names this point, die here by SIGKILL
    (what the crash-safety tests run a real ``add`` with). Nothing otherwise."""
    if os.environ.get(KILL_ENV) == name:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def pending_dir(root: Path) -> Path:
    return Path(root) / STATE_DIR / PENDING_TXN


class Intent:
    """One transaction's journal folder: ``intent.json`` (id, paths, digests) and the kept
    "before" bytes, one file per digest. Created on the first path, removed by ``close``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.id = f"{time.time_ns():020d}-{os.getpid()}-{os.urandom(4).hex()}"
        self.folder = pending_dir(root) / self.id
        self.files: list[dict[str, str]] = []

    def remember(self, path: Path, before: bytes | None) -> None:
        """Record ``path``'s bytes before its first change, before that change is made.

        The first record is fsynced (with its folder): the first path of an operation is
        usually its entry, the file a power cut must not leave without a record. Later
        paths (INDEX.md files, derived) are written in order but not synced, which is all
        a killed process needs: the kernel keeps what it was given."""
        digest = ABSENT if before is None else hashlib.sha256(before).hexdigest()
        first = not self.files
        if first:
            self.folder.mkdir(parents=True, exist_ok=True)
        if before is not None and not (self.folder / digest).exists():
            (self.folder / digest).write_bytes(before)
        self.files.append({"path": str(path), "before": digest})
        tmp = self.folder / f".{RECORD}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump({"txn": self.id, "files": self.files}, fh)
            if first:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, self.folder / RECORD)
        if first:
            fsync_dir(self.folder.parent)

    def close(self) -> None:
        """The transaction ended (committed or rolled back): its journal goes."""
        if self.files:
            shutil.rmtree(self.folder, ignore_errors=True)


def unfinished(root: Path) -> bool:
    """Whether a journal folder is left (cheap: one stat, for every read)."""
    try:
        return any(pending_dir(root).iterdir())
    except OSError:
        return False


def recover(root: Path, committed: set[str]) -> list[Path]:
    """Put back every path of each unfinished transaction (newest first) whose id is not in
    ``committed`` (the ids the operation log holds); returns the paths restored. Call with
    the root's write lock held and no transaction of this process open."""
    restored: list[Path] = []
    base = pending_dir(root)
    folders = sorted((p for p in base.iterdir() if p.is_dir()), reverse=True) if base.is_dir() else []
    for folder in folders:
        record = _load(folder)
        if record is not None and record.get("txn") not in committed:
            restored += _roll_back(root, folder, record.get("files", []))
        shutil.rmtree(folder, ignore_errors=True)
    return restored


def _load(folder: Path) -> dict[str, Any] | None:
    """The folder's record; None when the crash came before its first record was written
    (the transaction had touched nothing yet)."""
    try:
        data = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _roll_back(root: Path, folder: Path, files: list[dict[str, str]]) -> list[Path]:
    out = []
    for f in reversed(files):
        path = Path(f.get("path", ""))
        if not path.is_absolute() or not inside(root, path.parent):
            continue  # the journal names only the root's own files; anything else is ignored
        before = f.get("before", ABSENT)
        if before == ABSENT:
            with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                path.unlink()
                out.append(path)
            continue
        data = _kept(folder, before)
        if data is not None and _current(path) != data:
            from memsearch_tui.engine.core.atomic import atomic_write_bytes

            atomic_write_bytes(path, data)
            out.append(path)
    return out


def _kept(folder: Path, digest: str) -> bytes | None:
    try:
        data = (folder / digest).read_bytes()
    except OSError:
        return None
    return data if hashlib.sha256(data).hexdigest() == digest else None


def _current(path: Path) -> bytes | None:
    try:
        return read_bytes_or_none(path)  # a FIFO is never opened
    except OSError:
        return None
