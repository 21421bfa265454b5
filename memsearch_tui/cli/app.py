"""The root Typer app: global options, the bare command (opens the TUI), subcommand groups.

Each group of commands lives in its own module with a ``register(app)`` function, so the
store, maintenance, curator and search commands can grow independently.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import typer
from click import exceptions as click_exc  # typer < 0.25 (pyproject) raises Click's own exceptions

from memsearch_tui.cli.argv import command_word
from memsearch_tui.cli.envelope import envelope
from memsearch_tui.cli.output import Settings
from memsearch_tui.engine.api.places import default_memory_root, find_project

# Which module registers which top-level command: a run imports and builds only the group
# it needs (building every command's signature costs more than a whole `add`).
COMMAND_MODULES: dict[str, str] = {
    **dict.fromkeys(["init", "add", "show", "ls", "update", "edit", "index"], "store_cmds"),
    **dict.fromkeys(["search", "vectors"], "search_cmds"),
    **dict.fromkeys(["doctor", "proposals", "maintenance"], "maintenance_cmds"),
    "journal": "journal_cmds",
    "trust": "trust_cmds",
    **dict.fromkeys(
        ["trash", "versions", "diff", "conflicts", "import", "undo", "redo", "archive", "merge", "lifecycle", "split"],
        "curator_cmds",
    ),
    "mcp": "mcp_cmds",
    **dict.fromkeys(["install", "uninstall"], "install_cmds"),
    "sync": "sync_cmds",
    "agent-memory": "agent_memory_cmds",
    "hygiene": "hygiene_cmds",
}
ALL_MODULES = list(dict.fromkeys(COMMAND_MODULES.values()))  # help lists groups in this order


def root(
    ctx: typer.Context,
    memory_root: Path | None = typer.Option(
        None,
        "--memory-root",
        envvar="MEMSEARCH_TUI_MEMORY_ROOT",
        help="The three-tier store (default ~/memory).",
    ),
    project: Path | None = typer.Option(
        None, "--project", help="Project whose .memsearch/ to use (default: git root of cwd)."
    ),
    json_out: bool = typer.Option(False, "--json", help="JSON output for every command."),
    run_due: bool = typer.Option(False, "--run-due", help="Run due maintenance (for hooks)."),
) -> None:
    """Open the TUI when no subcommand is given."""
    root_dir = (memory_root or default_memory_root()).expanduser()
    ctx.obj = Settings(
        memory_root=root_dir.absolute(),
        project=(project.expanduser().absolute() if project else find_project()),
        json=json_out,
    )
    if ctx.invoked_subcommand is None:
        from memsearch_tui.cli.tui_launch import launch

        launch(ctx.obj)


def build_app(modules: list[str], only: str | None = None) -> typer.Typer:
    """The root Typer app with the command groups of ``modules`` registered (with ``only``:
    just that one top-level command of them)."""
    new = typer.Typer(
        name="memsearch-tui",
        help="See, search and curate what your AI coding agents remember.",
        no_args_is_help=False,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    new.callback(invoke_without_command=True)(root)
    for name in modules:
        module: ModuleType = importlib.import_module(f"{__package__}.{name}")
        module.register(new)
    if only is not None:
        _keep_only(new, only)
    return new


def _keep_only(app: typer.Typer, name: str) -> None:
    """Drop every top-level command but ``name``: Typer turns each registered command into a
    Click command (inspecting its signature) on every run, and a run only ever uses one."""
    app.registered_commands = [c for c in app.registered_commands if c.name == name]
    app.registered_groups = [g for g in app.registered_groups if g.name == name]


def modules_for(args: list[str]) -> list[str]:
    """The one command module a command line needs; all of them for help or unknown words."""
    word = command_word(args)
    if word is not None:
        module = COMMAND_MODULES.get(word)
        return [module] if module else ALL_MODULES
    return [] if "-h" not in args and "--help" not in args else ALL_MODULES


def __getattr__(name: str) -> Any:
    """``app``: the full app, for tools and tests that want every command (built on use)."""
    if name == "app":
        return build_app(ALL_MODULES)
    raise AttributeError(name)


def run(args: list[str]) -> int:
    """Run the CLI; usage errors exit 2 (as an envelope under --json), never a traceback."""
    word = command_word(args)
    app = build_app(modules_for(args), only=word if word in COMMAND_MODULES else None)
    try:
        # Without standalone mode Click returns the exit code of a typer.Exit instead of raising.
        rc = app(args=args, prog_name="memsearch-tui", standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        print("aborted", file=sys.stderr)
        return 1
    except click_exc.UsageError as exc:
        if "--json" in args:
            print(envelope(False, None, {"code": "usage", "message": exc.format_message()}))
        else:
            exc.show(file=_SafeStderr())  # type: ignore[arg-type]
        return 2
    except click_exc.ClickException as exc:
        exc.show(file=_SafeStderr())  # type: ignore[arg-type]
        return int(exc.exit_code)
    if rc == INTERRUPTED:  # Typer turns Ctrl-C into Exit(130), which Click hands back as the code
        print("memsearch-tui: interrupted", file=sys.stderr)
    return rc if isinstance(rc, int) else 0


INTERRUPTED = 130  # what a shell reports for a command ended by SIGINT


class _SafeStderr:
    """stderr for Click's usage messages: they quote argv, which may hold a secret or an
    escape sequence pasted by mistake."""

    def write(self, text: str) -> int:
        from memsearch_tui.engine.api.text import shown

        return sys.stderr.write(shown(text))

    def flush(self) -> None:
        sys.stderr.flush()
