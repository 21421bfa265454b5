"""The local manifest: file → hash → chunk ids, the chunk texts, and the keyword index.

One SQLite file (standard library, WAL mode so searches read while an index run writes)
per memory root. It is the bookkeeping that makes indexing incremental — a file whose
size and mtime did not change is not even read — and it doubles as the keyword ranker:
an FTS5 table over pre-tokenized text (see :mod:`.tokenize`) scored with FTS5's BM25,
whose IDF is global (unlike Milvus Lite's per-segment BM25).

Every row added to or removed from the keyword index is also appended to ``fts_log``
(with the manifest's ``fts_epoch``), so the resident BM25 ranker of a warm Searcher
(:mod:`.keyword_index`) can catch up with a few changed rows instead of rebuilding.

Vectors live in Milvus; each chunk row records whether its vector is there
(``embedded``), and ``pending_deletes`` holds ids still to remove from Milvus, so an
interrupted run or a locked Milvus Lite simply leaves work for the next one.

A chunk's vector is composed, not embedded whole (see :mod:`.indexer`): the model embeds
each chunk's *own* text once (``own_text``, keyed by its hash ``own_key``), and
``textvecs`` caches those vectors by key; ``ctx_keys`` names the neighbouring turns whose
own vectors are mixed in. A turn whose neighbours changed, or a file that moved, thus
gets its new vector without the model.

This module holds the schema, the files and their chunks; the vector bookkeeping is in
:mod:`.manifest_vectors`, the keyword ranking and its change log in :mod:`.manifest_keyword`,
the row records in :mod:`.manifest_rows`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.sqlite_errors import not_damage
from memsearch_tui.engine.core.sqlite_scrub import SECURE_DELETE
from memsearch_tui.engine.search.manifest_keyword import BODY_WEIGHT, CTX_WEIGHT, FTS_LOG_KEEP, HEAD_WEIGHT, KeywordBook
from memsearch_tui.engine.search.manifest_rows import _CHUNK_COLS, ChunkRow, FileRow
from memsearch_tui.engine.search.manifest_vectors import VectorBook
from memsearch_tui.engine.search.sources import SourceFile
from memsearch_tui.engine.search.tokenize import tokens

if TYPE_CHECKING:
    from memsearch_tui.engine.search.chunking import Chunk  # only the indexer makes chunks

# Named here as before the split (the rows, the keyword weights, the change-log length).
__all__ = [
    "BODY_WEIGHT",
    "CTX_WEIGHT",
    "FTS_LOG_KEEP",
    "FTS_TOKENIZE",
    "HEAD_WEIGHT",
    "SCHEMA_VERSION",
    "_CHUNK_COLS",
    "ChunkRow",
    "FileRow",
    "Manifest",
]

SCHEMA_VERSION = "3"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, scope TEXT NOT NULL, kind TEXT NOT NULL, entry_id TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL, sha TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS files_scope ON files(scope);
CREATE TABLE IF NOT EXISTS chunks (
    rid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, path TEXT NOT NULL, scope TEXT NOT NULL,
    kind TEXT NOT NULL, entry_id TEXT NOT NULL, heading TEXT NOT NULL, start INTEGER NOT NULL,
    end INTEGER NOT NULL, text TEXT NOT NULL, embed_text TEXT NOT NULL, embedded INTEGER NOT NULL DEFAULT 0,
    vec BLOB, own_key TEXT NOT NULL DEFAULT '', own_text TEXT NOT NULL DEFAULT '', ctx_keys TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS chunks_own ON chunks(own_key);
CREATE TABLE IF NOT EXISTS textvecs (key TEXT PRIMARY KEY, vec BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
CREATE INDEX IF NOT EXISTS chunks_pending ON chunks(embedded) WHERE embedded = 0;
CREATE TABLE IF NOT EXISTS pending_deletes (id TEXT PRIMARY KEY);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(head, body, ctx, tokenize='porter unicode61 remove_diacritics 2');
CREATE TABLE IF NOT EXISTS fts_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, rid INTEGER NOT NULL, added INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS file_stamps (path TEXT PRIMARY KEY, ctime_ns INTEGER NOT NULL, ino INTEGER NOT NULL);
"""
#: A file row with the ctime and inode of the stat its text was read after (``file_stamps``,
#: NULL for a row an older version wrote: :func:`.indexer.changed_files` fills it in).
_FILE_COLS = (
    "f.path, f.scope, f.kind, f.entry_id, f.mtime_ns, f.size, f.sha, t.ctime_ns, t.ino "
    "FROM files f LEFT JOIN file_stamps t ON t.path = f.path"
)
FTS_TOKENIZE = "porter unicode61 remove_diacritics 2"  # must equal the fts table's tokenize= above
FULL_BELOW = 1 << 20  #: bytes free under which a failed open is said to be a full disk


