"""The ``--json`` envelope and the error mapping, without Typer.

Shared by the Typer commands (through :mod:`.output`) and the light paths that run before
Typer is imported (``search --strategy grep``), so both print exactly the same thing.
"""

from __future__ import annotations

import json

from memsearch_tui.engine.core.errors import MemsearchError


def envelope(ok: bool, data: object = None, error: dict[str, str] | None = None) -> str:
    """``{"ok": bool, "data": …, "error": null | {"code", "message"}}`` as one line."""
    return json.dumps({"ok": ok, "data": data, "error": error}, ensure_ascii=False, default=str)


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
