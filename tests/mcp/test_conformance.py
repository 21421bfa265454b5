"""MCP conformance (issue 20.5): the error codes the spec names, real output schemas, closed
input schemas, no tracebacks, no argument values echoed. The SDK's own client, in process."""

from __future__ import annotations

import anyio
import jsonschema
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from memsearch_tui.mcp.server import build_server
from tests.mcp.conftest import KEY, Env


def _with_client(env: Env, body, writes: str = "review") -> None:
    async def main() -> None:
        async with Client(build_server(env.root, env.project, writes=writes)) as c:
            await body(c)

    anyio.run(main)


def test_unknown_tool_prompt_and_resource_are_json_rpc_errors(env: Env, capfd: pytest.CaptureFixture[str]):
    codes: dict[str, int] = {}

    async def body(c: Client) -> None:
        for name, call in {
            "tool": lambda: c.call_tool("no-such-tool", {}),
            "prompt": lambda: c.get_prompt("no-such-prompt"),
            "trash": lambda: c.read_resource("memory://.trash/ops/deploy-day.md"),
            "versions": lambda: c.read_resource("memory://.versions/ops/deploy-day/v1.md"),
            "missing": lambda: c.read_resource("memory://ops/no-such-entry.md"),
        }.items():
            with pytest.raises(MCPError) as info:
                await call()
            codes[name] = info.value.code

    _with_client(env, body)
    assert codes == {"tool": -32602, "prompt": -32602, "trash": -32002, "versions": -32002, "missing": -32002}
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "╭" not in err


def test_bad_and_unknown_arguments_are_refused_without_echoing_values(env: Env, capfd: pytest.CaptureFixture[str]):
    texts: dict[str, str] = {}

    async def body(c: Client) -> None:
        for name, args in {
            "unknown": {"query": "deploy", "limit": 3},
            "wrong type": {"query": "deploy", "k": KEY},
            "missing": {"k": 3},
            "too long": {"query": KEY + "x" * 3000},
        }.items():
            r = await c.call_tool("search", args)
            assert r.is_error, name
            texts[name] = r.content[0].text

    _with_client(env, body)
    assert "unknown argument" in texts["unknown"] and "'limit'" in texts["unknown"]
    assert texts["wrong type"].startswith("invalid: k:") and "query: Field required" in texts["missing"]
    assert all(KEY not in t and "ghp_" not in t for t in texts.values()), texts
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and KEY not in out + err


def test_every_tool_declares_its_shapes_and_its_results_validate(env: Env):
    """Every input property has a description, no tool takes undeclared arguments, and the
    structured result of every tool validates against the outputSchema it declares."""
    checked: set[str] = set()

    async def body(c: Client) -> None:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        for t in tools.values():
            assert t.input_schema.get("additionalProperties") is False, t.name
            props = t.input_schema.get("properties", {})
            assert all(p.get("description") for p in props.values()), (t.name, props)
            assert t.output_schema and t.output_schema.get("properties"), t.name
        calls = [
            ("search", {"query": "Fly.io"}),
            ("read", {"id_or_path": "ops/deploy-day"}),
            ("read", {"id_or_path": "2026-11-29"}),
            ("list", {}),
            ("categories", {}),
            ("journal", {}),
            (
                "remember",
                {"category": "misc", "title": "Office hours", "body": "Open 9 to 18 on weekdays.", "reason": "r"},
            ),
            ("revise", {"id": "people/code-review", "tags": ["review", "db"], "reason": "tag it"}),
            ("forget", {"id": "ops/deploy-day", "reason": "obsolete"}),
            (
                "propose",
                {"target": "PROJECT.md", "new_text": "# Project\n\nThe shop runs on Nomad.\n", "reason": "moved"},
            ),
            ("proposals", {"status": "all"}),
            ("hygiene", {"kinds": ["secret", "stale"], "limit": 5}),
        ]
        for name, args in calls:
            r = await c.call_tool(name, args)
            assert not r.is_error, (name, r.content)
            jsonschema.validate(r.structured_content, tools[name].output_schema)
            checked.add(name)

    _with_client(env, body)
    assert checked == {
        "search",
        "read",
        "list",
        "categories",
        "journal",
        "remember",
        "revise",
        "forget",
        "propose",
        "proposals",
        "hygiene",
    }
