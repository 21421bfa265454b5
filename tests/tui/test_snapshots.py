"""Snapshots of every pane: fixed terminal size, fixed clock, the demo memory at a fixed path.

Update after an intended visual change with ``pytest tests/tui --snapshot-update`` and look
at the SVG diff report before committing.
"""

from __future__ import annotations

import pytest

from memsearch_tui.tui.app import MemsearchApp
from memsearch_tui.tui.panes.index.pane import IndexPane
from tests.helpers import settle

SIZE = (120, 36)
pytestmark = pytest.mark.slow


def app_for(snap_demo) -> MemsearchApp:
    root, project = snap_demo
    return MemsearchApp(root, project, watch_files=False, remember_theme=False)


async def _index(pilot) -> None:
    await settle(pilot, pilot.app)
    pilot.app.query_one(IndexPane).select_entry("projects/web/alpha-dashboard")
    await settle(pilot, pilot.app)


async def _journal(pilot) -> None:
    await settle(pilot, pilot.app)
    await pilot.press("2")
    await settle(pilot, pilot.app)
    await pilot.press("enter", "j", "enter", "j")
    await settle(pilot, pilot.app)


async def _versions(pilot) -> None:
    await settle(pilot, pilot.app)
    await pilot.press("3")
    await settle(pilot, pilot.app)


async def _trash(pilot) -> None:
    await settle(pilot, pilot.app)
    await pilot.press("4")
    await settle(pilot, pilot.app)
    await pilot.press("p")
    await settle(pilot, pilot.app)


async def _maintenance(pilot) -> None:
    await settle(pilot, pilot.app)
    await pilot.press("5")
    await settle(pilot, pilot.app)


async def _search(pilot) -> None:
    await settle(pilot, pilot.app)
    await pilot.press("6")
    await settle(pilot, pilot.app)
    pilot.app.query_one("#pane-search").strategy = "grep"
    await pilot.press(*"ECharts", "enter")
    await settle(pilot, pilot.app)
    # the timing in the status line is the one thing that varies between runs
    status = pilot.app.query_one("#search-status")
    status.update(str(status.content).split(" · ")[0] + " · strategy grep")
    box = pilot.app.query_one("#search-input")  # the focus stays in the box; a steady cursor, not a blink
    box.cursor_blink = False
    box.focus()
    await pilot.pause(0.05)


async def _help(pilot) -> None:
    await settle(pilot, pilot.app)
    await pilot.press("f1")
    await pilot.pause(0.1)


@pytest.mark.parametrize(
    "name,run_before",
    [
        ("index", _index),
        ("journal", _journal),
        ("versions", _versions),
        ("trash", _trash),
        ("maintenance", _maintenance),
        ("search", _search),
        ("help", _help),
    ],
)
def test_pane_snapshot(name, run_before, snap_demo, snap_compare):
    assert snap_compare(app_for(snap_demo), terminal_size=SIZE, run_before=run_before)
