"""Build and run the memsearch-tui MCP server (stdio, or streamable HTTP on loopback).

The server is a thin layer: every tool calls one method of
:class:`memsearch_tui.engine.api.Memory` and returns ``to_json`` of its dataclass result.
The write policy (``[tui.mcp] writes`` in ``~/.memsearch/config.toml``) is read once at
start; neither a flag nor a project file can change it.
"""

from __future__ import annotations

from pathlib import Path

from mcp.server.mcpserver import MCPServer

from memsearch_tui import __version__
from memsearch_tui.engine.api import Memory, mcp_writes
from memsearch_tui.mcp import prompt, resources, tools

INSTRUCTIONS = (
    "memsearch-tui: the user's long-term memory for coding agents. `search` before answering "
    "questions about past work, decisions or preferences; `read` a hit for its full text; "
    "`remember` durable facts (one topic per entry; `search` first so you revise instead of "
    "duplicating). Writes may wait for a person's review: the result says so."
)


def build_server(memory_root: Path, project: Path, *, writes: str | None = None) -> MCPServer:
    """An MCPServer bound to one memory root and project (``writes``: tests only)."""
    memory = Memory(memory_root, project, writes=writes or mcp_writes(), refresh_behind=True, agent=True)
    server = MCPServer(
        "memsearch-tui",
        instructions=INSTRUCTIONS + f" Write mode: {memory.writes}.",
        version=__version__,
        log_level="WARNING",
    )
    tools.register(server, memory)
    resources.register(server, memory)
    prompt.register(server, memory)
    return server


def serve(memory_root: Path, project: Path, *, http_port: int | None = None) -> None:
    """Run until the client goes away (stdio EOF) or, with ``http_port``, until interrupted."""
    server = build_server(memory_root, project)
    if http_port is None:
        server.run()
    else:
        server.run("streamable-http", host="127.0.0.1", port=http_port)
