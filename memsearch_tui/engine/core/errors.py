"""Errors the engine raises on purpose.

Every refusal or failure a user can cause carries a stable ``code`` (for ``--json``
callers and tests) and a human ``message`` that names the file or id and the problem.
The CLI turns these into exit code 1 and a one-line message, never a traceback.
"""

from __future__ import annotations


class MemsearchError(Exception):
    """Base of all expected engine errors."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None, path: str | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.path = path

    def __str__(self) -> str:
        return self.message


class NotFound(MemsearchError):
    code = "not_found"


class InvalidInput(MemsearchError):
    """Malformed file or argument: bad YAML, invalid UTF-8, a wrong field type, …"""

    code = "invalid"


class Refused(MemsearchError):
    """A pre-write check said no: duplicate, secret, unsafe path, conflict, …"""

    code = "refused"


class LockTimeout(MemsearchError):
    code = "locked"


class Conflict(MemsearchError):
    """The target changed since it was read (proposal accept, undo)."""

    code = "conflict"


class LimitExceeded(InvalidInput):
    """Untrusted input passed one of its bounds (bytes, characters, time): refused whole,
    nothing written. Subclasses name the bound (provider output, answer size, …)."""

    code = "limit"


class EntryTooLarge(Refused, LimitExceeded):
    """A file (an entry, a file to import) is bigger than the store holds; refused unparsed."""

    code = "too_large"
