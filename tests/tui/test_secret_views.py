"""The app's reading views never echo a secret (README: "never echoed … every way out").

A journal day is written by an agent hook and an entry file may be edited by hand, so
either can hold a credential. The Journal pane showed a day's first bullets, a turn's
anchor fields and its non-bullet lines as they were, and the Index pane an entry's body:
each now goes through the one redactor, as the Notes pane and every other face do."""

from __future__ import annotations

import asyncio
import os

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, settle, shown
from tests.tui.home_demo import home_demo  # noqa: F401 (fixture)

KEY = "glpat-" + "xY3kP9mQ2rT7vW1zB4nC"  # a GitLab token (built in two parts)
PIECE = "xY3kP9mQ2rT7"  # what must never be drawn

DAY = f"""\
# 2020-01-06

## Session 10:00

### 10:05
<!-- session:s1 turn:1 transcript:/t/s1.jsonl deploy_token:{KEY} -->
- 部署令牌是 {KEY}
- rotated the deploy key
note left by hand: {KEY} 别外传
"""


def _replace(path, text: str) -> None:
    """Write ``path`` anew (a demo copy may share a file's inode with its template)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


@pytest.mark.slow
def test_journal_and_entry_views_mask_a_secret(home_demo):  # noqa: F811
    root, project = home_demo
    day = project / ".memsearch" / "memory" / "2020-01-06.md"
    day.write_text(DAY, encoding="utf-8")
    entry = root / "projects" / "web" / "alpha-dashboard.md"
    _replace(entry, entry.read_text(encoding="utf-8") + f"\nCI token (手工加的): {KEY}\n")

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SNAPSHOT_SIZES["120x36"]) as pilot:
            await settle(pilot)
            await pilot.press("2")
            await settle(pilot)
            pane = app.query_one("#pane-journal")
            views = {}
            for what, line in (("day", 0), ("turn", 6)):
                pane.open_at(day, line)
                await pilot.pause(0.05)
                views[what] = shown(app.query_one("#journal-detail"))
            assert "10:05" in views["day"] and "部署令牌是" in views["day"]
            assert "deploy_token" in views["turn"] and "别外传" in views["turn"]
            await pilot.press("1")
            await settle(pilot)
            assert app.query_one("#pane-index").select_entry("projects/web/alpha-dashboard")
            await settle(pilot)
            views["entry"] = app.query_one("#entry-body").source
            assert "手工加的" in views["entry"]
            leaked = [what for what, text in views.items() if PIECE in text or "[redacted" not in text]
            assert leaked == [], views
            assert app.errors == []

    asyncio.run(flow())
