"""Keys drawn in as few layouts and frames as they need (issue 21, item 6; session 8).

The Notes pane (7) took two layouts of the whole screen and three frames: the footer and
the diff asked for a layout again when the pane was shown at an unchanged size, and the
note list rendered every option again. The hits of a search typed in the Search pane came
in three frames after the answer (a preview drawn one message later, the scrollbar
repainted after each layout) and a "searching…" line drawn in the middle of the search.
These tests count what the app does, so they hold on a slow machine too.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from textual.screen import Screen
from textual.widgets import Input

from memsearch_tui.engine.api.search import Search
from memsearch_tui.tui.panes import search_pane
from memsearch_tui.tui.panes.search_pane import HitList, SearchBox
from tests.helpers import settle, shown, until

pytestmark = pytest.mark.slow


class Counted:
    """Layouts of the screen and frames written (the tab underline's slide left out)."""

    def __init__(self, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        from textual.widgets._tabs import Underline

        self.layouts = 0
        self.frames = 0
        underline = app.query_one("#tabs").query_one(Underline)
        original_layout = Screen._refresh_layout
        original_display = app._display

        def refresh_layout(screen: Screen, *args: Any, **kwargs: Any) -> None:
            self.layouts += 1
            original_layout(screen, *args, **kwargs)

        def display(screen: Screen, update: Any) -> None:
            original_display(screen, update)
            if update is None:
                return
            spans = getattr(update, "spans", None)
            r = underline.region
            if spans is not None and all(r.y <= y < r.bottom for y, _x1, _x2 in spans):
                return  # only the underline's row: its slide, not the key's drawing
            self.frames += 1

        monkeypatch.setattr(Screen, "_refresh_layout", refresh_layout)
        monkeypatch.setattr(app, "_display", display)

    def reset(self) -> None:
        self.layouts = self.frames = 0


@pytest.fixture(autouse=True)
def _no_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)  # a frame no key causes


async def _notes_again(pilot: Any, app: Any) -> None:
    """Visit Notes once (its data loads), leave for the Index: the next 7 shows it again."""
    await pilot.press("7")
    await settle(pilot, app)
    await pilot.press("1")
    await settle(pilot, app)


def test_the_notes_pane_is_shown_again_in_one_layout(drive, monkeypatch):
    async def flow(pilot, app):
        await _notes_again(pilot, app)
        count = Counted(app, monkeypatch)
        await pilot.press("7")
        await settle(pilot, app)
        assert app.query_one("#tabs").active == "notes"
        assert "Postgres 16 in production" in app.query_one("#notes-doc").source  # what it shows is kept
        assert "Move auth to the shared gateway" in shown(app.query_one("#notes-diff"))
        # one layout: the footer (same keys) and the diff (same width) no longer ask for one
        assert count.layouts == 1, f"{count.layouts} layouts of the screen for one pane switch"
        assert count.frames <= 2, f"{count.frames} frames for one pane switch"

    drive(flow)


def test_a_list_shown_again_at_its_width_keeps_its_drawn_options(drive, monkeypatch):
    async def flow(pilot, app):
        await _notes_again(pilot, app)
        notes = app.query_one("#notes-list")
        dropped: list[bool] = []
        clear = notes._clear_caches
        monkeypatch.setattr(notes, "_clear_caches", lambda: (dropped.append(True), clear()))
        await pilot.press("7")
        await settle(pilot, app)
        assert not dropped, "the note list dropped its rendered options when shown again"
        await pilot.resize_terminal(100, 40)  # a new width: drawn again
        await settle(pilot, app)
        assert dropped
        assert "PROJECT.md" in str(notes.get_option_at_index(1).prompt)

    drive(flow)


def test_a_resize_that_changes_the_diff_layout_still_redraws_it(drive):
    """The diff draws again on a resize only when side by side ↔ unified changes."""

    async def flow(pilot, app):
        await pilot.press("7")
        await settle(pilot, app)
        diff = app.query_one("#notes-diff")
        assert not diff.split  # 120 columns: the diff's half of the pane is narrow, unified
        drawn = diff.content
        await pilot.resize_terminal(130, 40)
        await settle(pilot, app)
        assert diff.content is drawn, "a wider pane that keeps the diff unified does not draw it again"
        diff.mode = "split"
        await settle(pilot, app)
        assert diff.split and diff.content is not drawn
        assert "Move auth to the shared gateway" in shown(diff)

    drive(flow)


async def _search_box(pilot: Any, app: Any) -> Any:
    pane = app.pane("search")
    await pilot.press("6")
    await settle(pilot, app)
    await pilot.press("slash")
    return pane


def test_a_typed_search_shows_no_searching_line(drive, monkeypatch):
    """Typed: no "searching…" line (drawing it took a layout in the middle of the search)."""

    async def flow(pilot, app):
        pane = await _search_box(pilot, app)
        status = app.query_one("#search-status")
        asked: list[str] = []
        original = Search.query

        def query(self: Search, text: str, **kw: Any) -> Any:
            asked.append(shown(status))  # what the status line says while the search runs
            return original(self, text, **kw)

        monkeypatch.setattr(Search, "query", query)
        await pilot.press(*"ECharts")
        await until(pilot, lambda: pane.hits, "the typed search's hits")
        await settle(pilot, app)
        assert asked and not any("searching" in line for line in asked), asked
        assert "strategy grep" in shown(status)
        assert isinstance(app.focused, SearchBox)
        await pilot.press("enter")  # Enter's search (by meaning, can be slow) still says so
        await settle(pilot, app)
        assert "searching" in asked[-1]

    drive(flow)


def test_a_typed_search_draws_its_hits_and_preview_in_one_frame(drive, monkeypatch):
    async def flow(pilot, app):
        pane = await _search_box(pilot, app)
        await pilot.press(*"ECharts")
        await until(pilot, lambda: pane.hits, "the typed search's hits")
        await settle(pilot, app)
        count = Counted(app, monkeypatch)
        shows = pane._show

        def show(*args: Any, **kw: Any) -> None:
            count.reset()  # count from the answer on
            shows(*args, **kw)

        monkeypatch.setattr(pane, "_show", show)
        before = pane._asked
        await pilot.press("backspace")  # "EChart": a new typed search
        await until(pilot, lambda: pane._asked > before and pane._type_timer is None, "the search")
        await settle(pilot, app)
        await pilot.pause(0.2)  # a frame that would come late
        assert pane.hits
        assert "ECharts" in shown(app.query_one("#search-preview"))  # the first hit, drawn with the list
        assert count.frames == 1, f"{count.frames} frames after the answer"
        assert count.layouts <= 1

    drive(flow)


def test_an_answer_for_a_query_typed_on_since_is_not_drawn(drive, monkeypatch):
    """A typed search whose query is no longer in the box (the user typed on, that query's
    search is due) is dropped; the newer query's answer is drawn."""
    monkeypatch.setattr(search_pane, "TYPE_DELAY", 0.05)

    async def flow(pilot, app):
        pane = await _search_box(pilot, app)
        started, release = threading.Event(), threading.Event()
        original = Search.query

        def query(self: Search, text: str, **kw: Any) -> Any:
            if text == "ECharts":
                started.set()
                release.wait(10)
            return original(self, text, **kw)

        monkeypatch.setattr(Search, "query", query)
        drawn: list[str] = []  # the queries whose answers were drawn
        show = pane._show
        monkeypatch.setattr(
            pane, "_show", lambda result, *a, **kw: (drawn.append(result.query), show(result, *a, **kw))
        )
        await pilot.press(*"ECharts")
        await until(pilot, started.is_set, "the search of ECharts")
        monkeypatch.setattr(search_pane, "TYPE_DELAY", 30.0)  # the next query's search waits
        await pilot.press("z")
        release.set()
        await pilot.pause(0.3)
        await until(pilot, lambda: not any(w.name == "search" and w.is_running for w in pane.workers), "the search")
        await pilot.pause()
        assert "ECharts" not in drawn, "the answer for ECharts, no longer in the box, was drawn"
        assert pane._type_timer is not None  # EChartsz's search is still due
        due = pane._type_timer
        due.stop()
        pane._run_typed("EChartsz", due)  # it runs (its timer is still the current one): its answer is drawn
        await settle(pilot, app)
        assert drawn[-1] == "EChartsz"

    drive(flow)


def test_mouse_click_on_a_hit_opens_it(drive):
    async def flow(pilot, app):
        pane = app.pane("search")
        await pilot.press("6")
        await settle(pilot, app)
        await pilot.press("slash", *"ECharts", "enter")
        await until(pilot, lambda: pane.hits, "the hits")
        await settle(pilot, app)
        first = pane.hits[0]
        await pilot.click(HitList, offset=(2, 0))  # a click on a hit opens it, as Enter does
        await settle(pilot, app)
        want = "index" if first.source == "store" else "journal" if first.kind == "journal" else "notes"
        assert app.query_one("#tabs").active == want

    drive(flow)
