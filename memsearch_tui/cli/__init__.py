"""Command-line face of the engine: ``memsearch-tui`` and its subcommands.

``main`` keeps two paths light: ``--run-due`` (the hook) and ``search --strategy grep``
(a literal search meant to beat ``grep -ri``) are dispatched before Typer (and the rich
help machinery it pulls in) is imported.
"""

from __future__ import annotations

import os
import sys

from memsearch_tui.cli.argv import command_word, is_hook


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    _report_config_on_stderr()
    try:
        if is_hook(args):
            from memsearch_tui.cli.run_due import main as run_due_main

            raise SystemExit(run_due_main(args))
        if command_word(args) == "search":
            from memsearch_tui.cli.search_fast import main as search_fast_main

            rc = search_fast_main(args)
            if rc is not None:
                _exit_now(rc)
        from memsearch_tui.cli.app import run

        raise SystemExit(run(args))
    except BrokenPipeError:  # `| head`: the reader left early; exit 1 quietly, as Click does
        _exit_now(1)


def _report_config_on_stderr() -> None:
    """Ignored project-config keys and disabled sections go to stderr, once per message."""
    from memsearch_tui.engine.core.notices import set_reporter

    def report(message: str) -> None:
        clean = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
        print(f"memsearch-tui: config: {clean}", file=sys.stderr)

    set_reporter(report)


def _exit_now(rc: int) -> None:
    """Flush and leave without the interpreter's teardown (~5 ms of a literal search that
    races grep): the search has closed its database; nothing else is open."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            pass
    os._exit(rc)
