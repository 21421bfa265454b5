"""The MCP ``hygiene`` tool (issue 35): read-only findings through the SDK's own client, a
kind filter, a bounded result, secrets never shown, and never the person's LLM budget."""

from __future__ import annotations

import json

import anyio
import jsonschema
from mcp import Client

from memsearch_tui.mcp.server import build_server
from tests.maintenance.llm_server import ChatServer
from tests.mcp.conftest import KEY, Env


def _entry(env: Env, entry_id: str, body: str, updated: str) -> None:
    """Written as an editor would: the store's own add refuses secrets (hygiene finds them)."""
    path = env.root / f"{entry_id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"---\ntitle: {entry_id}\nstatus: active\ncreated: 2026-10-01\nupdated: {updated}\n"
        f"version: 1\ntags: []\nrelated: []\n---\n{body}\n",
        encoding="utf-8",
    )


def _calls(env: Env, *calls: dict) -> list[tuple[bool, dict | str, dict]]:
    out = []

    async def main() -> None:
        async with Client(build_server(env.root, env.project, writes="review")) as c:
            (tool,) = [t for t in (await c.list_tools()).tools if t.name == "hygiene"]
            assert tool.annotations is not None and tool.annotations.read_only_hint is True
            for args in calls:
                r = await c.call_tool("hygiene", args)
                out.append((r.is_error, r.content[0].text if r.is_error else r.structured_content, tool.output_schema))

    anyio.run(main)
    return out


def test_findings_by_kind_bounded_and_no_secret_shown(env: Env) -> None:
    _entry(env, "ops/token", f"CI token {KEY} for the deploy bot", "2026-11-01")
    _entry(env, "ops/staging-a", "Staging resets on Monday.", "2026-10-01")
    _entry(env, "ops/staging-b", "Staging resets on Friday.", "2026-11-01")
    _entry(env, "团队/发布-a", "生产库是 PostgreSQL 15，每周一凌晨备份。", "2026-10-01")
    _entry(env, "团队/发布-b", "生产库是 PostgreSQL 16，每周一凌晨备份。", "2026-11-01")
    before = {p: p.read_bytes() for p in env.root.rglob("*.md")}
    (err, every, schema), (_, some, _), (_, one, _), (bad, why, _) = _calls(
        env, {}, {"kinds": ["contradiction"]}, {"kinds": ["contradiction"], "limit": 1}, {"limit": 10_000}
    )
    assert not err and "Traceback" not in json.dumps(every)
    jsonschema.validate(every, schema)
    assert KEY not in json.dumps(every) and every["counts"]["secret"] == 2  # the entry and the journal day
    secret = next(f for f in every["findings"] if f["kind"] == "secret" and f["ids"] == ["ops/token"])
    assert secret["evidence"] == ["GitHub token on line 10"]  # the file line: after 9 lines of frontmatter
    assert {f["kind"] for f in some["findings"]} == {"contradiction"} and some["total"] == 2
    assert [f["ids"] for f in some["findings"]] == [["ops/staging-a", "ops/staging-b"], ["团队/发布-a", "团队/发布-b"]]
    assert len(one["findings"]) == 1 and one["total"] == 2
    assert bad and "limit" in why
    assert {p: p.read_bytes() for p in env.root.rglob("*.md")} == before  # read-only


def test_an_agent_s_call_never_runs_the_llm_check(env: Env, monkeypatch) -> None:
    monkeypatch.setenv("MEMSEARCH_TUI_STATE_DIR", str(env.home / "state"))
    _entry(env, "ops/timeout-a", "The API timeout is 30", "2026-10-01")
    _entry(env, "ops/timeout-b", "The API timeout is 60", "2026-11-01")
    with ChatServer([{"content": '{"contradictions": [1]}'}]) as server:
        cfg = env.home / ".memsearch" / "config.toml"
        cfg.parent.mkdir(parents=True, exist_ok=True)
        cfg.write_text(
            f'[llm.providers.local]\ntype = "openai-compatible"\nmodel = "m"\nbase_url = "{server.base_url}"\n'
            '[tui.hygiene]\nllm_check = true\nprovider = "local"\n',
            encoding="utf-8",
        )
        ((err, res, _),) = _calls(env, {"kinds": ["contradiction"]})
    assert not err and res["total"] == 0 and server.requests == []