def disk_full(folder: Path) -> sqlite3.OperationalError | None:
    """SQLite's own words for a full disk when ``folder``'s file system has no room left:
    on a full disk its open fails as "disk I/O error" (the WAL's shared memory cannot be
    made), which names neither the cause nor the remedy."""
    import shutil

    try:
        full = shutil.disk_usage(folder).free < FULL_BELOW
    except OSError:
        return None
    return sqlite3.OperationalError("database or disk is full") if full else None


class Manifest(VectorBook, KeywordBook):
    """A connection to one manifest database."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            if not_damage(exc):  # locked by another writer, read-only, full: no reason to rebuild
                full = disk_full(self.path.parent)
                if full is not None:
                    raise full from exc
                raise
            # A corrupt or foreign file: it is derived data, so set it aside and start over.
            self.path.replace(self.path.with_suffix(".corrupt"))
            self._open()

    def _open(self) -> None:
        self.db = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(SECURE_DELETE)  # a deleted chunk's text does not linger in free pages
        self.db.execute("PRAGMA synchronous=NORMAL")
        has_meta = self.db.execute("SELECT 1 FROM sqlite_master WHERE name='meta'").fetchone()
        if (
            has_meta
            and (self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() or [None])[0] != SCHEMA_VERSION
        ):
            for table in ("meta", "files", "chunks", "pending_deletes", "fts", "fts_log", "textvecs", "file_stamps"):
                self.db.execute(f"DROP TABLE IF EXISTS {table}")  # an older layout: rebuilt from the files
        self.db.executescript(_SCHEMA)
        if self.get_meta("schema") is None:
            self.set_meta("schema", SCHEMA_VERSION)
        if self.get_meta("fts_epoch") is None:
            self.new_fts_epoch()
        self.db.commit()

    def close(self) -> None:
        self.db.close()

    # -- files ---------------------------------------------------------------------
    def files(self, scopes: Iterable[str] | None = None, paths: Iterable[str] | None = None) -> dict[str, FileRow]:
        """The rows of ``scopes`` (all by default); of ``paths`` only when given (a
        partial sync after a write looks up its few files, not 10k rows)."""
        if paths is not None:
            wanted = set(scopes) if scopes is not None else None
            out = {}
            for path in paths:
                r = self.db.execute(f"SELECT {_FILE_COLS} WHERE f.path = ?", (path,)).fetchone()
                if r is not None and (wanted is None or r[1] in wanted):
                    out[r[0]] = FileRow(*r)
            return out
        if scopes is None:
            rows = self.db.execute(f"SELECT {_FILE_COLS}").fetchall()
        else:
            scopes = list(scopes)
            marks = ",".join("?" * len(scopes))
            rows = self.db.execute(f"SELECT {_FILE_COLS} WHERE f.scope IN ({marks})", scopes).fetchall()
        return {r[0]: FileRow(*r) for r in rows}

    def touch_file(self, path: str, mtime_ns: int, size: int, stamps: tuple[int, int] | None = None) -> None:
        """A file read again with the same text: only its stat is recorded anew."""
        self.db.execute("UPDATE files SET mtime_ns=?, size=? WHERE path=?", (mtime_ns, size, path))
        if stamps is not None:
            self.stamp_files([(path, *stamps)])

    def stamp_files(self, rows: Iterable[tuple[str, int, int]]) -> None:
        """Record (path, ctime_ns, inode) of files whose text the manifest holds.

        A side table, not columns of ``files``: an older version's ``SELECT * FROM files``
        keeps its shape (it ignores the table, and a row it rewrites then has a stale ctime:
        read again once, the safe direction)."""
        self.db.executemany("INSERT OR REPLACE INTO file_stamps(path, ctime_ns, ino) VALUES (?,?,?)", rows)

    def replace_file(
        self,
        src: SourceFile,
        mtime_ns: int,
        size: int,
        sha: str,
        chunks: Sequence[Chunk],
        stamps: tuple[int, int] | None = None,
    ) -> tuple[int, int]:
        """Make the file's chunks exactly ``chunks``; returns (new chunks, removed chunks).
        ``stamps``: the (ctime_ns, inode) of the stat taken before the read.

        Chunks whose id is unchanged keep their vector; only their lines are updated.
        """
        key = src.key
        old = {r[0]: (r[1], r[2]) for r in self.db.execute("SELECT id, rid, embedded FROM chunks WHERE path=?", (key,))}
        new_ids = {c.id for c in chunks}
        removed = [cid for cid in old if cid not in new_ids]
        self._drop_chunks([(cid, *old[cid]) for cid in removed])
        added = 0
        for c in chunks:
            if c.id in old:
                self.db.execute(
                    "UPDATE chunks SET heading=?, start=?, end=?, text=? WHERE id=?",
                    (c.heading, c.start, c.end, c.text, c.id),
                )
                continue
            cur = self.db.execute(
                "INSERT INTO chunks(id, path, scope, kind, entry_id, heading, start, end, text, embed_text, embedded, "
                "own_key, own_text, ctx_keys) VALUES (?,?,?,?,?,?,?,?,?,?,0,?,?,?)",
                (
                    c.id,
                    key,
                    src.scope,
                    src.kind,
                    src.entry_id,
                    c.heading,
                    c.start,
                    c.end,
                    c.text,
                    c.embed_text,
                    c.meta.get("own_key", ""),
                    c.meta.get("own", ""),
                    " ".join(c.meta.get("ctx_keys", ())),
                ),
            )
            self.db.execute("DELETE FROM pending_deletes WHERE id=?", (c.id,))
            head_text = (c.meta.get("prefix", ""), c.meta.get("keywords", ""), c.heading.replace("#", " "))
            head = " ".join(tokens(" ".join(head_text)))
            self.db.execute(
                "INSERT INTO fts(rowid, head, body, ctx) VALUES (?,?,?,?)",
                (cur.lastrowid, head, " ".join(tokens(c.text)), " ".join(tokens(c.meta.get("context", "")))),
            )
            self.db.execute("INSERT INTO fts_log(rid, added) VALUES (?, 1)", (cur.lastrowid,))
            added += 1
        self.db.execute(
            "INSERT OR REPLACE INTO files(path, scope, kind, entry_id, mtime_ns, size, sha) VALUES (?,?,?,?,?,?,?)",
            (key, src.scope, src.kind, src.entry_id, mtime_ns, size, sha),
        )
        if stamps is None:
            self.db.execute("DELETE FROM file_stamps WHERE path=?", (key,))
        else:
            self.stamp_files([(key, *stamps)])
        return added, len(removed)

    def remove_file(self, path: str) -> int:
        rows = self.db.execute("SELECT id, rid, embedded FROM chunks WHERE path=?", (path,)).fetchall()
        self._drop_chunks(rows)
        self.db.execute("DELETE FROM files WHERE path=?", (path,))
        self.db.execute("DELETE FROM file_stamps WHERE path=?", (path,))
        return len(rows)

    def _drop_chunks(self, rows: Sequence[tuple[str, int, int]]) -> None:
        if any(r[2] for r in rows):
            self.bump_generation()
        for cid, rid, embedded in rows:
            self.db.execute("DELETE FROM chunks WHERE rid=?", (rid,))
            self.db.execute("DELETE FROM fts WHERE rowid=?", (rid,))
            self.db.execute("INSERT INTO fts_log(rid, added) VALUES (?, 0)", (rid,))
            if embedded:
                self.db.execute("INSERT OR IGNORE INTO pending_deletes(id) VALUES (?)", (cid,))

    # -- reading -----------------------------------------------------------------------
    def chunks_by_id(self, ids: Sequence[str]) -> dict[str, ChunkRow]:
        return {r.id: r for r in self._chunks_where("id", ids)}

    def chunks_by_rid(self, rids: Sequence[int]) -> dict[int, ChunkRow]:
        return {r.rid: r for r in self._chunks_where("rid", rids)}

    def texts_by_id(self, ids: Sequence[str]) -> dict[str, str]:
        """Chunk id → text, for the ids the manifest has (no row objects: a fusion's candidates)."""
        return dict(self._where("id, text", "id", ids))

    def _chunks_where(self, column: str, keys: Sequence[str | int]) -> Iterator[ChunkRow]:
        """Chunk rows whose ``column`` is one of ``keys``."""
        for r in self._where(_CHUNK_COLS, column, keys):
            yield ChunkRow(*r)

    def _where(self, cols: str, column: str, keys: Sequence[str | int]) -> Iterator[tuple[Any, ...]]:
        """``cols`` of the chunks whose ``column`` is one of ``keys`` (in batches: SQLite caps parameters)."""
        keys = list(keys)
        for i in range(0, len(keys), 500):
            part = keys[i : i + 500]
            yield from self.db.execute(
                f"SELECT {cols} FROM chunks WHERE {column} IN ({','.join('?' * len(part))})", part
            )

    def iter_chunks(self) -> Iterator[ChunkRow]:
        for r in self.db.execute(f"SELECT {_CHUNK_COLS} FROM chunks"):
            yield ChunkRow(*r)

    def commit(self) -> None:
        self.db.commit()

    def wipe(self) -> None:
        """Forget everything (``vectors reset``)."""
        for table in ("files", "chunks", "pending_deletes", "fts", "meta", "textvecs", "file_stamps"):
            self.db.execute(f"DELETE FROM {table}")
        self.set_meta("schema", SCHEMA_VERSION)
        self.new_fts_epoch()
        self.db.commit()
