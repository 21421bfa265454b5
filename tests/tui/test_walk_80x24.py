"""Issue 31 item 9, the rest of the 80x24 walk: labels cut at a word boundary with "…"
(journal turn titles, version summaries), never mid-word ("Alpha dashboar")."""

from __future__ import annotations

import pytest

from tests.helpers import screen_lines, settle
from tests.tui.walks import close_screens

pytestmark = pytest.mark.slow

SMALL = (80, 24)


async def journal_turn_titles_are_cut_at_a_word(pilot, app):
    from textual.widgets import Tree

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


async def version_summaries_end_at_a_word(pilot, app):
    from textual.widgets import OptionList

    await pilot.press("3")
    await settle(pilot, app)
    options = app.query_one("#version-list", OptionList)
    texts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    # the demo's history lines were written cut mid-word: "… the analytics r…"
    assert any(t.endswith("analytics…") for t in texts), texts
    assert not any(t.endswith(" r…") for t in texts), texts


async def maintenance_shows_task_names_and_last_success_at_80_columns(pilot, app):
    await pilot.press("5")
    await settle(pilot, app)
    rows = screen_lines(app)
    head = next(r for r in rows if "status" in r and "next" in r)
    assert "last success" in head, head
    assert any("project review" in r for r in rows) and not any("project_review" in r for r in rows)


async def overview_shows_human_names_not_internal_keys(pilot, app):
    await pilot.press("0")
    await settle(pilot, app)
    await pilot.press("end")
    await settle(pilot, app)
    rows = "\n".join(screen_lines(app))
    assert "Claude Code · project review" in rows and "claude-code.project_review" not in rows, rows
    await pilot.press("home")
    await settle(pilot, app)
    seen = rows + "\n".join(screen_lines(app))
    for _ in range(3):  # the lifecycle section, below the charts
        await pilot.press("pagedown")
        await settle(pilot, app)
        seen += "\n".join(screen_lines(app))
    assert "decisions/old-logging-library (trashed 2026-11-24)" in seen
    assert "2026-11-24/decisions" not in seen


def _recorder(seen: list[float]):
    def note(y: float) -> None:
        seen.append(y)

    return note


async def help_jumps_to_its_end_in_one_step(pilot, app):
    """G/End/g in Help land at once: Textual animated the scroll (~1 s before the next key);
    the scroll position goes straight to the end (no values in between)."""
    for key in ("G", "end", "g"):
        await _fresh(pilot, app)
        await pilot.press("question_mark")
        await settle(pilot, app)
        view = app.screen.query_one("#help-table")
        if key == "g":
            view.scroll_end(animate=False)
            await settle(pilot, app)
        seen: list[float] = []
        app.screen.watch(view, "scroll_y", _recorder(seen), init=False)
        await pilot.press(key)
        await settle(pilot, app)
        target = 0 if key == "g" else view.max_scroll_y
        assert view.max_scroll_y > 0 and view.scroll_y == target and all(y == target for y in seen), (key, seen)


async def the_search_hint_footer_and_help_name_the_places_ctrl_f_cycles(pilot, app):
    """The footer/Help said "all / store / journal / notes"; ctrl+f cycles three places."""
    from textual.widgets import Label

    from memsearch_tui.tui.actions import BY_ID
    from memsearch_tui.tui.empty_states import search_start

    await pilot.press("6")
    await settle(pilot, app)
    places = []
    for _ in range(4):
        await pilot.press("ctrl+f")
        await settle(pilot, app)
        places.append(str(app.query_one("#search-source", Label).content).removeprefix("in: "))
    cycle = sorted(set(places))
    said = BY_ID["search.filter"].description.split(": ", 1)[1].split(" / ")
    assert sorted(said) == cycle, (said, cycle)
    hint = search_start().plain
    assert f"({', '.join(said)})" in hint, hint


async def _fresh(pilot, app) -> None:
    """Between steps: no dialog, the Index pane (what a new app gave)."""
    await close_screens(pilot, app)
    app.set_focus(None)  # a digit in the search box would be text
    await pilot.press("1")
    app.set_focus(app.query_one("#index-tree"))
    await settle(pilot, app)


#: each was a test of its own at 80x24 with the same opening (the demo, the Index pane);
#: one app now runs them in order (a start cost about as much as one of them)
WALK = (
    journal_turn_titles_are_cut_at_a_word,
    version_summaries_end_at_a_word,
    maintenance_shows_task_names_and_last_success_at_80_columns,
    overview_shows_human_names_not_internal_keys,
    help_jumps_to_its_end_in_one_step,
    the_search_hint_footer_and_help_name_the_places_ctrl_f_cycles,
)


def test_the_80x24_walk(drive):
    """The steps of ``WALK`` in order, on one app at 80x24 (a failure names its step in
    the traceback)."""

    async def flow(pilot, app):
        for step in WALK:
            await _fresh(pilot, app)
            await step(pilot, app)

    drive(flow, size=SMALL)
