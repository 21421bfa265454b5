"""The Maintenance pane's proposal head draws a proposal file's words as untrusted text.

A proposal is a JSON file in the project's ``.memsearch/proposals`` (a cloned repository
can ship one) and its reason is an LLM's answer: either can hold a token or a terminal
escape. The head appended the reason raw (a token shown whole, where ``proposals show``
and the Notes pane mask it) and the author's platform raw in its prefix (an OSC title
sequence reached the terminal and ate the rest of the line)."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, settle, shown
from tests.tui.home_demo import home_demo  # noqa: F401 (fixture)

KEY = "glpat-" + "xY3kP9mQ2rT7vW1zB4nC"  # a GitLab token (built in two parts)
PIECE = "xY3kP9mQ2rT7"  # what must never be drawn
PID = "20261201-000000-hostile"


@pytest.mark.slow
def test_a_hostile_proposal_reason_and_author_are_masked_and_escaped(home_demo):  # noqa: F811
    root, project = home_demo
    folder = project / ".memsearch" / "proposals"
    template = next(p for p in sorted(folder.glob("*.json")) if json.loads(p.read_text())["status"] == "pending")
    data = json.loads(template.read_text(encoding="utf-8"))
    data |= {"id": PID, "platform": "claude-code\x1b]0;pwned", "reason": f"部署令牌 {KEY} \x1b[2J [/b] done"}
    (folder / f"{PID}.json").write_text(json.dumps(data), encoding="utf-8")

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SNAPSHOT_SIZES["120x36"]) as pilot:
            await settle(pilot)
            await pilot.press("5")
            await settle(pilot)
            app.query_one("#pane-maintenance")._show(f"p:{PID}")
            await pilot.pause(0.05)
            head = shown(app.query_one("#proposal-head"))
            assert "部署令牌" in head and "[/b] done" in head, head
            assert PIECE not in head and "[redacted" in head, head
            assert "\x1b" not in head and "\\x1b]0;pwned" in head, head
            assert app.errors == []

    asyncio.run(flow())
