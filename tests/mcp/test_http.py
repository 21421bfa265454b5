"""The same server over streamable HTTP on a free loopback port, behind a bearer token."""

from __future__ import annotations

import json
import socket
import stat
import subprocess
import time

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.mcp.conftest import Env

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}},
}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(port: int, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited early: {proc.stderr.read() if proc.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("server did not listen in time")


def _start(env: Env, port: int, *extra: str, more_env: dict[str, str] | None = None) -> subprocess.Popen:
    proc = subprocess.Popen(
        env.argv("mcp", "--http", str(port), *extra),
        env={**env.environ(), **(more_env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_for(port, proc)
    return proc


def _stop(proc: subprocess.Popen) -> str:
    """Stop the server; its stderr."""
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err


def _client(port: int, token: str) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    return Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http), read_timeout_seconds=60)


def test_http_loopback_serves_the_same_tools_and_answers_a_handshake_era_call_as_one_json_body(env: Env):
    """The SDK's client gets the stdio server's tools. A client of the initialize handshake
    (Claude Code, Codex: protocol 2025-06-18) gets each call's answer as one
    ``application/json`` body, which the spec lets a server choose and every client must
    read, instead of an SSE stream opened and closed per call (the stream cost the server a
    third more CPU per call; no tool sends progress). One server start for both."""
    port = _free_port()
    token_file = env.home / "token"
    proc = _start(env, port, "--token-file", str(token_file))
    try:
        token = token_file.read_text().strip()
        headers = {**ACCEPT, "Authorization": f"Bearer {token}"}
        url = f"http://127.0.0.1:{port}/mcp"
        with httpx2.Client(headers=headers, timeout=60) as http:
            first = http.post(url, json=INIT)
            headers = {"mcp-session-id": first.headers["mcp-session-id"], "mcp-protocol-version": "2025-06-18"}
            http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
            call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "proposals", "arguments": {}}}
            r = http.post(url, json=call, headers=headers)
        assert first.headers["content-type"].startswith("application/json"), first.headers
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json"), r.headers
        answer = json.loads(r.text)
        assert answer["id"] == 2 and answer["result"]["structuredContent"] == {"proposals": []}

        async def main() -> None:
            async with _client(port, token) as c:
                names = {t.name for t in (await c.list_tools()).tools}
                assert {"search", "remember", "forget", "proposals"} <= names
                r = await c.call_tool("search", {"query": "Fly.io"})
                assert not r.is_error and r.structured_content["hits"][0]["id"] == "ops/deploy-day"
                r = await c.call_tool("remember", {"category": "misc", "title": "Hours", "body": "Open 9 to 18."})
                assert not r.is_error and r.structured_content["action"] == "proposed"
                r = await c.call_tool("read", {"id_or_path": "../x"})
                assert r.is_error

        anyio.run(main)
        assert not (env.root / "misc").exists()  # review mode: a proposal only
    finally:
        err = _stop(proc)
    assert token in err  # printed once, when it was made


def test_http_binds_loopback_only_and_requires_the_token_and_the_exact_origin(env: Env):
    """The server listens on 127.0.0.1, not on every interface. Another local account has
    no token: 401; a page on another localhost port: 403 (one server start for both)."""
    port = _free_port()
    proc = _start(env, port)  # the default token file, in the data folder
    try:
        out = subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout
        listening = [line for line in out.splitlines() if f":{port} " in line]
        assert listening and all("127.0.0.1:" in line for line in listening), listening
        token_file = env.data / "mcp-http.token"
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        token = token_file.read_text().strip()
        assert len(token) >= 32
        url = f"http://127.0.0.1:{port}/mcp"
        tries = {
            "none": ({}, 401),
            "wrong": ({"Authorization": "Bearer " + "x" * len(token)}, 401),
            "basic": ({"Authorization": f"Basic {token}"}, 401),
            "other port": ({"Authorization": f"Bearer {token}", "Origin": f"http://localhost:{port + 1}"}, 403),
            "other host": ({"Authorization": f"Bearer {token}", "Origin": "http://evil.example"}, 403),
            "own origin": ({"Authorization": f"Bearer {token}", "Origin": f"http://localhost:{port}"}, 200),
            "no origin": ({"Authorization": f"Bearer {token}"}, 200),
            "scheme in lower case": ({"Authorization": f"bearer {token}"}, 200),  # RFC 9110: case-insensitive
            "scheme in capitals, two spaces": ({"Authorization": f"BEARER  {token}"}, 200),
            "lower case, wrong token": ({"Authorization": "bearer " + "x" * len(token)}, 401),
            "token alone": ({"Authorization": token}, 401),
        }
        for name, (headers, status) in tries.items():
            r = httpx2.post(url, json=INIT, headers={**ACCEPT, **headers}, timeout=30)
            assert r.status_code == status, (name, r.status_code, r.text)
            if status == 401:
                assert r.headers["www-authenticate"].startswith("Bearer")
                assert token not in r.text
    finally:
        _stop(proc)
    proc = _start(env, port)  # a second start reuses the token and does not print it again
    err = _stop(proc)
    assert token not in err and str(env.data / "mcp-http.token") in err


def test_http_refuses_a_token_file_others_can_read(env: Env):
    token_file = env.home / "token"
    token_file.write_text("t" * 40 + "\n")
    token_file.chmod(0o644)
    out = subprocess.run(
        env.argv("--json", "mcp", "--http", str(_free_port()), "--token-file", str(token_file)),
        env=env.environ(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert json.loads(out.stdout)["error"]["code"] == "token_file" and "chmod 600" in out.stdout


def test_http_on_a_busy_port_says_so_in_the_json_envelope(env: Env):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        out = subprocess.run(
            env.argv("--json", "mcp", "--http", str(port)),
            env=env.environ(),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    error = json.loads(out.stdout)["error"]
    assert error["code"] == "port_busy" and str(port) in error["message"]


@pytest.mark.slow
def test_http_caps_open_sessions(env: Env):
    """Sessions are capped (the 65th open session gets 503), so a flood cannot grow memory."""
    from memsearch_tui.mcp.server import MAX_SESSIONS

    port = _free_port()
    proc = _start(env, port)
    try:
        token = (env.data / "mcp-http.token").read_text().strip()
        headers = {**ACCEPT, "Authorization": f"Bearer {token}"}
        with httpx2.Client(timeout=30) as http:
            codes = [http.post(f"http://127.0.0.1:{port}/mcp", json=INIT, headers=headers).status_code
                     for _ in range(MAX_SESSIONS + 1)]  # fmt: skip
        assert codes[:MAX_SESSIONS] == [200] * MAX_SESSIONS and codes[-1] == 503
    finally:
        _stop(proc)


@pytest.mark.slow
def test_http_closes_a_session_left_idle(env: Env):
    """A session nobody uses is closed after the idle limit: its id is refused afterwards."""
    from memsearch_tui.mcp.server import IDLE_ENV

    port = _free_port()
    proc = _start(env, port, more_env={IDLE_ENV: "1"})
    try:
        token = (env.data / "mcp-http.token").read_text().strip()
        headers = {**ACCEPT, "Authorization": f"Bearer {token}"}
        url = f"http://127.0.0.1:{port}/mcp"
        with httpx2.Client(timeout=30) as http:
            first = http.post(url, json=INIT, headers=headers)
            sid = first.headers["mcp-session-id"]
            ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
            alive = http.post(url, json=ping, headers={**headers, "mcp-session-id": sid}).status_code
            time.sleep(4)
            gone = http.post(url, json=ping, headers={**headers, "mcp-session-id": sid}).status_code
        assert first.status_code == 200 and alive == 200 and gone == 404
    finally:
        _stop(proc)


def test_http_connections_send_without_waiting_for_acks():
    """Every connection the HTTP server accepts has Nagle's algorithm off (TCP_NODELAY).

    The server writes a response's headers and its body separately; with Nagle on, the
    body waited for the client's delayed ACK (~40 ms on Linux) on every MCP call. Served
    here exactly as ``mcp --http`` serves: uvicorn on the socket ``bind_loopback`` made,
    through the guarded protocol; the accepted socket's option is read as it is made."""
    import uvicorn

    from memsearch_tui.engine.api import bind_loopback
    from memsearch_tui.mcp import http_guard

    sock = bind_loopback(0)
    port = sock.getsockname()[1]
    nodelay: list[int] = []
    base = http_guard.guarded_protocol(http_guard.Pending(8, 10.0))

    class Recording(base):  # reads the option, changes nothing
        def connection_made(self, transport):
            nodelay.append(transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            super().connection_made(transport)

    async def app(scope, receive, send):
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})

    server = uvicorn.Server(uvicorn.Config(app, http=Recording, lifespan="off", log_level="warning"))

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(server.serve, [sock])
            while not server.started:
                await anyio.sleep(0.01)
            async with httpx2.AsyncClient() as http:
                assert (await http.get(f"http://127.0.0.1:{port}/")).text == "ok"
            server.should_exit = True

    anyio.run(main)
    assert nodelay and all(nodelay), nodelay
