"""The ``--json`` envelope and how a failure is printed, without Typer.

Shared by the Typer commands (through :mod:`.output`) and the light paths that run before
Typer is imported (``search --strategy grep``), so both print exactly the same thing. What
a failure is called comes from ``engine.api.errors.describe``, as on every face.
"""

from __future__ import annotations

import json
import sys
from typing import IO

from memsearch_tui.engine.api.text import json_printable, redact, shown


def dumps(value: object) -> str:
    """One JSON line for a terminal: secrets masked in every string, no raw control character."""
    return json_printable(json.dumps(redact(value), ensure_ascii=False, default=str))


def envelope(ok: bool, data: object = None, error: dict[str, str] | None = None) -> str:
    """``{"ok": bool, "data": …, "error": null | {"code", "message"}}`` as one line, every
    string redacted (secrets named by kind) and every control character escaped."""
    return dumps({"ok": ok, "data": data, "error": error})


def say(text: str, file: IO[str] | None = None) -> None:
    """Print human text built from untrusted strings: secrets masked, controls escaped."""
    print(shown(text), file=file or sys.stdout)


def report_failure(exc: BaseException, *, json_mode: bool) -> bool:
    """Print a failure a user can cause (exit 1 follows); False for a bug (let it raise)."""
    from memsearch_tui.engine.api.errors import describe

    known = describe(exc)
    if known is None:
        return False
    if json_mode:
        print(envelope(False, None, {"code": known.code, "message": known.message}))
    else:
        say(f"error: {known.message}", sys.stderr)
    return True


def expected_error(exc: BaseException) -> tuple[str, str] | None:
    """(code, message) of :func:`describe` — kept for ``cli/run_due.py`` (the hook's own
    module, owned by its fast path), which prints errors its own way."""
    from memsearch_tui.engine.api.errors import describe

    known = describe(exc)
    return None if known is None else (known.code, known.message)
