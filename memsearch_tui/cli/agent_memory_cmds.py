"""``agent-memory``: the memory files Claude Code and Codex load at every session.

``ls`` lists each file with its size, estimated tokens, what the host loads at start and
so what it cuts, and how many secrets it holds (a count, never the secret); files that
could not be read safely are named with why. Nothing is written.
"""

from __future__ import annotations

import typer

from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings
from memsearch_tui.engine.api.agent_memory import AgentMemoryFile, AgentMemoryListing
from memsearch_tui.engine.api.text import plural, shown


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


def _loaded(f: AgentMemoryFile) -> str:
    if f.loads == "not-measured" or f.loaded_lines is None:
        return "loaded: not measured"
    if f.loads == "on-demand":
        return "loaded: on demand"
    if f.loads == "full":
        return "loaded: all"
    return f"loaded: {f.loaded_lines} of {f.lines} lines, {f.loaded_bytes} of {f.bytes} B ({f.loads}; cut {f.cut_lines} lines)"


def render(found: AgentMemoryListing) -> str:
    """The listing for a person: one line per file, then what was skipped."""
    out = []
    for f in found.files:
        secrets = f"  {plural(f.secrets, 'secret')}" if f.secrets else ""
        out.append(
            f"{f.host:<11} {f.kind:<20} {f.lines:>6} lines {f.bytes:>8} B ~{f.tokens:>7} tokens  "
            f"{_loaded(f)}{secrets}  {shown(f.path, newlines=False)}"
        )
    if not found.files:
        out.append("no agent-memory files found")
    for s in found.skipped:
        out.append(f"skipped ({s.host} {s.kind}): {shown(s.reason, newlines=False)}")
    return "\n".join(out)
