"""Issue 31 item 9, the rest of the 80x24 walk: labels cut at a word boundary with "…"
(journal turn titles, version summaries), never mid-word ("Alpha dashboar")."""

from __future__ import annotations

import pytest

from tests.helpers import screen_lines, settle

pytestmark = pytest.mark.slow

SMALL = (80, 24)


def test_journal_turn_titles_are_cut_at_a_word(drive):
    from textual.widgets import Tree

    async def flow(pilot, app):
        await pilot.press("2")
        await settle(pilot, app)
        await pilot.press("enter", "j", "enter")  # the newest day and its session
        await settle(pilot, app)
        tree = app.query_one("#journal-tree", Tree)
        turns = [n for s in tree.root.children[0].children for n in s.children]
        assert turns
        rows = "\n".join(screen_lines(app))
        for node in turns:
            full = node.label.plain
            words = full.split()
            shown = next(r for r in rows.splitlines() if words[0] in r and words[1] in r)
            cell = shown.split("── ", 1)[1].split("▕")[0].rstrip()
            assert cell == full or (cell.endswith("…") and f"{cell[:-1]} " in f"{full} "), (cell, full)
        assert "dashboar " not in rows and not rows.count("dashboar▕")

    drive(flow, size=SMALL)


def test_version_summaries_end_at_a_word(drive):
    from textual.widgets import OptionList

    async def flow(pilot, app):
        await pilot.press("3")
        await settle(pilot, app)
        options = app.query_one("#version-list", OptionList)
        texts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        # the demo's history lines were written cut mid-word: "… the analytics r…"
        assert any(t.endswith("analytics…") for t in texts), texts
        assert not any(t.endswith(" r…") for t in texts), texts

    drive(flow, size=SMALL)
