"""The keyboard model you can type into (issue 21, item 1).

In an input every printable key is text; after a search the focus stays in the box, so
no letter typed next can quit, undo, init or trash anything; on the hit list a letter
goes back into the box while digits and ``/`` keep their meaning on every pane.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from memsearch_tui.tui.modals import UndoModal
from memsearch_tui.tui.panes.base import Outcome
from memsearch_tui.tui.panes.search_pane import TYPE_DELAY, HitList, SearchBox
from tests.helpers import settle, shown, until
from tests.tui.walks import close_screens

pytestmark = pytest.mark.slow

PRINTABLE = "".join(chr(c) for c in range(0x20, 0x7F))  # every printable ASCII character


def tree_digest(*roots: Path) -> dict[str, str]:
    """Every memory file under the roots → a hash of its bytes: "nothing was written"
    (the derived caches in ``.memsearch-tui/``, rebuilt by any search, are left out)."""
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest()
        for root in roots
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memsearch-tui" not in p.parts and not p.name.endswith(".lock")
    }


async def search(pilot, app, query: str) -> None:
    await pilot.press("6")
    await settle(pilot, app)
    app.query_one("#pane-search").strategy = "grep"
    await pilot.press(*query, "enter")
    await settle(pilot, app)


# -- the typing walk: flows that write nothing, on one app ----------------------------
#
# Each was a test of its own with the same opening (the demo, the Index pane); one app now
# runs them in order (a start cost about as much as a flow). Each step names the flow it
# was; between steps ``_fresh`` empties the search box and its hits and goes back to the
# Index tree, what a new app gave. The as-you-type search comes first (no strategy chosen,
# no hits yet); the whole walk writes nothing to the memory.


async def _fresh(pilot, app) -> None:
    """Between steps: no dialog, an empty search box without hits, the Index pane's tree."""
    await close_screens(pilot, app)
    for pane in app.query("#pane-search"):  # the Search pane is made by its first visit
        pane.hits = []
        app.query_one(SearchBox).value = ""
    app.set_focus(None)  # a digit in the box would be text
    await pilot.press("1")
    app.set_focus(app.query_one("#index-tree"))
    await settle(pilot, app)


async def keyword_search_runs_as_you_type(pilot, app):
    await pilot.press("6")
    await settle(pilot, app)
    await pilot.press(*"ECharts")  # no Enter
    pane = app.query_one("#pane-search")
    await until(pilot, lambda: pane.hits, "hits of the typed query")
    await settle(pilot, app)
    assert "strategy grep" in str(app.query_one("#search-status").content)
    assert isinstance(app.focused, SearchBox)


async def flipping_through_panes_with_digits_passes_the_search_pane(pilot, app):
    """6 then 7 opens Notes (a digit is not typed into the empty box); a letter after 6 is
    the query's first character; / first gives a query that starts with a digit."""
    await pilot.press("6")
    await settle(pilot, app)
    await pilot.press("7")
    await settle(pilot, app)
    assert app.query_one("#tabs").active == "notes"
    box = app.query_one(SearchBox)
    assert box.value == ""
    await pilot.press("6", "E")
    assert app.focused is box and box.value == "E"
    await pilot.press("escape", "escape", "slash", *"2026")
    assert app.query_one("#tabs").active == "search" and box.value == "2026"
    assert app.errors == []


async def the_hit_list_sends_letters_to_the_box_and_keeps_digits_and_slash(pilot, app):
    await search(pilot, app, "ECharts")
    box, hits = app.query_one(SearchBox), app.query_one(HitList)
    await pilot.press("down")  # ↓ moves into the hits
    assert app.focused is hits and hits.highlighted == 0
    await pilot.press("tab")  # Tab moves through them
    assert app.focused is hits and hits.highlighted == 1
    await pilot.press("q")  # a letter is text, back in the box: the app does not quit
    assert app.is_running and app.focused is box and box.value == "EChartsq"
    await pilot.press("backspace")
    await pilot.pause(TYPE_DELAY * 2)
    await settle(pilot, app)
    await pilot.press("down", "7")  # a digit on the hits switches panes, as everywhere
    await settle(pilot, app)
    assert app.query_one("#tabs").active == "notes"
    await pilot.press("6")  # back with a query: the hits have the focus, not the box
    await settle(pilot, app)
    assert app.focused is hits
    await pilot.press("slash")  # / goes to the box, its text kept and not selected
    assert app.focused is box and box.value == "ECharts"
    await pilot.press("x")
    assert box.value == "EChartsx"
    await pilot.press("escape", "escape")  # clear, then leave for the hits
    assert box.value == "" and app.focused is hits
    assert app.errors == []


async def enter_on_a_hit_opens_it(pilot, app):
    await search(pilot, app, "ECharts")
    await pilot.press("down", "enter")
    await settle(pilot, app)
    assert app.query_one("#tabs").active == "journal"


async def every_printable_key_after_a_search_is_text(pilot, app):
    await search(pilot, app, "ECharts")
    assert app.query_one("#pane-search").hits, "the search found the demo's ECharts turn"
    assert isinstance(app.focused, SearchBox), "Enter keeps the focus in the box"
    await pilot.press(*PRINTABLE)
    await pilot.pause(TYPE_DELAY * 2)
    await settle(pilot, app)
    assert app.is_running
    assert app.screen is app.screen_stack[0], f"a key opened {app.screen!r}"
    assert app.query_one("#tabs").active == "search"
    assert isinstance(app.focused, SearchBox)
    assert app.query_one(SearchBox).value == "ECharts" + PRINTABLE
    assert app.errors == []


