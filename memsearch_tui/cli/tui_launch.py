"""Open the Textual app (imported only here, so other commands never load textual)."""

from __future__ import annotations

from memsearch_tui.cli.output import Settings


def launch(settings: Settings) -> None:
    from memsearch_tui.tui.app import run_app

    run_app(memory_root=settings.memory_root, project=settings.project)
