"""``trust``: the user opts one project's ``.memsearch.toml`` in (or out), from outside it.

A trusted project's file may do everything the user's own config may (choose providers,
prompts, Milvus, review); the real path is stored in ``[tui] trusted_projects`` of
``~/.memsearch/config.toml``, never in the project.
"""

from __future__ import annotations

from pathlib import Path

import typer

from memsearch_tui.cli.output import JsonOpt, emit, handles_errors, settings


def register(app: typer.Typer) -> None:
    @app.command("trust")
    @handles_errors
    def trust_cmd(
        ctx: typer.Context,
        project: Path | None = typer.Argument(None, metavar="PROJECT", help="The project folder to trust."),
        remove: bool = typer.Option(False, "--remove", help="Stop trusting PROJECT."),
        list_: bool = typer.Option(False, "--list", help="List the trusted projects."),
        json_out: bool = JsonOpt,
    ) -> None:
        """Let PROJECT's .memsearch.toml choose providers, prompts, Milvus and review (run it from outside PROJECT)."""
        config = settings(ctx).memory().config
        if list_:
            listed = config.trusted()
            emit(ctx, {"trusted": listed}, "\n".join(listed) or "no trusted projects", json_flag=json_out)
            return
        done = config.trust(project, trusted=not remove)
        verb = "no longer trusted" if remove else "trusted"
        emit(ctx, done, f"{done.project}: {verb} (recorded in {done.config})", json_flag=json_out)
