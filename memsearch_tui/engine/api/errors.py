"""What every face says about a failure: one mapping from an exception to (code, message, title).

The CLI's ``--json`` envelope and its ``error:`` line, the MCP tools' errors and the app's
toasts all ask :func:`describe`, so a refusal reads the same whichever face hit it. A
result of None means the exception is a bug, not something a user caused: let it raise.

The engine's error classes are re-exported here so a face can raise or catch them
through the one door (``engine.api``) without importing ``engine.core``.
"""

from __future__ import annotations

from collections import namedtuple

from memsearch_tui.engine.core.errors import (
    Conflict,
    InvalidInput,
    LockTimeout,
    MemsearchError,
    NotFound,
    Refused,
)

__all__ = [
    "Conflict",
    "Described",
    "InvalidInput",
    "LockTimeout",
    "MemsearchError",
    "NotFound",
    "Refused",
    "describe",
]


TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see engine.api)
if TYPE_CHECKING:
    from typing import NamedTuple

    class _Fields(NamedTuple):
        code: str
        message: str
        title: str

else:
    _Fields = namedtuple("Described", "code message title")


class Described(_Fields):
    """``code``: stable, for scripts and agents; ``message``: names the file or id and the
    problem; ``title``: a short heading for a toast (never an exception class name).

    A named tuple, not a dataclass: the literal-search path that reports errors races grep,
    and ``dataclasses`` and ``typing`` cost it ~10 ms of imports.
    """

    __slots__ = ()


# Most specific first: Conflict and LockTimeout are MemsearchErrors like the rest.
_TITLES: tuple[tuple[type[MemsearchError], str], ...] = (
    (Conflict, "Changed meanwhile"),
    (NotFound, "Not found"),
    (InvalidInput, "Not accepted"),
    (Refused, "Refused"),
    (LockTimeout, "Busy"),
)


def title_of(exc: MemsearchError) -> str:
    """The toast heading for an engine refusal."""
    return next((title for cls, title in _TITLES if isinstance(exc, cls)), "Error")


def describe(exc: BaseException) -> Described | None:
    """(code, message, title) for a failure a user can cause; None for a bug."""
    if isinstance(exc, MemsearchError):
        return Described(exc.code, exc.message, title_of(exc))
    if isinstance(exc, UnicodeDecodeError):
        return Described("invalid", f"not valid UTF-8: {exc.reason}", "Not accepted")
    if isinstance(exc, PermissionError):
        return Described("permission", f"{exc.filename}: permission denied", "Permission denied")
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return Described("io", f"{where}{exc.strerror or exc}", "Disk error")
    if type(exc).__module__ == "sqlite3" and type(exc).__name__ == "OperationalError":  # no sqlite3 import here
        return Described("io", f"an index database: {exc}", "Disk error")  # a full or read-only disk
    return None
