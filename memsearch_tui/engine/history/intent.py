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

Paths outside the store: a journal operation (``journal forget``/``redact``/``restore``, a
day merge, their undo) also changes the project's day file, in ``<project>/.memsearch/memory``.
Such a path is recorded relative to its journal folder (a folder named ``memory``; the
folder itself on a ``root`` line of the record) with, before each write, the digest of
the bytes about to be put there. Recovery puts a day back only when it still holds one of
those bytes (what the killed writer wrote): a day changed since (a hook's appended turn, or
the original store already recovered when a copy of it recovers) is left as it is. Any
other path outside the store is recorded absolute and never touched by recovery.

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
from glob import escape as glob_escape
from pathlib import Path
from typing import IO, Any

from memsearch_tui.engine.core.atomic import fsync_dir
from memsearch_tui.engine.core.paths import inside
from memsearch_tui.engine.core.state_files import PENDING_TXN, STATE_DIR
from memsearch_tui.engine.history.changes import loaded_path, read_bytes_or_none, stored_path

ABSENT = "absent"
RECORD = "intent.jsonl"
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
    """One transaction's journal folder: ``intent.jsonl`` (a header with the id, then one
    line per path: its name and the digest of its "before" bytes) and the kept bytes, one
    file per digest. Appended to, never rewritten: a split of 1,000 entries touches 2,000
    paths. Created on the first path, removed by ``close``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.id = f"{time.time_ns():020d}-{os.getpid()}-{os.urandom(4).hex()}"
        self.folder = pending_dir(root) / self.id
        self._fh: IO[str] | None = None
        self._kept: set[str] = set()
        self._uses: dict[str, int] = {}  # digest -> how many paths had those bytes before
        self.keep = False  # a rollback that could not finish: ``close`` leaves the folder
        self._roots: dict[Path, str] = {}  # journal folders outside the store -> their key

    def _where(self, path: Path) -> dict[str, str]:
        """How the record names ``path``: relative to the store root; relative to its
        journal folder (``under``: the folder's key, its ``root`` line written first);
        else absolute, as given (recovery never touches those)."""
        stored = stored_path(self.root, path)
        folder = Path(path).parent
        if not Path(stored).is_absolute() or not _journal_folder(folder) or Path(path).suffix != ".md":
            return {"path": stored}
        key = self._roots.get(folder)
        if key is None:
            key = self._roots[folder] = f"journal{len(self._roots)}"
            self._line({"root": key, "at": str(folder)})
        return {"path": Path(path).name, "under": key}

    def _line(self, row: dict[str, str]) -> None:
        fh = self._fh if self._fh is not None else self._open()
        fh.write(json.dumps(row) + "\n")
        fh.flush()

    def tracks(self, path: Path) -> bool:
        """Whether ``path`` is a journal day outside the store (``will_write`` records it)."""
        return "under" in self._where(path)

    def will_write(self, path: Path, after: bytes | None) -> None:
        """Before a path outside the store is written (or deleted: ``after`` None), record
        the digest of what it will hold: recovery restores such a path only from there."""
        where = self._where(path)
        if "under" in where:
            try:
                self._line({**where, "after": ABSENT if after is None else hashlib.sha256(after).hexdigest()})
            except OSError as exc:
                raise OSError(exc.errno, f"{exc.strerror or exc}; nothing written", str(path)) from None

    def remember(self, path: Path, before: bytes | None) -> None:
        """Record ``path``'s bytes before its first change, before that change is made.

        The first record is fsynced (with its folder): the first path of an operation is
        usually its entry, the file a power cut must not leave without a record. Later
        paths (INDEX.md files, derived) are written in order but not synced, which is all
        a killed process needs: the kernel keeps what it was given."""
        digest = ABSENT if before is None else hashlib.sha256(before).hexdigest()
        self._uses[digest] = self._uses.get(digest, 0) + 1
        first = self._fh is None
        try:
            fh = self._fh if self._fh is not None else self._open()
            if before is not None and digest not in self._kept:
                self._keep(path, digest, before)
            self._line({**self._where(path), "before": digest})
            if first:
                os.fsync(fh.fileno())
                fsync_dir(self.folder.parent)
        except OSError as exc:  # a full disk: say which write it stopped, not only why
            raise OSError(exc.errno, f"{exc.strerror or exc}; nothing written", str(path)) from None

    def _open(self) -> IO[str]:
        """The journal's folder and record, with its header (on the first path)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fh = self._fh = open(self.folder / RECORD, "a", encoding="utf-8")  # noqa: SIM115 (closed by close)
        fh.write(json.dumps({"txn": self.id}) + "\n")
        return fh

    def _keep(self, path: Path, digest: str, before: bytes) -> None:
        """Keep ``before`` as ``<digest>``: a hard link to the file when it can be (a split
        moves 1,000 entries; a link is a name, not a copy). The link keeps those bytes
        because every store write replaces a file (atomic rename) and never edits it in
        place; if anything did, the digest check at recovery refuses the changed copy."""
        target = self.folder / digest
        try:
            os.link(path, target)
        except OSError:  # another file system, or links not supported: a copy
            target.write_bytes(before)
        self._kept.add(digest)

    def relink(self, path: Path, before: bytes) -> bool:
        """Put ``before`` back at ``path`` as the kept file itself (a hard link renamed into
        place): no new data block, so a rollback on a disk full to the last byte still
        succeeds. Only for bytes no other path of this transaction had (two paths must not
        share one file); False when it cannot (then the caller writes the bytes)."""
        digest = hashlib.sha256(before).hexdigest()
        kept = self.folder / digest
        if digest not in self._kept or self._uses.get(digest) != 1:
            return False
        from memsearch_tui.engine.core.atomic import TMP_SUFFIX, temp_prefix

        tmp = path.parent / f"{temp_prefix(path.name)}{os.urandom(4).hex()}{TMP_SUFFIX}"
        try:
            if kept.read_bytes() != before:  # a copy changed in place: never put back
                return False
            os.link(kept, tmp)
        except OSError:  # the name is taken (not ours: never removed) or links are not supported
            return False
        try:
            os.replace(tmp, path)
            fsync_dir(path.parent)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
            return False
        return True

    def close(self) -> None:
        """The transaction ended (committed or rolled back): its journal goes."""
        fh, self._fh = self._fh, None
        if fh is not None:
            with contextlib.suppress(OSError):  # a full disk fails the flush: the folder goes anyway
                fh.close()
        if self.keep:
            return
        if fh is not None or self.folder.exists():  # made, but its record could not be opened
            discard(self.folder)


def _journal_folder(folder: Path) -> bool:
    """A project's journal folder (``<memsearch dir>/memory``), the only place outside the
    store whose files a transaction journals for recovery."""
    return folder.is_absolute() and folder.name == "memory" and ".." not in folder.parts


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
            restored += _roll_back(root, folder, record)
        if record is not None:
            _sweep_temps(root, record)
        discard(folder)
    return restored


def _path(root: Path, record: dict[str, Any], f: dict[str, str]) -> Path | None:
    """The path a record line names, or None when it lies outside the known roots: the
    store root (relative to it) and the journal folders on the record's ``root`` lines (a
    plain ``.md`` name directly in one). An old record's absolute path elsewhere is another
    store's file (stores may be copied): never touched."""
    name = str(f.get("path", ""))
    if not name:
        return None
    if "under" in f:
        at = record.get("roots", {}).get(f["under"])
        folder = Path(str(at or ""))
        if not at or not _journal_folder(folder) or Path(name).name != name or not name.endswith(".md"):
            return None
        return folder / name
    path = Path(loaded_path(root, name))
    if ".." in path.parts or not inside(root, path.parent):
        return None
    return path


def _sweep_temps(root: Path, record: dict[str, Any]) -> None:
    """The temp files (``.<name>.<random>.tmp``) a writer killed inside an atomic write left
    beside the paths its journal names: no writer of those paths is alive now (we hold the
    root's lock), so they go, without waiting for ``index check --fix``."""
    from memsearch_tui.engine.core.atomic import is_temp_name, temp_prefix

    for f in record.get("files", []):
        path = _path(root, record, f)
        if path is None:
            continue
        with contextlib.suppress(OSError):
            for tmp in path.parent.glob(f"{glob_escape(temp_prefix(path.name))}*.tmp"):
                if is_temp_name(tmp.name) and tmp.is_file() and not tmp.is_symlink():
                    tmp.unlink()


def discard(folder: Path) -> None:
    """Remove a journal folder, its record first: a kill part-way through removing the
    folder must not leave a record whose kept "before" bytes are partly gone. Recovery
    would then roll the ended transaction back, deleting the paths it created without
    being able to restore the ones it changed: an ``undo`` (never logged, so never seen
    as committed) killed while its journal was being removed lost an entry this way."""
    with contextlib.suppress(FileNotFoundError):
        (folder / RECORD).unlink()
    shutil.rmtree(folder, ignore_errors=True)


def _load(folder: Path) -> dict[str, Any] | None:
    """The folder's id and paths; None when the crash came before its header was written
    (the transaction had touched nothing yet). A last line cut short by the kill names a
    path that was not touched yet (its record comes first), so it is left out."""
    try:
        lines = (folder / RECORD).read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError):
        return None
    rows = []
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            break
        if isinstance(row, dict):
            rows.append(row)
    if not rows or "txn" not in rows[0]:
        return None
    roots = {str(r["root"]): str(r.get("at", "")) for r in rows[1:] if "root" in r}
    afters: dict[tuple[str, str], set[str]] = {}
    for r in rows[1:]:
        if "path" in r and "after" in r:
            afters.setdefault((str(r.get("under", "")), str(r["path"])), set()).add(str(r["after"]))
    files = [r for r in rows[1:] if "path" in r and "after" not in r]
    return {"txn": rows[0]["txn"], "files": files, "roots": roots, "afters": afters}


def _roll_back(root: Path, folder: Path, record: dict[str, Any]) -> list[Path]:
    out = []
    for f in reversed(record.get("files", [])):
        path = _path(root, record, f)
        if path is None:
            continue
        before = f.get("before", ABSENT)
        if "under" in f and _digest(_current(path)) not in record["afters"].get((f["under"], f["path"]), set()):
            continue  # a day outside the store not as the killed writer left it: not ours to put back
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


def _digest(data: bytes | None) -> str:
    return ABSENT if data is None else hashlib.sha256(data).hexdigest()


def _current(path: Path) -> bytes | None:
    try:
        return read_bytes_or_none(path)  # a FIFO is never opened
    except OSError:
        return None
