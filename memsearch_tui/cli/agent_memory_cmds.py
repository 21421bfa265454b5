"""``agent-memory``: the memory files Claude Code and Codex load at every session.

``ls`` lists each file with its size, estimated tokens, what the host loads at start and
so what it cuts, and how many secrets it holds (a count, never the secret); files that
could not be read safely are named with why. Nothing is written.
"""

from __future__ import annotations

import typer

from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings
from memsearch_tui.engine.api import Proposal
from memsearch_tui.engine.api.agent_memory import AgentMemoryFile, AgentMemoryListing
from memsearch_tui.engine.api.errors import InvalidInput
from memsearch_tui.engine.api.text import plural, printable, shown


def register(app: typer.Typer) -> None:
    """Add the ``agent-memory`` group to the root app."""
    sub = typer.Typer(help="The memory files Claude Code and Codex load: list and measure them.", no_args_is_help=True)
    app.add_typer(sub, name="agent-memory")

    @sub.command("ls")
    @handles_errors
    def ls(ctx: typer.Context, json_out: bool = JsonOpt) -> None:
        """One row per file: host, kind, lines, bytes, tokens (bytes / 4), what the host loads at start, secrets."""
        with settings(ctx).memory() as mem:
            found = mem.agent_memory.ls()
        emit(ctx, found, render(found), json_flag=json_out)

    @sub.command("diff")
    @handles_errors
    def diff(
        ctx: typer.Context,
        path: str = typer.Argument(..., metavar="PATH", help="An agent-memory file, as `agent-memory ls` names it."),
        since: str | None = typer.Option(None, "--since", metavar="VERSION", help="Compare with this kept version."),
        json_out: bool = JsonOpt,
    ) -> None:
        """What changed in PATH since you last marked it seen (secrets masked)."""
        with settings(ctx).memory() as mem:
            d = mem.agent_memory.diff(path, since)
        head = f"{shown(d.path, newlines=False)}: {d.since or 'never reviewed'} → {d.now}, +{d.added} -{d.removed}"
        emit(ctx, d, head + ("\n" + printable(d.diff.rstrip("\n")) if d.diff else "\nno change"), json_flag=json_out)

    @sub.command("seen")
    @handles_errors
    def seen(
        ctx: typer.Context,
        paths: list[str] = typer.Argument(None, metavar="PATH...", help="Agent-memory files to mark reviewed."),
        all_: bool = typer.Option(False, "--all", help="Mark every agent-memory file reviewed."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Mark PATH (or --all) reviewed as it is now: the next diff starts here."""
        if not paths and not all_:
            raise InvalidInput("agent-memory seen: name a PATH or give --all")
        with settings(ctx).memory() as mem:
            done = mem.agent_memory.seen(None if all_ else list(paths))
        text = "\n".join(f"seen {v.version}  {shown(v.path, newlines=False)}" for v in done) or "nothing to mark"
        emit(ctx, done, text, json_flag=json_out)

    @sub.command("history")
    @handles_errors
    def history(
        ctx: typer.Context,
        path: str = typer.Argument(..., metavar="PATH", help="An agent-memory file."),
        json_out: bool = JsonOpt,
    ) -> None:
        """The kept versions of PATH: version, time, size, lines, the session that changed it; * marks the one last seen."""
        with settings(ctx).memory() as mem:
            rows = mem.agent_memory.history(path)
        text = "\n".join(
            f"{'*' if v.seen else ' '} {v.version}  {v.time}  {v.bytes:>8} B {v.lines:>6} lines"
            + (f"  session {v.session}" if v.session else "")
            for v in rows
        )
        emit(ctx, rows, text, json_flag=json_out)

    @sub.command("prune")
    @handles_errors
    def prune(
        ctx: typer.Context,
        path: str = typer.Argument(..., metavar="PATH", help="An agent-memory file, as `agent-memory ls` names it."),
        lines: str = typer.Option(..., "--lines", metavar="A[-B]", help="The lines to remove (from 1, inclusive)."),
        reason: str = typer.Option(..., "--reason", help="Why (kept with the proposal)."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Propose removing lines A-B of PATH; nothing changes before `proposals accept ID`."""
        with settings(ctx).memory() as mem:
            made = mem.agent_memory.prune(path, lines, reason)
        emit(ctx, made, _proposed(made), json_flag=json_out)

    @sub.command("edit")
    @handles_errors
    def edit(
        ctx: typer.Context,
        path: str = typer.Argument(..., metavar="PATH", help="An agent-memory file."),
        reason: str = typer.Option("", "--reason", help="Why (kept with the proposal)."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Edit a copy of PATH in $EDITOR and propose the result; nothing changes before `proposals accept ID`."""
        import subprocess

        with settings(ctx).memory() as mem:
            made = mem.agent_memory.edit(path, subprocess.call, reason)
        emit(ctx, made, "no change: nothing proposed" if made is None else _proposed(made), json_flag=json_out)

    @sub.command("restore")
    @handles_errors
    def restore(
        ctx: typer.Context,
        path: str = typer.Argument(..., metavar="PATH", help="An agent-memory file."),
        version: str = typer.Argument(..., metavar="VERSION", help="A kept version (see `agent-memory history`)."),
        reason: str = typer.Option("", "--reason", help="Why (kept with the proposal)."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Propose putting back a kept version of PATH; nothing changes before `proposals accept ID`."""
        with settings(ctx).memory() as mem:
            made = mem.agent_memory.restore(path, version, reason)
        emit(ctx, made, _proposed(made), json_flag=json_out)

    @sub.command("purge")
    @handles_errors
    def purge(ctx: typer.Context, json_out: bool = JsonOpt) -> None:
        """Delete every kept version of the agent-memory files (the files themselves stay)."""
        with settings(ctx).memory() as mem:
            n = mem.agent_memory.purge()
        emit(ctx, {"purged": n}, f"purged {plural(n, 'kept version')}", json_flag=json_out)


def _proposed(p: Proposal) -> str:
    return f"{p.id}\nproposed for {shown(p.target, newlines=False)}: review with `proposals diff {p.id}`, then `proposals accept {p.id}`"


def _loaded(f: AgentMemoryFile) -> str:
    if f.loads == "not-measured" or f.loaded_lines is None:
        return "loaded: not measured"
    if f.loads == "on-demand":
        return "loaded: on demand"
    if f.loads == "off":
        return "loaded: no (auto memory is off)"
    if f.loads == "full":
        return "loaded: all"
    return f"loaded: {f.loaded_lines} of {f.lines} lines, {f.loaded_bytes} of {f.bytes} B ({f.loads}; cut {f.cut_lines} lines)"


def render(found: AgentMemoryListing) -> str:
    """The listing for a person: one line per file, then what was skipped."""
    out = []
    for f in found.files:
        secrets = f"  {plural(f.secrets, 'secret')}" if f.secrets else ""
        if f.unreviewed_added or f.unreviewed_removed:
            secrets += f"  unreviewed +{f.unreviewed_added} -{f.unreviewed_removed}"
        out.append(
            f"{f.host:<11} {f.kind:<20} {f.lines:>6} lines {f.bytes:>8} B ~{f.tokens:>7} tokens  "
            f"{_loaded(f)}{secrets}  {shown(f.path, newlines=False)}"
        )
    if not found.files:
        out.append("no agent-memory files found")
    if found.auto_memory_off:
        out.append(f"Claude Code auto memory is not loaded: {shown(found.auto_memory_off, newlines=False)}")
    for s in found.skipped:
        out.append(f"skipped ({s.host} {s.kind}): {shown(s.reason, newlines=False)}")
    return "\n".join(out)
