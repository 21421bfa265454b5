"""End to end over stdio: the SDK's own client starts `memsearch-tui mcp` and uses every tool."""

from __future__ import annotations

import json
import subprocess

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.mcp.conftest import FLY, KEY, Env

TOOLS = {
    "search",
    "read",
    "list",
    "categories",
    "remember",
    "revise",
    "forget",
    "propose",
    "proposals",
    "journal",
    "hygiene",
}


def _params(env: Env) -> StdioServerParameters:
    argv = env.argv("mcp")
    return StdioServerParameters(command=argv[0], args=argv[1:], env=env.environ(), cwd=str(env.project))


async def _call(c: Client, tool: str, args: dict) -> tuple[bool, dict | str]:
    r = await c.call_tool(tool, args)
    if r.is_error:
        return True, r.content[0].text
    return False, r.structured_content


def _session(env: Env, body) -> None:
    async def main() -> None:
        async with Client(_params(env), read_timeout_seconds=60) as c:
            await body(c)

    anyio.run(main)


def _cli(env: Env, *args: str) -> dict:
    out = subprocess.run(env.argv("--json", *args), env=env.environ(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    return json.loads(out.stdout)


def test_review_mode_every_tool_refusals_and_accept(env: Env):
    """Default mode (review): reads work, writes become proposals a person accepts with the CLI."""
    seen: dict = {}

    async def body(c: Client) -> None:
        tools = (await c.list_tools()).tools
        assert {t.name for t in tools} == TOOLS
        assert all(t.description and t.input_schema["type"] == "object" for t in tools)
        err, res = await _call(c, "search", {"query": "Fly.io", "k": 3})
        assert not err and res["strategy"] == "grep" and res["reason"]
        hit = res["hits"][0]
        assert (hit["id"], hit["title"]) == ("ops/deploy-day", "Deploy day")
        assert set(hit) >= {"path", "heading", "lines", "snippet", "score"}
        err, why = await _call(c, "search", {"query": "Fly.io", "k": 1, "explain": True})
        assert not err and why["hits"][0]["explain"]["matched"] == ["Fly.io"] and why["explain"]["terms"]
        err, doc = await _call(c, "read", {"id_or_path": hit["id"], "lines": hit["lines"]})
        assert not err and "Fly.io" in doc["text"] and doc["lines"] == hit["lines"]
        err, doc = await _call(c, "read", {"id_or_path": "PROJECT.md"})
        assert not err and "Kubernetes" in doc["text"]
        err, day = await _call(c, "read", {"id_or_path": "2026-11-29"})
        assert not err and KEY not in day["text"] and "[redacted: GitHub token]" in day["text"]
        err, j = await _call(c, "journal", {})
        assert not err and j["date"] == "2026-11-29" and KEY not in json.dumps(j)
        err, lst = await _call(c, "list", {"category": "ops"})
        assert not err and [e["id"] for e in lst["entries"]] == ["ops/deploy-day"]
        err, cats = await _call(c, "categories", {})
        assert not err and {x["name"] for x in cats["categories"]} == {"ops", "people"}
        # refusals
        err, msg = await _call(c, "remember", {"category": "misc", "title": "Key", "body": f"use {KEY}"})
        assert err and "secret" in msg and KEY not in msg
        err, msg = await _call(c, "remember", {"category": "misc", "title": "Again", "body": FLY})
        assert err and "duplicate" in msg and "ops/deploy-day" in msg
        err, msg = await _call(c, "read", {"id_or_path": "../../etc/passwd"})
        assert err and "unsafe_path" in msg and "etc/passwd" not in msg and "the given id_or_path" in msg
        err, msg = await _call(c, "read", {"id_or_path": "/etc/passwd"})
        assert (
            err and "unsafe_path" in msg and "etc/passwd" not in msg
        )  # a value not shaped like an id: named, not echoed
        err, msg = await _call(c, "forget", {"id": "ops/nope", "reason": "x"})
        assert err and "not_found" in msg
        err, msg = await _call(c, "search", {"query": "x" * 3000})
        assert err  # over the schema's maxLength
        # writes become proposals
        err, w = await _call(
            c, "remember", {"category": "misc", "title": "Shop hours", "body": "Open 9 to 18.", "reason": "user said"}
        )
        assert not err and w["action"] == "proposed" and w["proposal"]["author"].startswith("mcp:")
        seen["remember"] = w["proposal"]["id"]
        err, w = await _call(c, "revise", {"id": "ops/deploy-day", "importance": 0.9, "reason": "key fact"})
        assert not err and w["action"] == "proposed"
        err, w = await _call(c, "forget", {"id": "people/code-review", "reason": "Alice left"})
        assert not err and w["action"] == "proposed"
        seen["forget"] = w["proposal"]["id"]
        err, p = await _call(c, "propose", {"target": "USER.md", "new_text": "# User\n\nLikes tea.\n", "reason": "r"})
        assert not err and p["origin"] == "project" and p["status"] == "pending"
        err, ps = await _call(c, "proposals", {})
        assert not err and {x["kind"] for x in ps["proposals"]} == {"remember", "revise", "forget", "rewrite"}
        rr = await c.read_resource("memory://ops/deploy-day.md")
        assert "Fly.io" in rr.contents[0].text
        rr = await c.read_resource("memory://INDEX.md")
        assert "ops" in rr.contents[0].text
        with pytest.raises(Exception, match="unsafe_path|Unknown|not a file"):
            await c.read_resource("memory://.trash/INDEX.md")
        with pytest.raises(Exception):  # noqa: B017 - the SDK's error type for a rejected URI
            await c.read_resource("memory://../proj/.memsearch/PROJECT.md")
        prompt = await c.get_prompt("use-memory", {})
        assert "review" in prompt.messages[0].content.text

    _session(env, body)
    assert not (env.root / "misc").exists() and (env.root / "people" / "code-review.md").exists()
    listed = _cli(env, "proposals", "list")["data"]
    store_side = [p for p in listed["proposals"] if p["origin"] == "store"]
    assert {p["kind"] for p in store_side} == {"remember", "revise", "forget"}
    assert any(p["reason"] == "user said" for p in store_side)
    out = _cli(env, "proposals", "accept", seen["remember"])
    assert out["data"]["proposal"]["status"] == "accepted"
    assert (env.root / "misc" / "shop-hours.md").is_file()
    _cli(env, "proposals", "reject", seen["forget"])
    assert (env.root / "people" / "code-review.md").exists()
    undo = _cli(env, "undo", "--list")
    assert "mcp:" in json.dumps(undo)
    _cli(env, "undo")  # the accepted proposal is one logged operation
    assert not (env.root / "misc" / "shop-hours.md").exists()


def test_the_write_mode_cannot_be_set_on_the_command_line(env: Env):
    out = subprocess.run(env.argv("mcp", "--writes", "direct"), env=env.environ(), capture_output=True, timeout=60)
    assert out.returncode == 2


def test_direct_mode_applies_and_marks_the_client(env: Env):
    env.write_mode("direct")

    async def body(c: Client) -> None:
        err, w = await _call(c, "remember", {"category": "misc", "title": "Hours", "body": "Open 9 to 18 daily."})
        assert not err and w["action"] == "added" and w["entry"]["id"] == "misc/hours"
        err, w = await _call(
            c, "revise", {"id": "misc/hours", "body": "Open 10 to 16 daily.", "expected_version": 1, "reason": "new"}
        )
        assert not err and w["action"] == "conflict" and w["entry"]["version"] == 2
        err, msg = await _call(c, "revise", {"id": "misc/hours", "importance": 0.2, "expected_version": 1})
        assert err and "conflict" in msg
        err, w = await _call(c, "forget", {"id": "misc/hours", "reason": "closed"})
        assert not err and w["action"] == "trashed"

    _session(env, body)
    assert not (env.root / "misc" / "hours.md").exists() and list((env.root / ".trash").rglob("hours.md"))
    hist = _cli(env, "undo", "--list")
    assert any(op["by"].startswith("mcp:") for op in hist["data"]["operations"])


def test_read_only_mode_refuses_writes(env: Env):
    env.write_mode("read-only")
    (env.project / ".memsearch.toml").write_text('[tui.mcp]\nwrites = "direct"\n')  # a project cannot lift it

    async def body(c: Client) -> None:
        err, _ = await _call(c, "search", {"query": "Fly.io"})
        assert not err
        for tool, args in [
            ("remember", {"category": "misc", "title": "X", "body": "Some new fact."}),
            ("revise", {"id": "ops/deploy-day", "importance": 0.1}),
            ("forget", {"id": "ops/deploy-day", "reason": "x"}),
            ("propose", {"target": "PROJECT.md", "new_text": "# P\n", "reason": "x"}),
        ]:
            err, msg = await _call(c, tool, args)
            assert err and "read_only" in msg, (tool, msg)

    _session(env, body)
    assert (env.root / "ops" / "deploy-day.md").exists() and not (env.root / "misc").exists()
