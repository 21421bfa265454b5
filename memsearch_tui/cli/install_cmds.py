"""``install`` / ``uninstall claude-code|codex [--project|--user] [--dry-run] [--yes]``.

Install wires the hooks (``--run-due --hook …``), the MCP server registration and the
skill into the host's settings by patching their text (engine/hosts). The diff is always
shown first; without ``--yes`` a terminal asks before writing, and a pipe only gets the
diff. Uninstall takes out exactly what install added, byte for byte.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings


def _scope(project: bool, user: bool) -> str:
    if project and user:
        raise typer.BadParameter("give --project or --user, not both")
    return "user" if user else "project"


def _given(ctx: typer.Context) -> tuple[Path | None, bool]:
    """The --memory-root (or MEMSEARCH_TUI_MEMORY_ROOT) and --project the user gave, if any:
    install writes exactly those into the host's commands."""
    params = ctx.find_root().params
    s = settings(ctx)
    return (s.memory_root if params.get("memory_root") is not None else None), params.get("project") is not None


def _run(ctx: typer.Context, action: str, host: str, scope: str, dry_run: bool, yes: bool, json_out: bool) -> None:
    from memsearch_tui.engine.api import hosts, to_json

    s = settings(ctx)
    memory_root, pin_project = _given(ctx)
    planner = hosts.plan if action == "install" else hosts.plan_uninstall
    p = planner(host, scope, project=s.project, home=Path.home(), memory_root=memory_root, pin_project=pin_project)
    diff = "".join(e.diff for e in p.edits)
    json_mode = json_out or s.json
    notes = list(p.notices)
    base = {"host": host, "scope": scope, "action": action, "written": [], "removed": []}
    base |= {"notices": notes, "advice": list(p.advice)}
    if not p.edits:
        word = "already installed" if action == "install" else "nothing to remove: no file changed"
        emit(ctx, {**base, "diff": ""}, "\n".join([*notes, word, *p.advice]), json_flag=json_out)
        return
    if dry_run or not (yes or _confirm(diff, json_mode, action)):
        tail = "(dry run: nothing written)" if dry_run else "nothing written: add --yes to apply"
        text = diff + "\n".join([*notes, *(f"next: {a}" for a in p.advice), tail])
        emit(ctx, {**base, "dry_run": True, "diff": diff}, text, json_flag=json_out)
        return
    done = hosts.apply(p)
    verb = "wrote" if action == "install" else "updated"
    lines = [f"{verb} {w}" for w in done.written] + [f"removed {r}" for r in done.removed]
    lines += [f"backup  {b}" for b in done.backups] + [f"removed empty folder {d}" for d in done.folders_removed]
    lines += notes
    if action == "install":
        lines += [f"next: {a}" for a in p.advice]
        lines.append(f"undo with: memsearch-tui uninstall {host} --{scope}")
    emit(ctx, to_json(done), "\n".join(lines), json_flag=json_out)


def _confirm(diff: str, json_mode: bool, action: str) -> bool:
    """Show the diff and ask on a terminal; anywhere else, write nothing without --yes."""
    if json_mode or not sys.stdin.isatty():
        return False
    print(diff, end="")
    return typer.confirm(f"{action} these changes?", default=False)


def register(app: typer.Typer) -> None:
    host_arg = typer.Argument(..., metavar="claude-code|codex", help="The agent host to wire up.")
    project_opt = typer.Option(False, "--project", help="This project's settings (default).")
    user_opt = typer.Option(False, "--user", help="Your user-wide settings.")
    dry_run_opt = typer.Option(False, "--dry-run", help="Print the diff only.")
    yes_opt = typer.Option(False, "--yes", "-y", help="Write without asking.")

    @app.command("install")
    @handles_errors
    def install(
        ctx: typer.Context,
        host: str = host_arg,
        project: bool = project_opt,
        user: bool = user_opt,
        dry_run: bool = dry_run_opt,
        yes: bool = yes_opt,
        json_out: bool = JsonOpt,
    ) -> None:
        """Add memsearch-tui's hooks, MCP server and skill to Claude Code or Codex (diff first)."""
        _run(ctx, "install", host, _scope(project, user), dry_run, yes, json_out)

    @app.command("uninstall")
    @handles_errors
    def uninstall(
        ctx: typer.Context,
        host: str = host_arg,
        project: bool = project_opt,
        user: bool = user_opt,
        dry_run: bool = dry_run_opt,
        yes: bool = yes_opt,
        json_out: bool = JsonOpt,
    ) -> None:
        """Take out exactly what `install` added (restores the backup if the file is unchanged)."""
        _run(ctx, "uninstall", host, _scope(project, user), dry_run, yes, json_out)
