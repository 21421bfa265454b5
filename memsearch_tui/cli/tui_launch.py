"""Open the Textual app (imported only here, so other commands never load textual)."""

from __future__ import annotations

from memsearch_tui.cli.output import Settings


def launch(settings: Settings) -> None:
    import os

    from memsearch_tui.tui.app import run_app

    os.environ["MEMSEARCH_TUI_FACE"] = "tui"  # history/txn.FACE_ENV: the undo history says which changes the app made

    run_app(memory_root=settings.memory_root, project=settings.project)
