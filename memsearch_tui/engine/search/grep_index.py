"""A derived copy of every searchable file's lower-cased text, so ``grep`` need not read them.

Why: a literal search must look at every file, and from Python opening and reading 10k
small files costs several times what GNU ``grep -ri`` spends on the same files. SQLite
scans one contiguous database file with ``instr`` in C instead, which is faster than grep.

The copy lives in ``<memory root>/.memsearch-tui/grep.sqlite3`` (the journals of a project
searched together with that store are kept there too, under the project's scope). It is a
cache: deleting or damaging it loses nothing, it is rebuilt from the files.

Freshness without re-reading: every write, rename, chmod or delete changes the *ctime* of
the file or of its folder, and no tool can set a ctime back. A :class:`ChangeScan` runs
``find -cnewer`` (the walk in C, in its own process, while Python gets on with the query)
for what has changed since the last update; those files are re-read and those folders
re-listed. Where there is no POSIX ``find`` the whole store is walked from Python. Times
are coarse (a kernel tick; two seconds on FAT), so a file read less than
:data:`MARGIN_NS` after its last change stays *unsettled* and is read again until it is
older than that: git's rule for racily-clean index entries. The few project files
(journals, PROJECT.md, USER.md) are simply stat-ed on every update.

This module holds the database and its freshness; which files it holds and how one is
read are in :mod:`.grep_files`, the queries in :mod:`.grep_query`.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from pathlib import Path

from memsearch_tui.engine.core.paths import utf8_name
from memsearch_tui.engine.core.sqlite_errors import busy
from memsearch_tui.engine.core.sqlite_scrub import SECURE_DELETE
from memsearch_tui.engine.core.state_files import GREP_CACHE, STATE_DIR
from memsearch_tui.engine.search.change_scan import STAMP_NAME, ChangeScan, balance, write_stamp
from memsearch_tui.engine.search.grep_files import (
    inside_if_link,
    project_listing,
    read_lowered,
    signature,
    store_file,
    walk_tree,
)
from memsearch_tui.engine.search.grep_query import GrepQueries, Match
from memsearch_tui.engine.search.scopes import STORE_SCOPE, project_scope

__all__ = ["DB_NAME", "GrepIndex", "Match", "read_lowered"]  # Match and read_lowered: named here as before the split

DB_NAME = GREP_CACHE
SCHEMA = "2"
MARGIN_NS = 2_000_000_000
SPLIT_SCAN_FROM = 2_000  # files; below this one find process is quicker than several
#: seconds a connection waits for another writer (a second search, another process) before
#: SQLite says "database is locked"
BUSY_S = 10.0
#: seconds an update waits for another writer when the cache held fewer than
#: ``grep.PARTIAL_FILES`` files: scanning them costs ~0.1 s, so a writer holding the lock
#: longer than this is stalled and the search answers from the files instead
FEW_FILES_BUSY_S = 1.0

_DDL = f"""
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(
    path TEXT PRIMARY KEY, scope TEXT NOT NULL, kind TEXT NOT NULL, entry_id TEXT NOT NULL,
    sig TEXT NOT NULL, ctime_ns INTEGER NOT NULL, read_ns INTEGER NOT NULL, low TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS files_scope ON files(scope);
CREATE INDEX IF NOT EXISTS files_unsettled ON files(scope) WHERE ctime_ns > read_ns - {MARGIN_NS};
CREATE TABLE IF NOT EXISTS dirs(path TEXT PRIMARY KEY, ino INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS grams USING fts5(
    low, content='files', content_rowid='rowid', tokenize='trigram case_sensitive 1', detail='none');
CREATE VIRTUAL TABLE IF NOT EXISTS grams_vocab USING fts5vocab(grams, 'row');
CREATE TRIGGER IF NOT EXISTS files_ai AFTER INSERT ON files BEGIN
    INSERT INTO grams(rowid, low) VALUES (new.rowid, new.low); END;
CREATE TRIGGER IF NOT EXISTS files_ad AFTER DELETE ON files BEGIN
    INSERT INTO grams(grams, rowid, low) VALUES ('delete', old.rowid, old.low); END;
CREATE TRIGGER IF NOT EXISTS files_au AFTER UPDATE OF low ON files WHEN old.low IS NOT new.low BEGIN
    INSERT INTO grams(grams, rowid, low) VALUES ('delete', old.rowid, old.low);
    INSERT INTO grams(rowid, low) VALUES (new.rowid, new.low); END;
"""


class GrepIndex(GrepQueries):
    """The cache of one memory root: bring it up to date, then ask which files match."""

    def __init__(self, memory_root: Path | str) -> None:
        self.root = os.path.realpath(memory_root)
        self.state = os.path.join(self.root, STATE_DIR)
        os.makedirs(self.state, exist_ok=True)
        self.path = os.path.join(self.state, DB_NAME)
        self.stamp = os.path.join(self.state, STAMP_NAME)
        self.db = self._connect()
        self._dirty = False
        self._began = 0

    def _connect(self) -> sqlite3.Connection:
        """Open (creating or, when damaged or of another schema, recreating) the database."""
        for attempt in (1, 2):
            try:
                db = sqlite3.connect(self.path, timeout=BUSY_S, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute(SECURE_DELETE)  # a deleted file's text does not linger in free pages
                db.executescript(_DDL)
                row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA,))
                elif row[0] != SCHEMA:
                    raise sqlite3.DatabaseError(f"schema {row[0]}")
                return db
            except sqlite3.DatabaseError as exc:
                if attempt == 2 or busy(exc):  # another writer's lock is no damage: never unlink its file
                    raise
                self._unlink()
        raise AssertionError("unreachable")

    def _unlink(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.unlink(self.path + suffix)
            except FileNotFoundError:
                pass

    def discard(self) -> None:
        """Throw the cache away (it is found damaged): the next use rebuilds it."""
        self.close()
        self._unlink()

    def close(self) -> None:
        self.db.close()

    # -- freshness ---------------------------------------------------------------------
    def version(self) -> int:
        """SQLite's ``data_version``: it changes when another connection (another search,
        another process) commits to the cache, not when this one does. A read taken while
        another writer was mid-build is stale if this moved, though :meth:`update` (which
        waits for that writer) then finds nothing left to change."""
        value: int = self.db.execute("PRAGMA data_version").fetchone()[0]
        return value

    def update(self, project: Path | None = None, scan: ChangeScan | None = None, wait_s: float | None = None) -> bool:
        """Bring the store's rows (and ``project``'s files) up to date; True if any changed.

        ``scan`` is a :class:`ChangeScan` the caller started early (one is started here
        otherwise); it is trusted only when it ran against the stamp this cache recorded.
        ``wait_s``: how long to wait for another writer's lock (:data:`BUSY_S` if None);
        past it SQLite raises "database is locked" (:func:`busy`).
        """
        scan = scan or ChangeScan(self.root)
        paths = scan.paths()
        since = self._meta_int("store_since")
        if since is None or scan.since != since:
            paths = None
        self._dirty = False
        self._began = time.time_ns()
        self.db.execute(f"PRAGMA busy_timeout = {int(1000 * (BUSY_S if wait_s is None else wait_s))}")
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if paths is None:
                self._sync_tree(self.root)
            else:
                self._apply(paths)
            self._recheck_unsettled(STORE_SCOPE)
            if project is not None:
                self._refresh_project(project)
            if paths is None or paths:
                self._advance_stamp(scan.started - MARGIN_NS)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return self._dirty

    def _advance_stamp(self, since: int) -> None:
        """Record where the next scan starts, in the stamp file and (the same value) in meta,
        with the plan for splitting that scan over the CPUs.

        If the commit that follows fails, the two disagree and the next update lists
        everything: the safe direction.
        """
        stored = write_stamp(self.stamp, self._scan_plan(), since)
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('store_since', ?)", (str(stored),))

    def _scan_plan(self) -> list[list[str]]:
        """Top-level names in one group per CPU (up to 4), balanced by their file counts;
        small stores get one group: another process costs more than it saves there."""
        n = len(self.root) + 2
        rows = self.db.execute(
            f"SELECT CASE WHEN instr(substr(path, {n}), ?) > 0 THEN substr(path, {n}, instr(substr(path, {n}), ?) - 1) "
            f"ELSE substr(path, {n}) END AS top, count(*) FROM files WHERE scope=? GROUP BY top",
            (os.sep, os.sep, STORE_SCOPE),
        ).fetchall()
        sizes = dict(rows)
        if sum(sizes.values()) < SPLIT_SCAN_FROM:
            return []
        return balance(sizes, min(os.cpu_count() or 1, 4))

    def _apply(self, paths: list[str]) -> None:
        """Re-read the changed files and re-list the changed folders a scan reported."""
        for path in filter(utf8_name, paths):
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                self._forget_under(path)
                continue
            if stat.S_ISDIR(st.st_mode):
                self._sync_folder(path)
            elif self._sig(path) != signature(st):
                self._sync_file(path)

    def _sync_folder(self, folder: str) -> None:
        """One changed folder: names added or removed, and subfolders new or replaced.

        A folder's ctime changes when a name in it is added, removed or renamed; a changed
        file has a new ctime of its own and is reported by itself. A subfolder whose inode
        is not the recorded one is a different folder and is walked whole.
        """
        files, dirs = self._children(folder)
        seen: set[str] = set()
        try:
            it = os.scandir(folder)
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            self._forget_under(folder)
            return
        with it:
            for de in it:
                if de.name.startswith(".") or not utf8_name(de.name):
                    continue
                seen.add(de.path)
                if de.is_dir(follow_symlinks=False):
                    if dirs.get(de.path) != de.inode():
                        self._sync_tree(de.path, de.inode())
                elif de.path not in files and de.name.endswith(".md"):
                    self._sync_file(de.path)
        for path in (files.keys() | dirs.keys()) - seen:
            self._forget_under(path)

    def _sync_file(self, path: str) -> None:
        try:
            st = os.lstat(path)
        except OSError:
            return
        listed = store_file(self._rel(path), st)
        if listed is not None and inside_if_link(self.root, path, st):
            self._upsert(STORE_SCOPE, path, *listed, st)

    def _sync_tree(self, top: str, top_ino: int | None = None) -> None:
        """Make every row below ``top`` match the files there: a full walk of that subtree."""
        known = self._known(STORE_SCOPE, None if top == self.root else top)
        self._forget_dirs_under(top)
        if top_ino is not None:
            self.db.execute("INSERT OR REPLACE INTO dirs VALUES (?, ?)", (top, top_ino))
        seen: set[str] = set()
        for path, rel, ino, st in walk_tree(top, self._rel(top)):
            if st is None:
                self.db.execute("INSERT OR REPLACE INTO dirs VALUES (?, ?)", (path, ino))
                continue
            listed = store_file(rel, st)
            if listed is None or not inside_if_link(self.root, path, st):
                continue
            seen.add(path)
            if known.get(path) != signature(st):
                self._upsert(STORE_SCOPE, path, *listed, st)
        for path in known.keys() - seen:
            self.db.execute("DELETE FROM files WHERE path=?", (path,))
            self._dirty = True

    def _refresh_project(self, project: Path) -> None:
        scope = project_scope(project)
        known = self._known(scope, None)
        seen: set[str] = set()
        for path, kind, st in project_listing(project):
            seen.add(path)
            if known.get(path) != signature(st):
                self._upsert(scope, path, kind, "", st)
        for path in known.keys() - seen:
            self.db.execute("DELETE FROM files WHERE path=?", (path,))
            self._dirty = True
        self._recheck_unsettled(scope)

    def _recheck_unsettled(self, scope: str) -> None:
        """Files read too soon after a change to trust their timestamps (and not read by
        this update already): look again."""
        rows = self.db.execute(
            f"SELECT path, kind, entry_id, low FROM files WHERE scope=? AND ctime_ns > read_ns - {MARGIN_NS} "
            "AND read_ns < ?",
            (scope, self._began),
        ).fetchall()
        for path, kind, entry_id, low in rows:
            try:
                st = os.lstat(path) if scope == STORE_SCOPE else os.stat(path)
            except OSError:
                self.db.execute("DELETE FROM files WHERE path=?", (path,))
                self._dirty = True
                continue
            self._upsert(scope, path, kind, entry_id, st, before=low)

    def _upsert(
        self, scope: str, path: str, kind: str, entry_id: str, st: os.stat_result, before: str | None = None
    ) -> None:
        """(Re-)read one file into its row; ``before`` is the text the row held, if known."""
        read_ns = time.time_ns()
        low = read_lowered(path)
        if low is None:
            self.db.execute("DELETE FROM files WHERE path=?", (path,))
            self._dirty = True
            return
        ctime = read_ns if stat.S_ISLNK(st.st_mode) else st.st_ctime_ns  # a link's target has its own times
        self.db.execute(
            "INSERT INTO files VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(path) DO UPDATE SET scope=excluded.scope, "
            "kind=excluded.kind, entry_id=excluded.entry_id, sig=excluded.sig, ctime_ns=excluded.ctime_ns, "
            "read_ns=excluded.read_ns, low=excluded.low",
            (path, scope, kind, entry_id, signature(st), ctime, read_ns, low),
        )
        self._dirty = self._dirty or low != before

    # -- what the cache holds ----------------------------------------------------------
    def _rel(self, path: str) -> str:
        return "" if path == self.root else path[len(self.root) + 1 :]

    def _sig(self, path: str) -> str | None:
        row = self.db.execute("SELECT sig FROM files WHERE path=?", (path,)).fetchone()
        return row[0] if row else None

    def _known(self, scope: str, under: str | None) -> dict[str, str]:
        """path → signature of the rows of ``scope`` (below folder ``under``)."""
        if under is None:
            rows = self.db.execute("SELECT path, sig FROM files WHERE scope=?", (scope,))
        else:
            prefix = under + os.sep
            rows = self.db.execute(
                "SELECT path, sig FROM files WHERE scope=? AND substr(path, 1, ?) = ?", (scope, len(prefix), prefix)
            )
        return dict(rows.fetchall())

    def _children(self, folder: str) -> tuple[dict[str, str], dict[str, int]]:
        """The recorded direct children of ``folder``: files → signature, folders → inode."""
        prefix = folder + os.sep
        n = len(prefix)
        direct = f"substr(path, 1, {n}) = ? AND instr(substr(path, {n + 1}), ?) = 0"
        files = dict(self.db.execute(f"SELECT path, sig FROM files WHERE {direct}", (prefix, os.sep)).fetchall())
        dirs = dict(self.db.execute(f"SELECT path, ino FROM dirs WHERE {direct}", (prefix, os.sep)).fetchall())
        return files, dirs

    def _forget_dirs_under(self, top: str) -> None:
        prefix = top + os.sep
        self.db.execute("DELETE FROM dirs WHERE path=? OR substr(path, 1, ?) = ?", (top, len(prefix), prefix))

    def _forget_under(self, path: str) -> None:
        """Drop a vanished file or folder and everything recorded below it."""
        prefix = path + os.sep
        gone = self.db.execute(
            "DELETE FROM files WHERE path=? OR substr(path, 1, ?) = ?", (path, len(prefix), prefix)
        ).rowcount
        self._dirty = self._dirty or gone > 0
        self._forget_dirs_under(path)

    def _meta_int(self, key: str) -> int | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return int(row[0]) if row else None
