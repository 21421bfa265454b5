"""Open the Textual app (imported only here, so other commands never load textual)."""

from __future__ import annotations

from memsearch_tui.cli.output import Settings


def launch(settings: Settings) -> None:
    import os

    from memsearch_tui.tui.app import run_app

    os.environ["MEMSEARCH_TUI_FACE"] = "tui"  # history/txn.FACE_ENV: the undo history says which changes the app made
    # gRPC's C core logs to fd 2, over the app's screen: a Milvus Lite connection idle for
    # two minutes (the app keeps the index it built at open) gets "GOAWAY … too_many_pings"
    # written across the top rows. Its errors still reach the app as exceptions.
    os.environ.setdefault("GRPC_VERBOSITY", "NONE")

    run_app(memory_root=settings.memory_root, project=settings.project)
