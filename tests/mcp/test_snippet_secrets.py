"""Issue 31 item 7 over MCP: a key body line an agent searches for comes back masked in the
snippet (literal and vector search), never as the line itself."""

from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client

from memsearch_tui.mcp.server import build_server
from tests.mcp.conftest import Env
from tests.search.test_snippet_secrets import BLOCK, BODY, NEEDLE


@pytest.mark.parametrize("strategy", ["grep", "vector"])
def test_an_agent_searching_a_key_body_gets_it_masked(env: Env, strategy: str) -> None:
    path = env.root / "ops" / "deploy-notes.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("---\ntitle: Deploy notes\nstatus: active\n---\n# Deploy\n\n" + BLOCK, encoding="utf-8")
    out: list[dict] = []

    async def main() -> None:
        async with Client(build_server(env.root, env.project, writes="review")) as c:
            r = await c.call_tool("search", {"query": NEEDLE, "strategy": strategy, "k": 5})
            assert not r.is_error, r.content
            out.append(r.structured_content)

    anyio.run(main)
    hits = [h for h in out[0]["hits"] if h["id"] == "ops/deploy-notes"]
    assert hits, out
    shown = json.dumps(hits)
    assert not any(line[i : i + 12] in shown for line in BODY for i in range(0, 52, 4)), shown
    assert "[redacted: private key block]" in shown
