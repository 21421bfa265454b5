"""The same server over streamable HTTP on a free loopback port."""

from __future__ import annotations

import socket
import subprocess
import time

import anyio
from mcp import Client

from tests.mcp.conftest import Env


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


def test_http_loopback_serves_the_same_tools(env: Env):
    port = _free_port()
    proc = subprocess.Popen(
        env.argv("mcp", "--http", str(port)),
        env=env.environ(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for(port, proc)

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as c:
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
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_http_binds_loopback_only(env: Env):
    """The server listens on 127.0.0.1, not on every interface."""
    port = _free_port()
    proc = subprocess.Popen(env.argv("mcp", "--http", str(port)), env=env.environ(), stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(port, proc)
        out = subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout
        listening = [line for line in out.splitlines() if f":{port} " in line]
        assert listening and all("127.0.0.1:" in line for line in listening), listening
    finally:
        proc.terminate()
        proc.wait(timeout=10)
