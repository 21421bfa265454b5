"""The one output contract of every command.

Every string printed goes through the secret redactor and the control-character escaping
(:func:`.envelope.say`, :func:`.envelope.envelope`): titles, reasons and error messages
carry text from files, LLMs and configs.

Human mode prints text to stdout and errors to stderr. ``--json`` prints exactly one
object ``{"ok": bool, "data": …, "error": null | {"code": str, "message": str}}``.
Exit codes: 0 success, 1 refused or failed, 2 usage error.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import typer

if TYPE_CHECKING:
    from memsearch_tui.engine.api import Memory

from memsearch_tui.cli.envelope import envelope, report_failure, say
from memsearch_tui.engine.api.errors import MemsearchError

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class Settings:
    """Global options shared by every subcommand (set in the root callback)."""

    memory_root: Path
    project: Path
    json: bool = False

    def memory(self) -> Memory:
        """The engine API as the person at the terminal (direct writes); close it after."""
        from memsearch_tui.engine.api import Memory

        return Memory(self.memory_root, self.project)


def settings(ctx: typer.Context) -> Settings:
    """The root's Settings, from any nested command's context."""
    obj = ctx.find_root().obj
    assert isinstance(obj, Settings)
    return obj


def emit(ctx: typer.Context, data: Any, text: str | None = None, *, json_flag: bool = False) -> None:
    """Print a successful result: ``text`` for people, ``data`` in the envelope for --json.

    ``data`` may hold API dataclasses: they go through the one serialiser, ``to_json``, as
    the MCP tools' results do."""
    if json_flag or settings(ctx).json:
        from memsearch_tui.engine.api import to_json

        print(envelope(True, to_json(data)))
    elif text is not None:
        say(text)  # titles, reasons, journal lines: secrets masked, controls escaped


def fail(code: str, message: str, *, json_mode: bool, exit_code: int = 1) -> NoReturn:
    """Print an error in the active mode and exit."""
    if json_mode:
        print(envelope(False, None, {"code": code, "message": message}))
    else:
        say(f"error: {message}", sys.stderr)
    raise typer.Exit(exit_code)


def handles_errors(fn: F) -> F:
    """Turn expected failures into exit 1 with a clear message instead of a traceback.

    The wrapped command must take ``ctx: typer.Context`` and may take ``json_out: bool``.
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ctx = kwargs.get("ctx") or next(a for a in args if isinstance(a, typer.Context))
        json_mode = bool(kwargs.get("json_out")) or settings(ctx).json
        try:
            return fn(*args, **kwargs)
        except BrokenPipeError:
            raise  # the reader of our output left (`| head`): cli.main ends quietly
        except (MemsearchError, OSError, UnicodeDecodeError) as exc:
            if not report_failure(exc, json_mode=json_mode):
                raise
            raise typer.Exit(1) from None
        except Exception as exc:  # a derived index's SQLite on a full or read-only disk (not imported here)
            if not _sqlite_failure(exc) or not report_failure(exc, json_mode=json_mode):
                raise
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


def _sqlite_failure(exc: BaseException) -> bool:
    """An ``sqlite3.OperationalError`` (database or disk is full, read-only, locked…)."""
    return type(exc).__module__ == "sqlite3" and type(exc).__name__ == "OperationalError"


JsonOpt = typer.Option(False, "--json", help="Print one JSON object {ok, data, error}.")
