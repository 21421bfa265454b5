"""Issue 31 item 3: an MCP error names entries by id, never the store's absolute path."""

from __future__ import annotations

from pathlib import Path

import anyio
from mcp import Client

from memsearch_tui.engine.api.agent_text import without_places
from memsearch_tui.mcp.server import build_server
from tests.mcp.conftest import Env


def _errors(env: Env, calls: list[tuple[str, dict]]) -> list[str]:
    server = build_server(env.root, env.project, writes="direct")
    texts: list[str] = []

    async def main() -> None:
        async with Client(server) as c:
            for tool, args in calls:
                r = await c.call_tool(tool, args)
                assert r.is_error, (tool, args)
                texts.append(r.content[0].text)

    anyio.run(main)
    return texts


def test_tool_errors_name_the_entry_by_id_and_no_folder(env: Env) -> None:
    (env.root / "ops" / "broken.md").write_text("---\ntitle: [unclosed\n---\nbody\n", encoding="utf-8")
    (env.root / "ops" / "binary.md").write_bytes(b"---\ntitle: x\n---\n\xff\xfe\n")
    texts = _errors(
        env,
        [
            ("read", {"id_or_path": "ops/broken"}),
            ("revise", {"id": "ops/broken", "body": "x"}),
            ("read", {"id_or_path": "ops/binary"}),
            ("read", {"id_or_path": "ops/nope"}),
            ("list", {"category": "nope"}),
        ],
    )
    for text in texts:
        assert str(env.root) not in text and str(env.root.parent) not in text, text
    assert "ops/broken: line 3 malformed YAML" in texts[0] and "ops/broken:" in texts[1]
    assert "ops/binary: not valid UTF-8" in texts[2]
    assert "no entry 'ops/nope' in the memory store" in texts[3]


def test_journal_days_are_named_by_date_and_home_as_tilde(tmp_path: Path) -> None:
    root, project, home = tmp_path / "memory", tmp_path / "home" / "proj", tmp_path / "home"
    said = without_places(
        f"{project}/.memsearch/memory/2026-11-29.md: not valid UTF-8; see {root}/ops/x.md and {home}/.memsearch/config.toml",
        root,
        project,
        home,
    )
    assert said == "2026-11-29: not valid UTF-8; see ops/x and ~/.memsearch/config.toml"
