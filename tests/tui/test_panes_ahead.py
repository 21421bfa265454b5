"""The panes made ahead never hold up a key (issue 37 item 5: every pane key ≤ 300 ms).

About 2 s after start the app makes the panes not shown yet while idle
(``MemsearchApp.make_panes_ahead``). They were made back to back, one per refresh: a key
pressed as the chain began waited for all seven (the Overview's first visit at 10,000
journal days: ~200–320 ms, or ~460–520 ms when pressed just then). Now one pane per idle
moment: no pane is made ahead while a key or click is recent, a pane is mounting or a
pane's worker runs, so a key's own pane is made, loaded and drawn first. What is counted
here is the panes made, never a time (benchmarks/tui_keys_ahead.py times it).
"""

from __future__ import annotations

import threading

from memsearch_tui.tui import app as app_module
from memsearch_tui.tui.actions import PANES
from memsearch_tui.tui.panes.overview_pane import OverviewPane
from tests.helpers import refreshed, settle, until

REFRESHES = len(PANES) + 2  # the old chain made one pane per refresh: all of them by then


def test_a_key_s_pane_loads_before_more_panes_are_made_ahead(drive, monkeypatch) -> None:
    """``0`` pressed as the chain begins: while the Overview's first load runs, the chain
    makes nothing more (the old chain made the other five during it); once the Overview
    is loaded, the rest are made."""
    release = threading.Event()
    real_load = OverviewPane.load_quick

    def slow_load(self: OverviewPane) -> object:
        release.wait(20)  # the first load is still running while the refreshes below pass
        return real_load(self)

    monkeypatch.setattr(OverviewPane, "load_quick", slow_load)
    made: dict[str, list[str]] = {}

    async def flow(pilot, app):
        try:
            await pilot.press("0")  # the Overview: made by its key, its load waits in its worker
            app.make_panes_ahead()  # as its timer does, 2 s after the start: one pane now
            for _ in range(REFRESHES):
                await refreshed(pilot, app)  # not ``settle``: it waits for the load
            made["while the key's pane loads"] = sorted(app._panes)
        finally:
            release.set()
        await until(pilot, lambda: app.pane("overview")._data is not None, "the Overview's first load")
        await until(pilot, lambda: len(app._panes) == len(PANES), "the other panes, made after it")
        await settle(pilot, app)
        assert app.query_one("#tabs").active == "overview"

    app = drive(flow)
    assert made["while the key's pane loads"] == sorted(["index", "overview", PANES[1].id])
    assert app.errors == []


def test_keys_typed_hold_the_panes_made_ahead(drive, monkeypatch) -> None:
    """A key (``j`` in the Index) pressed less than ``PANES_AHEAD_QUIET`` before: the chain
    makes its one pane and waits, refresh after refresh, for the keys to stop; the old
    chain went on making one pane per refresh."""
    monkeypatch.setattr(app_module, "PANES_AHEAD_QUIET", 3600.0, raising=False)  # the keys never stop here

    async def flow(pilot, app):
        await pilot.press("j")
        app.make_panes_ahead()  # the timer's step: one pane now, the next at an idle moment
        for _ in range(REFRESHES):
            await refreshed(pilot, app)
        assert sorted(app._panes) == sorted(["index", PANES[1].id])

    app = drive(flow)
    assert app.errors == []


def test_the_panes_made_ahead_wait_for_a_pane_being_mounted(drive) -> None:
    """A pane a key asked for and not mounted yet: the chain's step makes nothing then (the
    key's pane is mounted alone), and makes the next pane once it is."""

    async def flow(pilot, app):
        app.pane("notes")  # as its key does: mounted by the next refresh
        waits = app._ahead_waits()
        await until(pilot, lambda: app.pane("notes").is_mounted, "the Notes pane mounted")
        assert waits
        app._input_at = float("-inf")  # no key pressed: only the mount held the chain
        assert not app._ahead_waits()

    app = drive(flow)
    assert app.errors == []
