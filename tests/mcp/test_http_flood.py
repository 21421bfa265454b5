"""Issue 31 item 3: callers without a token cannot hold the HTTP server's descriptors.

The server runs with a lowered descriptor limit (RLIMIT_NOFILE 64) and a 1 s header
deadline; this test opens far more half-sent loopback requests than that limit, keeps
them open, and then a client with the token must still be served: before, the server ran
out of descriptors and exited for good.
"""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import httpx2

from tests.mcp.conftest import Env
from tests.mcp.test_http import ACCEPT, INIT, _free_port, _stop, _wait_for

LIMIT = 64
FLOOD = 300
HALF = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


def _start_limited(env: Env, port: int) -> subprocess.Popen:
    """The server with its descriptor limit lowered by the child itself, first thing: not
    by ``preexec_fn``, whose fork of this pytest worker runs grpc's fork handlers when an
    earlier Milvus test loaded grpc here (the child then aborted with "epoll_wait error:
    Bad file descriptor" before it ever ran the server)."""
    argv = env.argv("mcp", "--http", str(port))
    code = argv[2]
    assert argv[1] == "-c" and code.startswith("import sys;"), argv
    argv[2] = f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({LIMIT}, {LIMIT})); {code}"
    proc = subprocess.Popen(
        argv,
        env={**env.environ(), "MEMSEARCH_TUI_MCP_HEADER_SECONDS": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_for(port, proc)
    limits = Path(f"/proc/{proc.pid}/limits")
    if limits.exists():  # the flood below means something only under the lowered limit
        row = next(ln for ln in limits.read_text().splitlines() if ln.startswith("Max open files"))
        assert row.split()[3:5] == [str(LIMIT), str(LIMIT)], row
    return proc


def _half_open(port: int) -> socket.socket | None:
    try:
        conn = socket.create_connection(("127.0.0.1", port), timeout=5)
        conn.sendall(HALF)
        return conn
    except OSError:  # refused or reset while the server is full: that is the point
        return None


def _closed_by_server(conn: socket.socket) -> bool:
    conn.settimeout(60)
    try:
        return conn.recv(1) == b""
    except ConnectionResetError:
        return True


def test_a_half_sent_request_is_closed_after_the_header_deadline(env: Env) -> None:
    port = _free_port()
    proc = _start_limited(env, port)
    try:
        conn = _half_open(port)
        assert conn is not None and _closed_by_server(conn)  # before: no deadline, recv timed out
        conn.close()
    finally:
        _stop(proc)


def test_a_flood_of_half_sent_requests_does_not_stop_the_server(env: Env) -> None:
    port = _free_port()
    proc = _start_limited(env, port)
    flood = [c for c in (_half_open(port) for _ in range(FLOOD)) if c is not None]
    try:
        token = (env.data / "mcp-http.token").read_text().strip()
        headers = {**ACCEPT, "Authorization": f"Bearer {token}"}
        status = None
        for _ in range(120):  # the accept may pause a second after running out; sleep is no assertion
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                status = httpx2.post(f"http://127.0.0.1:{port}/mcp", json=INIT, headers=headers, timeout=30).status_code
                break
            except httpx2.TransportError:
                time.sleep(0.5)
        assert status == 200 and proc.poll() is None
    finally:
        for conn in flood:
            conn.close()
        err = _stop(proc)
    assert "Traceback" not in err and "Too many open files" not in err.replace("(Too many open files)", "")
