"""Command-line face of the engine: ``memsearch-tui`` and its subcommands.

``main`` keeps two paths light: ``--run-due`` (the hook) and ``search --strategy grep``
(a literal search meant to beat ``grep -ri``) are dispatched before Typer (and the rich
help machinery it pulls in) is imported.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "--run-due" in args:
        from .run_due import main as run_due_main

        raise SystemExit(run_due_main(args))
    if "search" in args:
        from .search_fast import main as search_fast_main

        rc = search_fast_main(args)
        if rc is not None:
            raise SystemExit(rc)
    from .app import run

    raise SystemExit(run(args))
