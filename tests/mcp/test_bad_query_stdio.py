"""Issue 31 item 8 over MCP: a search whose query holds a lone surrogate (``"\\ud800"`` in the
JSON an agent sends) gets an error answer naming the problem, and the server goes on."""

from __future__ import annotations

import json
import select
import subprocess
import time

from tests.mcp.conftest import Env


def _send(proc: subprocess.Popen, raw: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(raw.encode() + b"\n")
    proc.stdin.flush()


def _answer(proc: subprocess.Popen, want: int, seconds: float = 90.0) -> dict | None:
    """The JSON-RPC answer with id ``want``, or None if none comes in ``seconds``."""
    assert proc.stdout is not None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            return None
        line = proc.stdout.readline()
        if not line:
            return None
        msg = json.loads(line)
        if msg.get("id") == want:
            return msg
    return None


def test_a_lone_surrogate_query_gets_an_error_answer_and_the_server_goes_on(env: Env) -> None:
    proc = subprocess.Popen(
        env.argv("mcp"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env.environ()
    )
    try:
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        _send(proc, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}))
        assert _answer(proc, 1) is not None
        _send(proc, json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        bad = '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", '
        bad += '"arguments": {"query": "\\ud800abc", "strategy": "index"}}}'
        _send(proc, bad)
        got = _answer(proc, 2)
        assert got is not None, "no answer to the query"
        text = json.dumps(got)
        assert got["result"]["isError"] is True and "query" in text and "unicode" in text.lower(), text
        good = {"name": "search", "arguments": {"query": "Fly.io", "strategy": "grep"}}
        _send(proc, json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": good}))
        later = _answer(proc, 3)
        assert later is not None and later["result"]["isError"] is False
    finally:
        proc.kill()
        proc.wait(timeout=30)
