"""``sync [init|status]``: the store follows you across machines over git.

Merging is the engine's (entries changed on two devices keep both texts as versions,
INDEX.md files are rebuilt, every merge is undoable); this module only parses and prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings
from memsearch_tui.engine.api.text import plural

if TYPE_CHECKING:
    from memsearch_tui.engine.api import Memory


def _memory(ctx: typer.Context) -> Memory:
    from memsearch_tui.engine.api import Memory

    s = settings(ctx)
    return Memory(s.memory_root, s.project)


def register(app: typer.Typer) -> None:
    """Add the ``sync`` group to the root app."""
    sub = typer.Typer(help="Sync the store with other devices over git (commit, fetch, merge, push).")
    app.add_typer(sub, name="sync")

    @sub.callback(invoke_without_command=True)
    @handles_errors
    def sync_now(ctx: typer.Context, json_out: bool = JsonOpt) -> None:
        """Commit this device's changes, merge the other devices' (both texts kept on a conflict), push."""
        if ctx.invoked_subcommand is not None:
            return
        from memsearch_tui.engine.api.serialise import to_json

        out = _memory(ctx).sync.run()
        lines = [out.message, *(f"  {n}" for n in out.notes)]
        emit(ctx, to_json(out), "\n".join(lines), json_flag=json_out)

    @sub.command("init")
    @handles_errors
    def init(
        ctx: typer.Context,
        remote: str = typer.Option("", "--remote", help="Git URL or path of the shared repository."),
        device: str = typer.Option("", "--device", help="This machine's name in commits (default: host name)."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Make the store a git repository (or clone --remote into an empty or missing store)."""
        from memsearch_tui.engine.api.serialise import to_json

        out = _memory(ctx).sync.init(remote=remote, device=device)
        emit(ctx, to_json(out), "\n".join([out.message, *(f"  {n}" for n in out.notes)]), json_flag=json_out)

    @sub.command("status")
    @handles_errors
    def status(ctx: typer.Context, json_out: bool = JsonOpt) -> None:
        """Last sync, commits ahead/behind, uncommitted changes, conflicts waiting (no network)."""
        from memsearch_tui.engine.api.serialise import to_json

        s = _memory(ctx).sync.status()
        if not s.initialised:
            text = s.message
        else:
            text = (
                f"device {s.device}; remote {s.remote or '(none)'}; last sync {s.last_sync or 'never'}\n"
                f"{s.ahead} ahead, {s.behind} behind, {s.uncommitted} uncommitted, "
                f"{plural(s.conflicts, 'conflict')} waiting"
                + ("\nthe last sync was interrupted: the next `sync` finishes it" if s.interrupted else "")
            )
        emit(ctx, to_json(s), text, json_flag=json_out)
