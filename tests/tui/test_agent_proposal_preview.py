"""The Maintenance pane shows an agent's proposal whole: no tail past a preview length
that accept would write unseen, and a field-only revise as its fields (issue 19.4)."""

from __future__ import annotations

import pytest
from rich.console import Console

from memsearch_tui.engine.api import Memory
from tests.helpers import settle

pytestmark = pytest.mark.slow  # starts the whole app

TAIL = "HIDDEN-TAIL-7Q: the canary flag must be on."


def _plain(renderable) -> str:
    console = Console(record=True, width=200, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_preview_holds_the_whole_body_and_the_changed_fields(demo, drive):
    root, project = demo
    agent = Memory(root, project, writes="review", actor="mcp:probe")
    body = "\n".join(f"Step {i}: a line of the long how-to." for i in range(400)) + "\n" + TAIL
    rem = agent.entries.add("misc", "Long how-to", body, reason="long").proposal
    entry = agent.entries.list()[0]
    rev = agent.entries.update(entry.id, tags=["retagged"], reason="tags only").proposal
    assert rem and rev and len(body) > 4000

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        plist = app.query_one("#proposals")
        diff = app.query_one("#proposal-diff")
        diff.mode = "unified"
        plist.highlighted = [o.id for o in plist.options].index(f"s:{rem.id}")
        await pilot.pause()
        assert TAIL in _plain(diff.content)
        plist.highlighted = [o.id for o in plist.options].index(f"s:{rev.id}")
        await pilot.pause()
        head = _plain(app.query_one("#proposal-head").content)
        assert "tags:" in head and "retagged" in head and "the body stays as it is" in head

    drive(flow)
