"""A derived, rebuildable SQLite cache of entry summaries, so big stores stay fast.

``add`` must refresh a category index and look for duplicates, and ``ls`` must list a
5k-entry category, without parsing thousands of YAML headers each time, and without
loading a summary of every entry into memory either. The catalog keeps per file: size and
mtime and ctime (to notice any change, by any tool, ``cp -p`` included), the index fields, and a normalised-body
fingerprint for the duplicate check, in ``.memsearch-tui/catalog.sqlite3`` (stdlib
sqlite3: indexed look-ups, no full load). Deleting it loses nothing.

Freshness: ``refresh(under=C)`` re-stats only category C's folder; operations refresh
what they touch, and ``index check`` / ``ls`` without a category refresh everything.

Where the cache cannot be written (a full disk, a read-only store, no permission), the
catalog lives in memory for the process instead: the last file copy is read into it when
it can be (read-only), then refreshed from the entry files as usual. Reads and writes of
the store go on; only the speed-up is lost. ``degraded`` says why, for ``doctor``.

Lifecycle facts: the dates and references the lifecycle rules read (``accessed``,
``archived``, ``expires``; ``refs``: related ids and links) are columns too, so the Overview's
forecast is one query (``engine/curator/forecast``), not a read of every file. A catalog of
the previous schema gains these columns empty (``refs`` NULL: not known yet), and each
refresh fills the unknown rows it covers by the quick frontmatter reader (no YAML parse:
seconds at 100k entries, not the minutes of a rebuild).

Generations: triggers count every change of a category's rows (``gens``), and the index
writer records which generation each INDEX.md table was rendered from and which file that
was (``indexes``). A write that finds both unchanged but for its own few rows can splice
those rows into the table instead of re-rendering 5,000 of them (``engine/index_files``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.paths import ARCHIVED, entry_path, inside
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.core.state_files import CATALOG, STATE_DIR
from memsearch_tui.engine.core.text import normalise
from memsearch_tui.engine.store.entry import Entry, as_date, load_entry
from memsearch_tui.engine.store.links import Info, fast_info, iso_day, links_of, scanned
from memsearch_tui.engine.store.walk import walk_entry_paths

CATALOG_FILE = CATALOG
HEAD_CHARS = 256
SCHEMA = 10  # 8: the conflict mark; 9: the fold column; 10: lifecycle facts (the forecast as a query)
_MIGRATES = 9  # the schema that gains 10's columns in place (ALTER TABLE) instead of a rebuild


@dataclass(slots=True)
class Summary:
    """What the indexes, ``ls`` and the duplicate check need of one entry file."""

    id: str
    title: str
    status: str
    created: str
    updated: str
    tags: list[str]
    mtime_ns: int
    size: int
    norm_len: int = 0
    norm_hash: str = ""
    head: str = ""
    error: str = ""  # non-empty: the file could not be read as an entry
    ctime_ns: int = 0  # with size and mtime, how a refresh notices a change (see _changed)
    version: int = 0  # the frontmatter's version (0: an invalid file has none); ``ls`` shows it
    conflict: int = 0  # 1: the frontmatter holds an open conflict mark (``conflicts`` reads only these)
    accessed: str = ""  # lifecycle facts (ISO days, "": none): the frontmatter's own read date,
    archived: str = ""  # the day it was archived,
    expires: str = ""  # and its expiry;
    refs: list[str] = field(default_factory=list)  # the ids it names: ``related`` and links in the body

    @property
    def category(self) -> str:
        return category_of(self.id)


COLUMNS = [f.name for f in fields(Summary)]


def category_of(entry_id: str) -> str:
    """The category of an id; entries under ``archived/`` belong to the folder above."""
    parts = entry_id.split("/")[:-1]
    if parts and parts[-1] == ARCHIVED:
        parts = parts[:-1]
    return "/".join(parts)


def walk_entry_files(
    root: Path, under: str = "", problems: list[tuple[str, str]] | None = None
) -> Iterator[tuple[str, Path, os.stat_result]]:
    """Every entry file below ``root/under``: ``*.md`` except INDEX.md/config.md, no dot-folders."""
    for entry_id, path, st in walk_entry_paths(root, under, problems):
        yield entry_id, Path(path), st


def _invalid(entry_id: str, name: str, st: os.stat_result, error: str) -> Summary:
    """The row of a file that cannot be used as an entry: listed as invalid, with why."""
    return Summary(
        entry_id, name, "invalid", "", "", [], st.st_mtime_ns, st.st_size, error=error, ctime_ns=st.st_ctime_ns
    )


def summarise(entry_id: str, path: Path, st: os.stat_result, root: Path | None = None) -> Summary:
    """Summary of one file; an unreadable entry becomes a Summary with ``error`` set.

    A symlink is followed only when it stays inside ``root``: a link to a file elsewhere
    must not leak that file into listings, indexes or search.
    """
    name = entry_id.rsplit("/", 1)[-1]
    if root is not None and path.is_symlink() and not inside(root, path):
        return _invalid(entry_id, name, st, f"{path}: symlink to a file outside the memory root; not read")
    try:
        entry = load_entry(entry_id, path)
    except MemsearchError as exc:
        return _invalid(entry_id, name, st, exc.message)
    except OSError as exc:  # no permission, an I/O error: this one file is skipped and named
        return _invalid(entry_id, name, st, f"{path}: {exc.strerror or exc}; not read")
    return from_entry(entry, st)


def _day_of(entry: Entry, key: str) -> str:
    """An optional frontmatter date as an ISO day; "" when absent or not a date (the
    lifecycle then judges by ``updated``, as it does for a file it cannot read)."""
    try:
        return iso_day(as_date(entry.meta.get(key), key, entry.where))
    except MemsearchError:
        return ""


def from_entry(entry: Entry, st: os.stat_result) -> Summary:
    norm = normalise(entry.body)
    return Summary(
        id=entry.id,
        title=entry.title,
        status=entry.status,
        created=entry.created.isoformat() if entry.created else "",
        updated=entry.updated.isoformat() if entry.updated else "",
        tags=entry.tags,
        mtime_ns=st.st_mtime_ns,
        size=st.st_size,
        norm_len=len(norm),
        norm_hash=hashlib.sha1(norm.encode("utf-8")).hexdigest(),
        head=norm[:HEAD_CHARS],
        ctime_ns=st.st_ctime_ns,
        version=entry.version,
        conflict=int(isinstance(entry.meta.get("conflict"), dict)),
        accessed=_day_of(entry, "accessed"),
        archived=_day_of(entry, "archived"),
        expires=_day_of(entry, "expires"),
        refs=[*entry.related, *links_of(entry.id, entry.body)],
    )


def _row(s: Summary) -> tuple[Any, ...]:
    return (
        s.id,
        category_of(s.id),
        s.title,
        s.status,
        s.created,
        s.updated,
        json.dumps(s.tags, ensure_ascii=False),
        s.mtime_ns,
        s.size,
        s.norm_len,
        s.norm_hash,
        s.head,
        s.error,
        s.title.casefold(),
        s.ctime_ns,
        s.version,
        s.conflict,
        "\n".join([s.title, s.id, *map(str, s.tags)]).casefold(),
        s.accessed,
        s.archived,
        s.expires,
        json.dumps(s.refs, ensure_ascii=False),
    )


_INSERT = (
    "INSERT OR REPLACE INTO entries (id, category, title, status, created, updated, tags, mtime_ns, size,"
    " norm_len, norm_hash, head, error, title_key, ctime_ns, version, conflict, fold, accessed, archived, expires,"
    " refs) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
# Every change of a category's rows bumps its generation, whoever makes it (a refresh
# that saw a hand edit, put, drop, a crashed writer's half-done batch), in the same
# statement as the change itself. No conflict clause in here: the firing INSERT OR
# REPLACE would impose its own on it (an OR IGNORE would reset the count).
_BUMP = (
    "INSERT INTO gens SELECT {c}.category, 0 WHERE NOT EXISTS (SELECT 1 FROM gens WHERE category = {c}.category);"
    " UPDATE gens SET n = n + 1 WHERE category = {c}.category;"
)
# The columns whose change an INDEX.md may show (all but the lifecycle facts): filling a
# row's facts in place must not make every category's table look stale.
_INDEXED = (
    "id, category, title, status, created, updated, tags, mtime_ns, size, norm_len, norm_hash, head, error,"
    " title_key, ctime_ns, version, conflict, fold"
)
_FACTS_SQL = (
    # refs NULL: the facts of this row are not known yet (a catalog upgraded in place)
    "CREATE INDEX IF NOT EXISTS entries_unknown ON entries(id) WHERE refs IS NULL;"
    # covering indexes: the counts and the forecast read these, never the wide rows (the
    # bodies' heads, the fold column): at 100k entries 6x and 2x quicker
    "CREATE INDEX IF NOT EXISTS entries_counts ON entries(category, status, error);"
    "CREATE INDEX IF NOT EXISTS entries_life ON entries(error, status, updated, accessed, archived, expires, refs, id);"
    "CREATE INDEX IF NOT EXISTS entries_fold ON entries(id, fold);"  # the filter's scan, in id order
    "DROP TRIGGER IF EXISTS entries_upd;"
    f"CREATE TRIGGER entries_upd AFTER UPDATE OF {_INDEXED} ON entries"
    f" BEGIN {_BUMP.format(c='OLD')} {_BUMP.format(c='NEW')} END;"
)
# The few entries holding a conflict mark, in id order: the Versions pane's first list read
# every row for them (~140 ms of CPU at 100k entries, issue 37). Made on every open, so a
# catalog of this schema made before it gets it too (no rebuild).
_CONFLICT_INDEX = "CREATE INDEX IF NOT EXISTS entries_conflict ON entries(id) WHERE conflict = 1"
_UPGRADE_SQL = (
    "ALTER TABLE entries ADD COLUMN accessed TEXT; ALTER TABLE entries ADD COLUMN archived TEXT;"
    "ALTER TABLE entries ADD COLUMN expires TEXT; ALTER TABLE entries ADD COLUMN refs TEXT;"
    + _FACTS_SQL
    + "UPDATE entries SET refs = '[]' WHERE error != '';"  # unreadable: no facts to look for
)
_SCHEMA_SQL = (
    "DROP TABLE IF EXISTS entries; DROP TABLE IF EXISTS gens; DROP TABLE IF EXISTS indexes;"
    "CREATE TABLE entries (id TEXT PRIMARY KEY, category TEXT, title TEXT, status TEXT, created TEXT,"
    " updated TEXT, tags TEXT, mtime_ns INTEGER, size INTEGER, norm_len INTEGER, norm_hash TEXT,"
    " head TEXT, error TEXT, title_key TEXT, ctime_ns INTEGER, version INTEGER, conflict INTEGER,"
    " fold TEXT,"  # title, id and tags case-folded, one a line: the Index filter's narrowing
    " accessed TEXT, archived TEXT, expires TEXT, refs TEXT);"  # lifecycle facts (refs: JSON)
    "CREATE INDEX entries_category ON entries(category, error, updated);"
    "CREATE INDEX entries_stat ON entries(id, mtime_ns, size, ctime_ns);"  # a refresh reads only the index
    "CREATE INDEX entries_title ON entries(category, title_key);"
    "CREATE INDEX entries_hash ON entries(norm_hash);"
    "CREATE INDEX entries_len ON entries(norm_len);"
    "CREATE TABLE gens (category TEXT PRIMARY KEY, n INTEGER);"
    "CREATE TABLE indexes (category TEXT PRIMARY KEY, fingerprint TEXT, gen INTEGER);"
    f"CREATE TRIGGER entries_ins AFTER INSERT ON entries BEGIN {_BUMP.format(c='NEW')} END;"
    f"CREATE TRIGGER entries_del AFTER DELETE ON entries BEGIN {_BUMP.format(c='OLD')} END;"
    + _FACTS_SQL
    + "CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT);"
    "DELETE FROM state;"
)


_BATCH = 200  # the filter's candidates fetched whole at a time

_SET_FACTS = "UPDATE entries SET accessed = ?, archived = ?, expires = ?, refs = ? WHERE id = ?"


def _facts(info: Info, entry_id: str) -> tuple[str, str, str, str, str]:
    """``_SET_FACTS``'s parameters for one row."""
    refs = json.dumps([*info.related, *info.links], ensure_ascii=False)
    return (info.accessed, info.archived, info.expires, refs, entry_id)


