"""What a SQLite error says about its file: held by another connection, or not usable now
(locked, read-only, full, unreadable), as opposed to damaged.

A derived cache (the literal cache, the search manifest) is thrown away and rebuilt only
when it is damaged: at 1M chunks a rebuild costs minutes to hours, and a lock or a full
disk says nothing about the file. Decided by SQLite's primary result code, not its words."""

from __future__ import annotations

import sqlite3

#: another connection holds the lock past the busy timeout
HELD = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
#: the file could not be used now; it may be whole
NOT_DAMAGE = HELD | {
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_PERM,
}


def primary_code(exc: BaseException) -> int:
    """SQLite's primary result code of ``exc`` (0 when it carries none)."""
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


def busy(exc: BaseException) -> bool:
    """True for "database is locked" (or "…table is locked")."""
    return isinstance(exc, sqlite3.OperationalError) and primary_code(exc) in HELD


def not_damage(exc: BaseException) -> bool:
    """True for a lock, a read-only or full disk, an I/O or permission error: not damage."""
    return primary_code(exc) in NOT_DAMAGE
