"""Store commands: init, add, show, ls, update, edit, index check [--fix]."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path

import typer

from memsearch_tui.cli.envelope import envelope, say
from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings
from memsearch_tui.engine.api.errors import InvalidInput
from memsearch_tui.engine.api.serialise import to_json
from memsearch_tui.engine.api.text import plural, verb


def _tags(value: str | None) -> list[str] | None:
    return None if value is None else [t.strip() for t in value.split(",") if t.strip()]


def _date(value: str | None, name: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(f"--{name} must be a date YYYY-MM-DD, got {value!r}") from None


def _importance(value: float | None) -> float | None:
    if value is not None and not 0 <= value <= 1:
        raise typer.BadParameter(f"--importance must be from 0 to 1, got {value}")
    return value


def read_body(body: str | None, body_file: str | None, *, required: bool) -> str | None:
    """The body from --body, --body-file F or --body-file - (stdin)."""
    if body is not None and body_file is not None:
        raise typer.BadParameter("give either --body or --body-file, not both")
    if body_file == "-":
        data = sys.stdin.buffer.read()
        where = "standard input"
    elif body_file is not None:
        path = Path(body_file)
        if not path.is_file():
            raise InvalidInput(f"{body_file}: no such file")
        data, where = path.read_bytes(), body_file
    elif body is not None:
        return body
    elif required:
        raise typer.BadParameter("the entry needs a body: --body TEXT, --body-file FILE or --body-file - (stdin)")
    else:
        return None
    if b"\x00" in data:
        raise InvalidInput(f"{where}: binary data, not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{where}: not valid UTF-8 (byte {exc.start})") from None


def register(app: typer.Typer) -> None:
    """Add the store commands to the root app."""
    index_app = typer.Typer(help="Check or repair the INDEX.md files.", no_args_is_help=True)
    app.add_typer(index_app, name="index")

    @app.command("init")
    @handles_errors
    def init(ctx: typer.Context, json_out: bool = JsonOpt) -> None:
        """Create the memory store (INDEX.md, config.md) if it is not there yet."""
        mem = settings(ctx).memory()
        created = mem.entries.init_store()
        word = "created" if created else "already initialised"
        emit(ctx, {"root": str(mem.root), "created": created}, f"{mem.root}: {word}", json_flag=json_out)

    @app.command("add")
    @handles_errors
    def add(
        ctx: typer.Context,
        category: str = typer.Argument(..., help="Category path, e.g. projects/web (created if new)."),
        title: str = typer.Argument(..., help="Entry title (its file name is a slug of it)."),
        tags: str | None = typer.Option(None, "--tags", help="Comma-separated tags."),
        importance: float | None = typer.Option(None, "--importance", help="0 to 1."),
        expires: str | None = typer.Option(None, "--expires", help="YYYY-MM-DD."),
        body: str | None = typer.Option(None, "--body", help="Body text."),
        body_file: str | None = typer.Option(None, "--body-file", help="File with the body, or - for stdin."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Add an entry (refused if it holds a secret or duplicates another entry)."""
        text = read_body(body, body_file, required=True)
        assert text is not None
        result = (
            settings(ctx)
            .memory()
            .entries.add(
                category,
                title,
                text,
                _tags(tags) or [],
                _importance(importance),
                expires=_date(expires, "expires"),
            )
        )
        emit(ctx, result, result.message, json_flag=json_out)

    @app.command("show")
    @handles_errors
    def show(ctx: typer.Context, entry_id: str = typer.Argument(..., metavar="ID"), json_out: bool = JsonOpt) -> None:
        """Print an entry: its fields and body."""
        e = settings(ctx).memory().entries.show(entry_id)
        head = f"{e.id}  [{e.status}]  v{e.version}  tags: {', '.join(e.tags) or '-'}"
        emit(ctx, e, f"{head}\n# {e.title}\n\n{e.body.rstrip()}", json_flag=json_out)

    @app.command("ls")
    @handles_errors
    def ls(
        ctx: typer.Context,
        category: str | None = typer.Argument(None, help="Only this category (and its subcategories)."),
        status: str | None = typer.Option(None, "--status", help="active, archived or expired."),
        json_out: bool = JsonOpt,
    ) -> None:
        """List entries, or the categories when the store is empty."""
        if status is not None and status not in ("active", "archived", "expired", "invalid"):
            raise typer.BadParameter(f"--status must be active, archived or expired, got {status!r}")
        rows = settings(ctx).memory().entries.list(category, status)
        lines = [f"{r.updated or '-':10}  {r.status:8}  {r.id}  — {r.title}" for r in rows]
        emit(ctx, {"entries": rows, "count": len(rows)}, "\n".join(lines) or "(no entries)", json_flag=json_out)

    @app.command("update")
    @handles_errors
    def update(
        ctx: typer.Context,
        entry_id: str = typer.Argument(..., metavar="ID"),
        title: str | None = typer.Option(None, "--title"),
        tags: str | None = typer.Option(None, "--tags", help="Comma-separated; replaces the tags."),
        importance: float | None = typer.Option(None, "--importance"),
        expires: str | None = typer.Option(None, "--expires"),
        body: str | None = typer.Option(None, "--body"),
        body_file: str | None = typer.Option(None, "--body-file", help="File with the body, or - for stdin."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Change an entry's title, tags, importance, expiry or body."""
        change = {
            "title": title,
            "body": read_body(body, body_file, required=False),
            "tags": _tags(tags),
            "importance": _importance(importance),
            "expires": _date(expires, "expires"),
        }
        if all(v is None for v in change.values()):
            raise typer.BadParameter("nothing to update: give --title, --tags, --importance, --expires or --body")
        result = settings(ctx).memory().entries.update(entry_id, **change)  # type: ignore[arg-type]
        emit(ctx, result, result.message, json_flag=json_out)

    @app.command("edit")
    @handles_errors
    def edit(ctx: typer.Context, entry_id: str = typer.Argument(..., metavar="ID"), json_out: bool = JsonOpt) -> None:
        """Edit an entry in $EDITOR; the result is validated before it replaces the file."""
        entry, changed = settings(ctx).memory().entries.edit(entry_id, subprocess.call)
        text = f"saved {entry.id}" if changed else "no changes"
        emit(ctx, {"entry": entry, "changed": changed}, text, json_flag=json_out)

    @index_app.command("check")
    @handles_errors
    def index_check(
        ctx: typer.Context,
        fix: bool = typer.Option(False, "--fix", help="Rewrite the indexes from the entry files."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Report drift between INDEX.md files and entry files (exit 1 if any, unless --fix)."""
        layout = settings(ctx).memory().layout
        data = layout.check_index(fix=fix)
        lines = []
        for p in data.problems:
            lines.append(f"{p.file}: {p.kind}: {p.message}")
            if not p.repairable:
                lines.append(f"    fix: {p.fix}")
        if data.fixed:
            lines.append(f"fixed: rewrote {plural(data.files_written, 'index file')}")
        remaining = data.remaining
        if not remaining:
            emit(ctx, data, "\n".join(lines) or "indexes are consistent", json_flag=json_out)
            return
        hand = len(remaining)
        message = (
            f"{plural(hand, 'problem')} {verb(hand, 'needs', 'need')} a hand fix"
            if fix
            else layout.index_summary(remaining)
        )
        if json_out or settings(ctx).json:
            print(envelope(False, to_json(data), {"code": "index_drift", "message": message}))
        else:
            say("\n".join(lines))
            say(f"error: {message}", sys.stderr)
        raise typer.Exit(1)