def fingerprint(st: os.stat_result) -> str:
    """Which file an INDEX.md is: an atomic replace makes a new inode, an edit in place a
    new mtime (and usually size). The catalog trusts size+mtime for entries the same way."""
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"


@record
class IndexMarker:
    """The INDEX.md of a category as last written from the catalog, and its rows now."""

    fingerprint: str  # of the file written
    gen: int  # the generation of the category's rows its entries table was rendered from
    gen_now: int  # the generation of the category's rows now


def _summary(row: sqlite3.Row | tuple[Any, ...], tags: list[str] | None = None) -> Summary:
    (id_, _cat, title, status, created, updated, tags_json, mtime, size, nlen, nhash, head, error, version) = row
    if tags is None:
        tags = json.loads(tags_json)
    return Summary(id_, title, status, created, updated, tags, mtime, size, nlen, nhash, head, error, version=version)


def _summaries(rows: list[tuple[Any, ...]]) -> list[Summary]:
    """Summaries of many rows; their tag lists are decoded by one ``json.loads`` call (one
    per row was a third of listing a 5k-entry category)."""
    tags = json.loads("[" + ",".join(r[6] for r in rows) + "]")
    return [_summary(r, t) for r, t in zip(rows, tags)]


_SELECT = "SELECT id, category, title, status, created, updated, tags, mtime_ns, size, norm_len, norm_hash, head, error, version FROM entries"


