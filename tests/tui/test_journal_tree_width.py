"""At 80 columns the journal tree takes ~24 cells, not ~30: the turn beside it gets the rest.

The tree's day rows ("2026-11-30  2 turns") fit in 24 cells; the 30 it had at 80 columns
left the turn's text 45. A wide terminal keeps the tree's share (2 of 5 parts).
"""

from __future__ import annotations

import pytest

from tests.helpers import screen_lines, settle

pytestmark = pytest.mark.slow  # starts the whole app


async def _open_a_turn(pilot, app) -> None:
    await pilot.press("2")
    await settle(pilot, app)
    await pilot.press("enter", "j", "enter", "j")
    await settle(pilot, app)


def test_the_journal_tree_shrinks_at_80_columns_and_the_turn_gets_the_room(drive):
    async def flow(pilot, app):
        await _open_a_turn(pilot, app)
        tree, detail = app.query_one("#journal-tree"), app.query_one("#journal-detail-scroll")
        assert 22 <= tree.size.width <= 24, tree.size
        assert detail.size.width >= 50, detail.size
        rows = screen_lines(app)
        assert any("2026-11-28  2 turns" in r for r in rows)  # a day row still whole
        assert any("Swapped recharts for ECharts; 10k points" in r for r in rows), rows

    drive(flow, size=(80, 24))


def test_a_wide_terminal_keeps_the_trees_share(drive):
    async def flow(pilot, app):
        await _open_a_turn(pilot, app)
        assert app.query_one("#journal-tree").size.width >= 40

    drive(flow, size=(120, 40))
