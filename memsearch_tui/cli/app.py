"""The root Typer app: global options, the bare command (opens the TUI), subcommand groups.

Each group of commands lives in its own module with a ``register(app)`` function, so the
store, maintenance, curator and search commands can grow independently.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

try:  # Typer >= 0.25 vendors Click and raises its own copies of Click's exceptions.
    from typer._click import exceptions as click_exc
except ImportError:  # pragma: no cover - older Typer on real Click
    from click import exceptions as click_exc

from ..engine.project import default_memory_root, find_project
from . import curator_cmds, maintenance_cmds, search_cmds, store_cmds
from .output import Settings, envelope

app = typer.Typer(
    name="memsearch-tui",
    help="See, search and curate what your AI coding agents remember.",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback(invoke_without_command=True)
def root(
    ctx: typer.Context,
    memory_root: Optional[Path] = typer.Option(
        None,
        "--memory-root",
        envvar="MEMSEARCH_TUI_MEMORY_ROOT",
        help="The three-tier store (default ~/memory).",
    ),
    project: Optional[Path] = typer.Option(
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
        from .tui_launch import launch

        launch(ctx.obj)


for module in (store_cmds, search_cmds, maintenance_cmds, curator_cmds):
    module.register(app)


def run(args: list[str]) -> int:
    """Run the CLI; usage errors exit 2 (as an envelope under --json), never a traceback."""
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
            exc.show()
        return 2
    except click_exc.ClickException as exc:
        exc.show()
        return exc.exit_code
    return rc if isinstance(rc, int) else 0
