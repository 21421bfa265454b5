"""Build and run the memsearch-tui MCP server (stdio, or streamable HTTP on loopback).

The server is a thin layer: every tool calls one method of
:class:`memsearch_tui.engine.api.Memory` and returns ``to_json`` of its dataclass result.
The write policy (``[tui.mcp] writes`` in ``~/.memsearch/config.toml``) is read once at
start; neither a flag nor a project file can change it.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import anyio
from mcp.server.mcpserver import MCPServer

from memsearch_tui import __version__
from memsearch_tui.engine.api import HttpToken, Memory, allowed_origins, bind_loopback, http_token, mcp_writes
from memsearch_tui.mcp import heap_watch, prompt, resources, tools
from memsearch_tui.mcp.conformance import ConformantServer
from memsearch_tui.mcp.http_gate import BearerGate

SESSION_IDLE_SECONDS = 600.0  # an HTTP session nobody used for 10 minutes is closed
IDLE_ENV = "MEMSEARCH_TUI_MCP_IDLE_SECONDS"  # a shorter (or longer) idle limit: 1 s to 1 day
MAX_SESSIONS = 64  # agents of one user; more is a leak or an attack (503 while full)

INSTRUCTIONS = (
    "memsearch-tui: the user's long-term memory for coding agents. `search` before answering "
    "questions about past work, decisions or preferences; `read` a hit for its full text; "
    "`remember` durable facts (one topic per entry; `search` first so you revise instead of "
    "duplicating). Writes may wait for a person's review: the result says so."
)


def build_server(memory_root: Path, project: Path, *, writes: str | None = None) -> MCPServer:
    """An MCPServer bound to one memory root and project (``writes``: tests only)."""
    memory = Memory(memory_root, project, writes=writes or mcp_writes(), refresh_behind=True, agent=True, share=True)
    server = ConformantServer(
        "memsearch-tui",
        instructions=INSTRUCTIONS + f" Write mode: {memory.writes}.",
        version=__version__,
        log_level="WARNING",
    )
    tools.register(server, memory)
    resources.register(server, memory)
    prompt.register(server, memory)
    return server


def serve(memory_root: Path, project: Path, *, http_port: int | None = None, token_file: Path | None = None) -> None:
    """Run until the client goes away (stdio EOF) or, with ``http_port``, until interrupted."""
    one_blas_thread()
    if os.environ.get(heap_watch.HEAP_ENV):  # a debugging aid: tracing slows every allocation
        heap_watch.start()
    if http_port is None:
        build_server(memory_root, project).run()
        return
    sock = bind_loopback(http_port)  # a busy port is a clear error before anything starts
    token = http_token(token_file)
    server = build_server(memory_root, project)
    anyio.run(_serve_http, server, sock, token)


def one_blas_thread() -> None:
    """Have OpenBLAS start with one thread, before numpy loads (the first search loads it).

    Every BLAS call of a search runs on one thread anyway (the query's forward pass and
    the vector scan: a second thread only spins, :mod:`..engine.search.embeddings`), and so
    does an index run's (one thread per batch, a batch per core). Pinned at load, neither
    needs threadpoolctl to limit it: building its controller (a scan of every loaded
    library, many in this process) and switching OpenBLAS's thread count twice a call cost
    a warm search ~2–4 ms of its critical path. A value the user set is kept."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _idle_seconds() -> float:
    """The idle limit of an HTTP session: ``$MEMSEARCH_TUI_MCP_IDLE_SECONDS`` within 1 s to a
    day (anything else: the default), so a test can watch a session expire."""
    try:
        value = float(os.environ.get(IDLE_ENV, ""))
    except ValueError:
        return SESSION_IDLE_SECONDS
    return value if 1.0 <= value <= 86400.0 else SESSION_IDLE_SECONDS


async def _serve_http(server: MCPServer, sock: socket.socket, token: HttpToken) -> None:
    """Streamable HTTP behind :class:`BearerGate`, idle sessions closed, sessions capped."""
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    from memsearch_tui.mcp import http_guard  # imports uvicorn

    port = sock.getsockname()[1]
    origins = allowed_origins(port)
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"127.0.0.1:{port}", f"localhost:{port}"],
        allowed_origins=origins,
    )
    # json_response: a call's answer is one JSON body, not an SSE stream opened per call (the
    # spec lets the server choose; clients read both). No tool streams progress, and the
    # stream cost a third more server CPU per call. The session's own GET stream stays.
    app = server.streamable_http_app(
        transport_security=security,
        session_idle_timeout=_idle_seconds(),
        max_sessions=MAX_SESSIONS,
        json_response=True,
    )
    if token.created:  # printed once, on stderr (stdout is no JSON-RPC stream here, but stays clean)
        print(f"memsearch-tui mcp: new bearer token (kept in {token.path}): {token.value}", file=sys.stderr)
    print(f"memsearch-tui mcp: http://127.0.0.1:{port}/mcp (bearer token in {token.path})", file=sys.stderr)
    http_guard.keep_serving_when_out_of_files(asyncio.get_running_loop(), sys.stderr.write)
    pending = http_guard.Pending(http_guard.pending_cap(), http_guard.header_seconds())
    config = uvicorn.Config(
        BearerGate(app, token.value, origins),
        log_level="warning",
        lifespan="on",
        http=http_guard.guarded_protocol(pending),
        backlog=http_guard.BACKLOG,
    )
    await uvicorn.Server(config).serve(sockets=[sock])