class EntriesView(Mapping[str, Summary]):
    """Read-only mapping id → Summary over the catalog table (queried, never fully loaded)."""

    def __init__(self, cat: Catalog) -> None:
        self._cat = cat

    def __getitem__(self, key: str) -> Summary:
        row = self._cat.db.execute(_SELECT + " WHERE id = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return _summary(row)

    def __contains__(self, key: object) -> bool:
        return self._cat.db.execute("SELECT 1 FROM entries WHERE id = ?", (key,)).fetchone() is not None

    def __iter__(self) -> Iterator[str]:
        return (r[0] for r in self._cat.db.execute("SELECT id FROM entries ORDER BY id").fetchall())

    def __len__(self) -> int:
        return cast(int, self._cat.db.execute("SELECT count(*) FROM entries").fetchone()[0])

    def values(self) -> list[Summary]:  # type: ignore[override]
        return _summaries(self._cat.db.execute(_SELECT + " ORDER BY id").fetchall())


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _rebuild_on_damage(
    method: Callable[Concatenate[Catalog, _P], _R],
) -> Callable[Concatenate[Catalog, _P], _R]:
    """A damaged cache file (power cut with synchronous=OFF, a stray write) is thrown away
    and rebuilt from the entry files, then the call is retried once: never fatal."""

    def wrapper(self: Catalog, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.OperationalError as exc:
            if self.degraded or not _cannot_write(exc):
                raise
            self._to_memory(str(exc))
            self.refresh_all_files()
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError:
            self.close()
            self._discard()
            self.refresh_all_files()
            return method(self, *args, **kwargs)

    wrapper.__doc__ = method.__doc__
    return wrapper


_CANNOT_WRITE = ("full", "readonly", "read-only", "unable to open", "disk i/o", "locking protocol")


def _cannot_write(exc: sqlite3.OperationalError) -> bool:
    """Whether ``exc`` says the cache file cannot be written (full disk, read-only file
    system or file, no permission, I/O error), not that it is damaged or busy."""
    text = str(exc).lower()
    return any(word in text for word in _CANNOT_WRITE)


class Catalog:
    """Summaries of all entries of one root, kept in step with the files by stat."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.file = self.root / STATE_DIR / CATALOG_FILE
        self._db: sqlite3.Connection | None = None
        # Rows this object changed with put/drop, per category, since its index was marked:
        # the index writer splices exactly these (and their count must explain the gen).
        self._own: dict[str, set[str]] = {}
        self._own_count: dict[str, int] = {}
        # Files the last refresh could not use (FIFOs, loops, non-UTF-8 names): index check.
        self.skipped: list[tuple[str, str]] = []
        self.degraded = ""  # why the catalog lives in memory ("": in its file)

    # -- connection ------------------------------------------------------------------
    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = self._open()
        return self._db

    def _open(self) -> sqlite3.Connection:
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            try:
                return self._connect(self.file)
            except sqlite3.OperationalError as exc:
                if not _cannot_write(exc):
                    raise
                self.degraded = str(exc)
            except sqlite3.DatabaseError:
                self._discard()  # a damaged cache is rebuilt, never fatal
                return self._connect(self.file)
        except OSError as exc:  # the state folder cannot be made (read-only, no permission)
            self.degraded = f"{exc.filename or self.file.parent}: {exc.strerror or exc}"
        return self._memory()

    def _to_memory(self, why: str) -> None:
        """From now on this process keeps the catalog in memory (the file cannot be written)."""
        self.close()
        self.degraded = why
        self._db = self._memory()

    def _memory(self) -> sqlite3.Connection:
        """An in-memory catalog, holding the file's rows when the file can still be read."""
        mem = sqlite3.connect(":memory:", isolation_level=None)
        with contextlib.suppress(sqlite3.Error, OSError):
            if not stat.S_ISREG(self.file.stat().st_mode):
                raise OSError("not a regular file")  # a FIFO would block the open
            src = sqlite3.connect(f"{self.file.absolute().as_uri()}?mode=ro", uri=True, timeout=1)
            try:
                if src.execute("PRAGMA user_version").fetchone()[0] == SCHEMA:
                    src.backup(mem)
            finally:
                src.close()
        return self._connect(mem)

    def _connect(self, target: Path | sqlite3.Connection) -> sqlite3.Connection:
        db = sqlite3.connect(target, timeout=10, isolation_level=None) if isinstance(target, Path) else target
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version == _MIGRATES:  # in place: the rows stay, their lifecycle facts follow
            db.executescript(f"BEGIN; {_UPGRADE_SQL} PRAGMA user_version = {SCHEMA}; COMMIT;")
        elif version != SCHEMA:
            db.executescript(_SCHEMA_SQL + f"PRAGMA user_version = {SCHEMA};")
        with contextlib.suppress(sqlite3.OperationalError):  # a read-only file: ``conflicted`` scans instead
            db.execute(_CONFLICT_INDEX)
        db.execute("PRAGMA synchronous = OFF")  # derived data: speed over durability
        return db

    def _discard(self) -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{self.file}{suffix}")

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # -- keeping in step -------------------------------------------------------------
    def refresh_all_files(self) -> None:
        self._refresh(full=False, under=None)

    @_rebuild_on_damage
    def refresh(self, *, full: bool = False, under: str | None = None) -> Catalog:
        """Re-read files below ``under`` (all by default) whose size or mtime changed."""
        return self._refresh(full=full, under=under)

    def _refresh(self, *, full: bool, under: str | None) -> Catalog:
        """Re-read files below ``under`` (all by default) whose size or mtime changed."""
        under = under or ""
        known = self._known(under)  # what is left in it at the end is gone from the disk
        changed: list[Summary] = []
        self.skipped = []
        for entry_id, path, st in walk_entry_paths(self.root, under, self.skipped):
            old = known.pop(entry_id, None)
            # ctime too: `cp -p` and `rsync -a` restore the old mtime (and may keep the size),
            # but no tool can set the ctime back.
            if full or old is None or old != (st.st_mtime_ns, st.st_size, st.st_ctime_ns):
                changed.append(summarise(entry_id, Path(path), st, self.root))
        gone = list(known)
        facts = self._unknown_facts(under, {s.id for s in changed}, gone, changed)
        if not gone and not changed and not facts and under:
            return self  # nothing to write: no write transaction either
        with self._write():
            self.db.executemany("DELETE FROM entries WHERE id = ?", [(g,) for g in gone])
            self.db.executemany(_INSERT, [_row(s) for s in changed])
            self.db.executemany(_SET_FACTS, facts)
            if not under:
                self.db.execute("INSERT OR REPLACE INTO state VALUES ('populated', '1')")
        return self

    def _unknown_facts(
        self, under: str, changed_ids: set[str], gone: list[str], changed: list[Summary]
    ) -> list[tuple[str, str, str, str, str]]:
        """The lifecycle facts of the unchanged rows below ``under`` that do not have them
        yet (an upgraded catalog): from the lifecycle scan's cache where it holds the file
        as it is (no read at all), else by the quick reader; a file it cannot read quickly
        is summarised in full and joins ``changed``."""
        rows = self.db.execute(
            "SELECT id, mtime_ns, size, ctime_ns FROM entries WHERE refs IS NULL"
            + (" AND id >= ? AND id < ?" if under else ""),
            (under + "/", under + "0") if under else (),
        ).fetchall()
        out: list[tuple[str, str, str, str, str]] = []
        skip = changed_ids.union(gone)
        seeds = scanned(self.root) if rows else {}
        for entry_id, *stamp in rows:
            if entry_id in skip:
                continue
            seed = seeds.get(entry_id)
            if seed is not None and seed[0] == stamp:  # the file the scan read, unchanged since
                out.append(_facts(seed[1], entry_id))
                continue
            try:
                path = entry_path(self.root, entry_id)  # refuses a link out of the root
                st = path.stat()
                info = None if path.is_symlink() else fast_info(entry_id, read_capped(path))
            except (MemsearchError, OSError):
                continue  # gone or unreadable meanwhile: the next refresh's walk decides
            if info is None:  # not in the store's plain shape (or a link): the full reader
                changed.append(summarise(entry_id, path, st, self.root))
                continue
            out.append(_facts(info, entry_id))
        return out

    @_rebuild_on_damage
    def populated(self) -> bool:
        """True once a whole-store refresh has filled the catalog."""
        return self.db.execute("SELECT 1 FROM state WHERE key = 'populated'").fetchone() is not None

    def _known(self, under: str) -> dict[str, tuple[int, int, int]]:
        if not under:
            rows = self.db.execute("SELECT id, mtime_ns, size, ctime_ns FROM entries")
        else:
            # Ids below ``under/`` are the range [under/, under0) ('0' follows '/'): a walk
            # of the primary-key index, not a scan of the whole table.
            rows = self.db.execute(
                "SELECT id, mtime_ns, size, ctime_ns FROM entries WHERE id >= ? AND id < ?", (under + "/", under + "0")
            )
        return {id_: (mtime, size, ctime) for id_, mtime, size, ctime in rows}

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:  # SQLite may have rolled back itself (a full disk)
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("ROLLBACK")
            raise

    @_rebuild_on_damage
    def put(self, entry: Entry) -> None:
        """Record a file this process just wrote, without re-reading it.

        Autocommitted on its own, not inside the store's file transaction: if that
        transaction rolls back, ``Store.edit`` re-syncs the catalog from the disk.
        """
        assert entry.path is not None
        s = from_entry(entry, entry.path.stat())
        self.db.execute(_INSERT, _row(s))
        self._note_own(s.id, 1)

    @_rebuild_on_damage
    def drop(self, entry_id: str) -> None:
        self._note_own(entry_id, self.db.execute("DELETE FROM entries WHERE id = ?", (entry_id,)).rowcount)

    def _note_own(self, entry_id: str, changes: int) -> None:
        if changes:
            category = category_of(entry_id)
            self._own.setdefault(category, set()).add(entry_id)
            self._own_count[category] = self._own_count.get(category, 0) + changes

    # -- INDEX.md markers (see the module docstring) ----------------------------------
    @_rebuild_on_damage
    def index_marker(self, category: str) -> IndexMarker | None:
        """What the last INDEX.md write of ``category`` recorded; None if nothing usable."""
        row = self.db.execute(
            "SELECT i.fingerprint, i.gen, coalesce(g.n, 0) FROM indexes i LEFT JOIN gens g USING (category)"
            " WHERE i.category = ?",
            (category,),
        ).fetchone()
        return IndexMarker(*row) if row else None

    @_rebuild_on_damage
    def rows_gen(self, category: str) -> int:
        """The generation of ``category``'s rows (read before rendering them)."""
        row = self.db.execute("SELECT n FROM gens WHERE category = ?", (category,)).fetchone()
        return row[0] if row else 0

    def own_changes(self, category: str) -> tuple[int, set[str]]:
        """(row changes, ids) this object made in ``category`` since its index was marked."""
        return self._own_count.get(category, 0), set(self._own.get(category, ()))

    @_rebuild_on_damage
    def mark_index(self, category: str, fingerprint: str, gen: int) -> None:
        """Record that the INDEX.md ``fingerprint`` holds the table of ``category``'s rows at
        generation ``gen``; this object's own changes are counted afresh from here."""
        self.db.execute("INSERT OR REPLACE INTO indexes VALUES (?, ?, ?)", (category, fingerprint, gen))
        self._own.pop(category, None)
        self._own_count.pop(category, None)

    # -- queries ---------------------------------------------------------------------
    @property
    def entries(self) -> EntriesView:
        return EntriesView(self)

    @_rebuild_on_damage
    def in_category(self, category: str, *, recursive: bool = False) -> list[Summary]:
        """Entries directly in ``category`` (and below it with ``recursive``), sorted by id."""
        if recursive and not category:
            rows = self.db.execute(_SELECT + " ORDER BY id")
        elif recursive:  # every id below category/ (its own, archived and subcategories'): a range
            rows = self.db.execute(_SELECT + " WHERE id >= ? AND id < ? ORDER BY id", (category + "/", category + "0"))
        else:
            rows = self.db.execute(_SELECT + " WHERE category = ? ORDER BY id", (category,))
        return _summaries(rows.fetchall())

    @_rebuild_on_damage
    def index_rows(self, category: str) -> list[tuple[str, str, str, str]]:
        """(id, title, status, updated) of the readable entries directly in ``category``: the
        columns of its INDEX.md, without building full summaries (5k-row categories)."""
        return self.db.execute(
            "SELECT id, title, status, updated FROM entries WHERE category = ? AND error = ''", (category,)
        ).fetchall()

    @_rebuild_on_damage
    def index_row(self, entry_id: str) -> tuple[str, str, str] | None:
        """(title, status, updated) of one readable entry; None if absent or unreadable."""
        return cast(
            "tuple[str, str, str] | None",
            self.db.execute(
                "SELECT title, status, updated FROM entries WHERE id = ? AND error = ''", (entry_id,)
            ).fetchone(),
        )

    @_rebuild_on_damage
    def count_rows(self, category: str) -> int:
        """How many readable entries ``category`` holds directly (its INDEX.md rows)."""
        return cast(
            int,
            self.db.execute("SELECT count(*) FROM entries WHERE category = ? AND error = ''", (category,)).fetchone()[
                0
            ],
        )

    @_rebuild_on_damage
    def titled(self, category: str, title: str) -> list[tuple[str, str, str]]:
        """(id, title, status) of the readable entries directly in ``category`` whose title
        is ``title`` ignoring case (casefold): an indexed look-up, not a 5k-row scan."""
        return self.db.execute(
            "SELECT id, title, status FROM entries WHERE category = ? AND title_key = ? AND error = ''",
            (category, title.casefold()),
        ).fetchall()

    @_rebuild_on_damage
    def topic_rows(self, category: str) -> list[tuple[str, str, str, str]]:
        """(id, title, status, tags as JSON) of the readable entries directly in ``category``:
        what a same-topic check needs, without building full summaries."""
        return self.db.execute(
            "SELECT id, title, status, tags FROM entries WHERE category = ? AND error = ''", (category,)
        ).fetchall()

    @_rebuild_on_damage
    def totals(self) -> dict[str, tuple[int, str]]:
        """Per category with direct entries: (count, latest updated), readable entries only."""
        rows = self.db.execute(
            "SELECT category, count(*), max(updated) FROM entries WHERE error = '' GROUP BY category"
        )
        return {r[0]: (r[1], r[2] or "") for r in rows}

    @_rebuild_on_damage
    def conflicted(self) -> list[str]:
        """Ids of the readable entries whose frontmatter held a conflict mark when last read."""
        # ``+error``: not a term the planner may use an index for (it chose ``entries_life`` by
        # error, then sorted), so it reads ``entries_conflict``: the marked rows only
        rows = self.db.execute("SELECT id FROM entries WHERE conflict = 1 AND +error = '' ORDER BY id")
        return [r[0] for r in rows]

    @_rebuild_on_damage
    def tally(self) -> dict[str, tuple[int, int]]:
        """Per category with direct entries: (entries, of them not active), unreadable ones
        included (as not active): the Index tree's counts without a summary in memory."""
        rows = self.db.execute("SELECT category, count(*), sum(status != 'active') FROM entries GROUP BY category")
        return {r[0]: (r[1], r[2] or 0) for r in rows}

    @_rebuild_on_damage
    def matching(self, text: str, limit: int) -> list[Summary]:
        """Up to ``limit`` entries (by id) whose title, id or a tag contains ``text``
        (case-folded): SQLite narrows the rows (``instr`` over the case-folded ``fold``
        column, no Python per row), Python checks each candidate by the exact rule. The scan
        reads the narrow ``entries_fold`` index in id order, not the wide rows (a filter
        that matches nothing read all 100k of them); only candidates are fetched whole."""
        q = text.casefold()
        if not q:
            return []
        ids = self.db.execute("SELECT id FROM entries INDEXED BY entries_fold WHERE instr(fold, ?) ORDER BY id", (q,))
        out: list[Summary] = []
        while len(out) < limit and (batch := [r[0] for r in ids.fetchmany(_BATCH)]):
            marks = ",".join("?" * len(batch))
            for row in self.db.execute(_SELECT + f" WHERE id IN ({marks}) ORDER BY id", batch).fetchall():
                s = _summary(row)
                if q in s.title.casefold() or q in s.id.casefold() or any(q in str(t).casefold() for t in s.tags):
                    out.append(s)
                    if len(out) >= limit:
                        break
        return out

    @_rebuild_on_damage
    def same_body(self, norm_hash: str) -> list[Summary]:
        return [_summary(r) for r in self.db.execute(_SELECT + " WHERE norm_hash = ? AND error = ''", (norm_hash,))]

    @_rebuild_on_damage
    def similar_length(self, low: int, high: int) -> list[tuple[str, str, str]]:
        """(id, title, normalised head) of readable entries whose normalised body length is
        within [low, high]: the near-duplicate candidates."""
        return self.db.execute(
            "SELECT id, title, head FROM entries WHERE norm_len BETWEEN ? AND ? AND error = ''", (low, high)
        ).fetchall()

    @_rebuild_on_damage
    def errors(self) -> list[Summary]:
        return [_summary(r) for r in self.db.execute(_SELECT + " WHERE error != '' ORDER BY id")]
