"""The ``--json`` envelope and the error mapping, without Typer.

Shared by the Typer commands (through :mod:`.output`) and the light paths that run before
Typer is imported (``search --strategy grep``), so both print exactly the same thing.
"""

from __future__ import annotations

import json
import sys
from typing import IO

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.terminal import json_printable, shown


def dumps(value: object) -> str:
    """One JSON line for a terminal: secrets masked in every string, no raw control character."""
    from memsearch_tui.engine.core.secrets import redact_data  # re2: only once something is printed

    return json_printable(json.dumps(redact_data(value), ensure_ascii=False, default=str))


def envelope(ok: bool, data: object = None, error: dict[str, str] | None = None) -> str:
    """``{"ok": bool, "data": …, "error": null | {"code", "message"}}`` as one line, every
    string redacted (secrets named by kind) and every control character escaped."""
    return dumps({"ok": ok, "data": data, "error": error})


def say(text: str, file: IO[str] | None = None) -> None:
    """Print human text built from untrusted strings: secrets masked, controls escaped."""
    print(shown(text), file=file or sys.stdout)


def expected_error(exc: BaseException) -> tuple[str, str] | None:
    """(code, message) for a failure a user can cause; None for a bug (let it raise)."""
    if isinstance(exc, MemsearchError):
        return exc.code, exc.message
    if isinstance(exc, UnicodeDecodeError):
        return "invalid", f"not valid UTF-8: {exc.reason}"
    if isinstance(exc, PermissionError):
        return "permission", f"{exc.filename}: permission denied"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return "io", f"{where}{exc.strerror or exc}"
    return None