async def an_undo_that_finishes_after_the_history_closed_is_told_not_fatal(pilot, app):
    """The history closed (Escape) while its list or an undo was still on its way back:
    the outcome is still told, nothing is drawn into the closed screen."""
    await pilot.press("u")
    await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
    modal = app.screen
    await settle(pilot, app)
    await pilot.press("escape")
    await settle(pilot, app)
    modal._draw()
    modal._done(Outcome("undone: something", refresh=False, title=""))  # what the write path calls
    await settle(pilot, app)
    assert app.errors == [] and app.is_running


async def escape_with_typed_text_asks_before_dropping_it(pilot, app):
    from memsearch_tui.tui.modals import AddEntryModal, DiscardModal

    await pilot.press("a")
    await until(pilot, lambda: isinstance(app.screen, AddEntryModal), "the Add dialog")
    dialog = app.screen
    await pilot.press(*"Half a thought")
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, DiscardModal), "the discard question")
    await pilot.press("escape")  # keep editing: the text is still there
    assert app.screen is dialog and "Half a thought" in dialog.value().values()
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, DiscardModal), "the discard question")
    await pilot.press("d")
    await settle(pilot, app)
    assert app.screen is app.screen_stack[0]
    await pilot.press("a")  # nothing typed: Escape closes at once
    await until(pilot, lambda: isinstance(app.screen, AddEntryModal), "the Add dialog")
    await pilot.press("escape")
    await settle(pilot, app)
    assert app.screen is app.screen_stack[0]


async def escape_in_the_proposal_editor_names_the_proposed_file(pilot, app):
    from memsearch_tui.tui.modals import DiscardModal, TextEditModal

    await pilot.press("5")
    await settle(pilot, app)
    await pilot.press("e")
    await until(pilot, lambda: isinstance(app.screen, TextEditModal), "the proposal editor")
    editor = app.screen
    await pilot.press("end", *" edited")
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, DiscardModal), "the discard question")
    assert "Discard your changes to the proposed PROJECT.md?" in shown(app.screen.query_one(".dialog-title"))
    await pilot.press("n")  # keep editing
    assert app.screen is editor


TYPING_WALK = (
    keyword_search_runs_as_you_type,
    flipping_through_panes_with_digits_passes_the_search_pane,
    the_hit_list_sends_letters_to_the_box_and_keeps_digits_and_slash,
    enter_on_a_hit_opens_it,
    every_printable_key_after_a_search_is_text,
    an_undo_that_finishes_after_the_history_closed_is_told_not_fatal,
    escape_with_typed_text_asks_before_dropping_it,
    escape_in_the_proposal_editor_names_the_proposed_file,
)


def test_the_typing_walk(demo, drive):
    """The steps of ``TYPING_WALK`` in order, on one app (a failure names its step in the
    traceback); no key of any of them wrote to the memory."""
    root, project = demo
    before = tree_digest(root, project / ".memsearch")

    async def flow(pilot, app):
        for step in TYPING_WALK:
            await _fresh(pilot, app)
            await step(pilot, app)

    app = drive(flow)
    assert app.return_code in (None, 0)
    assert tree_digest(root, project / ".memsearch") == before


def test_forget_with_an_empty_reason_says_the_reason_is_required(demo, drive):
    """…until a reason is typed (issue 31 item 9: the line stayed while typing)."""
    from memsearch_tui.tui.panes.journal_pane import AskModal
    from tests.tui.test_new_user_walk import open_forget_question

    async def flow(pilot, app):
        await open_forget_question(pilot, app)
        await pilot.press("enter")
        error = app.screen.query_one("#ask-error")
        assert error.display and "reason is required" in shown(error)
        assert isinstance(app.screen, AskModal)
        await pilot.press("p")
        await settle(pilot, app)
        assert not error.display

    drive(flow)


def test_a_stale_proposal_says_why_and_finishes_in_the_app(demo, drive):
    """A forget marks the pending proposal stale: the pane says which forget, `e` refuses
    before the editor opens, `y` asks, a second `y` does not answer, `a` accepts anyway (no CLI flag named)."""
    from memsearch_tui.engine.api import journal_curation
    from memsearch_tui.engine.review import proposals
    from memsearch_tui.tui.modals import AcceptAnywayModal, TextEditModal

    root, project = demo
    prop = proposals.list_pending(project)[0]
    day = sorted((project / ".memsearch" / "memory").glob("*.md"))[-1].stem
    out = journal_curation.forget(root, project, day, reason="pasted a secret")
    assert out["stale_proposals"] == [prop.id]

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        head = shown(app.query_one("#proposal-head"))
        assert "stale" in head and "pasted a secret" in head and "--force" not in head
        await pilot.press("e")
        await settle(pilot, app)
        assert not isinstance(app.screen, TextEditModal)  # refused before any edit is typed
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, AcceptAnywayModal), "the accept-anyway question")
        await pilot.press("y")  # a reflex second accept key does not answer it
        await settle(pilot, app)
        assert isinstance(app.screen, AcceptAnywayModal)
        assert proposals.get(project, prop.id).status == "pending"
        await pilot.press("a")
        await settle(pilot, app)
        assert app.errors == []

    drive(flow)
    assert proposals.get(project, prop.id).status == "accepted"
    assert Path(prop.target).read_text(encoding="utf-8") == prop.content
