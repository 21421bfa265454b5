"""The rows the manifest hands out, and the connection its parts share.

Split from :mod:`.manifest` with its vector bookkeeping (:mod:`.manifest_vectors`) and its
keyword ranking (:mod:`.manifest_keyword`): each part is a mixin over ``ManifestDb``.
"""

from __future__ import annotations

import sqlite3

from memsearch_tui.engine.core.record import record


@record(frozen=False)
class FileRow:
    """A file as indexed: what it is, and the size, mtime, ctime, inode and hash that tell
    it changed (ctime and inode None: recorded by an older version, not known yet)."""

    path: str
    scope: str
    kind: str
    entry_id: str
    mtime_ns: int
    size: int
    sha: str
    ctime_ns: int | None = None
    ino: int | None = None


@record(frozen=False)
class ChunkRow:
    """A chunk as stored: enough to show a hit without reading the file."""

    rid: int
    id: str
    path: str
    scope: str
    kind: str
    entry_id: str
    heading: str
    start: int
    end: int
    text: str
    embed_text: str = ""
    own_key: str = ""
    own_text: str = ""
    ctx_keys: str = ""


_CHUNK_COLS = "rid, id, path, scope, kind, entry_id, heading, start, end, text"


class ManifestDb:
    """The one SQLite connection of a manifest and its ``meta`` table."""

    db: sqlite3.Connection

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))
