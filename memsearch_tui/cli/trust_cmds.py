"""``trust``: the user opts one project's ``.memsearch.toml`` in (or out), from outside it.

A trusted project's file may do everything the user's own config may (choose providers,
prompts, Milvus, review); the real path is stored in ``[tui] trusted_projects`` of
``~/.memsearch/config.toml``, never in the project.
"""

from __future__ import annotations

from pathlib import Path

import typer

from memsearch_tui.cli.output import JsonOpt, emit, handles_errors


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
        from memsearch_tui.engine.core.errors import InvalidInput
        from memsearch_tui.engine.memsearch.config import home_config_path, read_toml
        from memsearch_tui.engine.memsearch.trust import real, set_trusted, trusted_list

        home_file = home_config_path()
        if list_:
            listed = trusted_list(_read_quietly(home_file, read_toml))
            emit(ctx, {"trusted": listed}, "\n".join(listed) or "no trusted projects", json_flag=json_out)
            return
        if project is None:
            raise InvalidInput("name the project to trust: memsearch-tui trust PROJECT")
        listed = set_trusted(home_file, project, trusted=not remove)
        verb = "no longer trusted" if remove else "trusted"
        emit(
            ctx,
            {"project": str(real(project)), "trusted": not remove, "config": str(home_file), "all": listed},
            f"{real(project)}: {verb} (recorded in {home_file})",
            json_flag=json_out,
        )


def _read_quietly(path: Path, read_toml) -> dict | None:
    from memsearch_tui.engine.core.errors import MemsearchError

    try:
        return read_toml(path)
    except MemsearchError:
        return None
