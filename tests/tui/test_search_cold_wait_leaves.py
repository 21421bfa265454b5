"""While a search asked with Enter waits (a cold meaning search waiting for the build), the
Search box can be left, the wait stays in sight, and the answer's time counts from Enter.

Trial s20 #3 (10,000 journal days): Esc cleared the box but a second Esc did not leave it
(the hit list under its loading overlay refused the focus), so ``2`` was typed into the
query; the keyword search typed meanwhile hid the build's progress line while the build
went on; and the answer, minutes later, said "516 ms". The search here is held until the
test lets it go, so every key lands while it waits, whatever this machine's speed.
"""

from __future__ import annotations

import threading
import time

import pytest

from memsearch_tui.tui.panes.search_pane import HitList, SearchBox
from memsearch_tui.tui.widgets.work_progress import WorkProgress
from tests.helpers import WAIT_LIMIT, settle, shown, until

pytestmark = pytest.mark.slow  # starts the whole app
SMALL = (80, 24)
HOLD = 1.5  # seconds the search asked with Enter is held after the test saw it wait


def _hold_meaning(monkeypatch, *, then_keywords: bool = False) -> threading.Event:
    """Search.query held for every strategy but grep (the keyword search typed) until set;
    ``then_keywords``: the held search then runs as grep (ms: no model loaded after the hold)."""
    from memsearch_tui.engine.api.search import Search

    go = threading.Event()
    real = Search.query

    def held(self, *args, **kw):
        if kw.get("strategy") != "grep":
            go.wait(WAIT_LIMIT)
            if then_keywords:
                kw["strategy"] = "grep"
        return real(self, *args, **kw)

    monkeypatch.setattr(Search, "query", held)
    return go


@pytest.mark.parametrize("query", ["deploy", "回滚部署"])
def test_esc_esc_leaves_the_box_while_the_search_waits_and_a_digit_switches(drive, monkeypatch, query):
    go = _hold_meaning(monkeypatch)

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        await pilot.press("slash", *query, "enter")
        await until(pilot, lambda: app.query_one(HitList).loading, "the search under way")
        await pilot.press("escape")
        box = app.query_one(SearchBox)
        assert box.value == "" and box.has_focus  # the first Esc clears
        await pilot.press("escape")
        assert app.query_one(HitList).has_focus  # the second leaves, the search still waiting
        await pilot.press("2")
        go.set()
        await settle(pilot, app)
        assert app.query_one("#tabs").active == "journal"  # the digit switched panes
        assert box.value == ""  # and was not typed

    try:
        drive(flow, size=SMALL)
    finally:
        go.set()


def test_the_wait_stays_in_sight_after_a_keyword_answer_typed_meanwhile(drive, monkeypatch):
    go = _hold_meaning(monkeypatch)

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        await pilot.press("slash", *"deploy", "enter")
        bar = app.query_one(WorkProgress)
        await until(pilot, lambda: bar.display, "the cold search's line")
        await pilot.press("tab", "s")  # out of the box, then a letter: typed on, a keyword search
        await until(pilot, lambda: "keywords as you type" in shown(app.query_one("#search-status")), "keywords")
        await settle(pilot, app)
        assert bar.display  # the search asked with Enter still waits: its line stays
        go.set()
        await until(pilot, lambda: not bar.display, "the line gone once the wait ended")

    try:
        drive(flow, size=SMALL)
    finally:
        go.set()


def test_the_answer_says_the_time_from_enter(drive, monkeypatch):
    """A lower bound the test makes itself (the search is held ``HOLD`` s), not a speed: the
    engine's own count covers only the search run after the hold (the re-search after the build)."""
    go = _hold_meaning(monkeypatch, then_keywords=True)

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        await pilot.press("slash", *"部署 deploy", "enter")
        await until(pilot, lambda: app.query_one(HitList).loading, "the search under way")
        held_from = time.monotonic()
        while time.monotonic() - held_from < HOLD:
            await pilot.pause(0.1)
        go.set()
        status = app.query_one("#search-status")
        await until(pilot, lambda: " ms" in shown(status) and "keywords" not in shown(status), "the answer")
        ms = int(shown(status).split(" ms")[0].rsplit("·", 1)[1].replace(",", "").strip())
        assert ms >= HOLD * 1000, shown(status)

    try:
        drive(flow, size=SMALL)
    finally:
        go.set()
