"""Make deleted rows of a derived SQLite database really gone from its files.

Why: SQLite frees a deleted row's page but leaves its bytes in the file (and, in WAL
mode, in the ``-wal`` file) until the page is reused; FTS5 keeps deleted tokens in its
segments until they are merged. A purged entry's text would survive in the catalog,
the literal search's text cache and the search manifest. ``scrub`` turns on
``secure_delete`` (freed pages are zeroed), merges FTS5 segments (``optimize``),
rewrites the file (``VACUUM``) and empties the WAL (``wal_checkpoint(TRUNCATE)``).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

SECURE_DELETE = "PRAGMA secure_delete=ON"  # for connections that delete rows of derived text
# Left in a memory root's state folder by a purge until the search copies are scrubbed
# (the curator cannot call the search package; whoever can, does: see search/purge.py).


def scrub(path: Path, *, timeout: float = 10.0) -> str:
    """Scrub the database at ``path``; "" when done or absent, else why it could not be."""
    path = Path(path)
    if not path.is_file():
        return ""
    try:
        db = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
    except sqlite3.Error as exc:
        return f"{path}: {exc}"
    try:
        db.execute(SECURE_DELETE)
        for name in _fts5_tables(db):
            quoted = '"' + name.replace('"', '""') + '"'
            db.execute(f"INSERT INTO {quoted}({quoted}) VALUES ('optimize')")
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as exc:
        return f"{path}: {exc}"
    finally:
        db.close()
    return ""


def _fts5_tables(db: sqlite3.Connection) -> list[str]:
    rows = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
    return [name for name, sql in rows if re.search(r"using\s+fts5\s*\(", (sql or "").casefold())]  # not fts5vocab
