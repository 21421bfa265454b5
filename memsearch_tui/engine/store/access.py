"""When each entry was last read: kept beside the store, never in the entry files.

Reading must never write an entry: a ``show`` that added an ``accessed:`` line to a file
in a YAML shape the line-editor did not foresee (a flow mapping, a quoted or ``?`` key,
a block list) corrupted it, without a log record ``undo`` could use. So read dates live
in ``.memsearch-tui/access.sqlite3`` (one row per id: the last day it was read), written
with one SQLite upsert — atomic, no store lock, at most one change per entry per day.
Deleting the file forgets read dates only: lifecycle then judges by ``updated`` alone.
Older entries may still carry an ``accessed:`` key by hand or from earlier versions; the
lifecycle scan takes the later of the two.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.state_files import ACCESS, STATE_DIR

ACCESS_FILE = ACCESS
_SCHEMA = "CREATE TABLE IF NOT EXISTS accessed (id TEXT PRIMARY KEY, day TEXT NOT NULL)"


def _file(root: Path) -> Path:
    return Path(root) / STATE_DIR / ACCESS_FILE


def _connect(root: Path, *, create: bool) -> sqlite3.Connection | None:
    path = _file(root)
    if not create and not path.is_file():
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=2, isolation_level=None)
    db.execute(_SCHEMA)
    return db


def _discard(root: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{_file(root)}{suffix}")


def touch(root: Path, entry_id: str) -> bool:
    """Record that ``entry_id`` was read today; True if that is news (first read today).

    Never raises for a damaged or locked record file: a read must not fail because its
    date could not be noted (a damaged file is thrown away, as any derived file).
    """
    today = clock.today().isoformat()
    for attempt in range(2):
        try:
            db = _connect(root, create=True)
            assert db is not None
            try:
                cur = db.execute(
                    "INSERT INTO accessed VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET day = excluded.day"
                    " WHERE accessed.day < excluded.day",
                    (entry_id, today),
                )
                return cur.rowcount > 0
            finally:
                db.close()
        except sqlite3.DatabaseError:
            if attempt == 0:
                _discard(root)
        except (sqlite3.Error, OSError):
            return False
    return False


def last_read(root: Path) -> dict[str, str]:
    """id → the last day (ISO) it was read, for every entry read since records began."""
    try:
        db = _connect(root, create=False)
        if db is None:
            return {}
        try:
            return {i: d for i, d in db.execute("SELECT id, day FROM accessed")}
        finally:
            db.close()
    except (sqlite3.Error, OSError):
        return {}
