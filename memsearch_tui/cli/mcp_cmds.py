"""``memsearch-tui mcp [--http PORT]``: serve the memory to agents over MCP.

The MCP SDK is imported inside the command (it costs ~0.7 s); stdout belongs to the
JSON-RPC stream, so nothing here prints on the stdio path.
"""

from __future__ import annotations

from pathlib import Path

import typer

from memsearch_tui.cli.output import handles_errors, settings


def register(app: typer.Typer) -> None:
    @app.command("mcp")
    @handles_errors
    def mcp_cmd(
        ctx: typer.Context,
        http: int | None = typer.Option(
            None, "--http", min=1, max=65535, metavar="PORT", help="Serve streamable HTTP on 127.0.0.1:PORT/mcp."
        ),
        token_file: Path | None = typer.Option(
            None,
            "--token-file",
            metavar="FILE",
            help="With --http: the bearer token file (made 0600 on first use; default in the data folder).",
        ),
    ) -> None:
        """MCP server for agents (stdio; --http PORT for loopback HTTP with a bearer token). Agent writes follow tui.mcp.writes in ~/.memsearch/config.toml."""
        from memsearch_tui.mcp.server import serve  # the SDK loads only for this command

        s = settings(ctx)
        serve(s.memory_root, s.project, http_port=http, token_file=token_file)
