"""Overview pane (key 0) on an empty store and what it reads; every section of the demo and
where Enter takes each line: ``test_overview_jumps.py`` (one walk checks the sections' text
before its jumps)."""

from __future__ import annotations

import asyncio

from tests.helpers import SNAPSHOT_SIZES, entry_reads, make_app, settle
from tests.tui.home_demo import home_demo, option_texts  # noqa: F401 (fixture)

SIZE = SNAPSHOT_SIZES["120x36"]


def test_overview_on_an_empty_store_says_what_to_press(tmp_path, monkeypatch):
    from memsearch_tui.engine.store.store import Store

    root, project = tmp_path / "memory", tmp_path / "project"
    project.mkdir()
    Store(root).init()

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("0")
            await settle(pilot)
            text = "\n".join(option_texts(app.query_one("#overview-list")))
            assert "No journal turns yet" in text
            assert "The store is empty: press a in the Index" in text
            assert "No open conflicts." in text and "Nothing waits for review." in text
            assert app.errors == []

    asyncio.run(flow())


def test_overview_draws_its_quick_part_before_reading_every_entry(home_demo):  # noqa: F811
    """At 100k entries re-checking the files and the conflicts take seconds: the Overview
    first draws the store's counts and the lifecycle forecast as the catalog last saved
    them, reading no entry file, then fills in the rest."""
    root, project = home_demo

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            pane = await app.mounted("overview")  # made here: never shown
            slow: list[str] = []
            conflicts_for = app.badges.conflicts_for

            def spy(name, real):  # a spy: which slow reads the quick part makes (none)
                def call(*a, **kw):
                    slow.append(name)
                    return real(*a, **kw)

                return call

            app.badges.conflicts_for = spy("conflicts", conflicts_for)
            with entry_reads(root) as reads:
                first = pane.load_quick()
                quick = pane.with_cached_forecast(first)
            assert slow == [] and reads == [] and quick.pending and first.forecast is None and quick.forecast
            assert {c.category for c in quick.categories} >= {"notes"}  # the counts are there already
            pane.apply(quick)
            text = "\n".join(option_texts(app.query_one("#overview-list")))
            assert "will be archived (1 due now)" in text and "Open conflicts · …" in text
            assert "Journal activity · last 56 days" in text and "Pending proposals · 1" in text
            full = pane.load_rest(quick)
            assert slow == ["conflicts"] and full.forecast is not None and not full.pending
            pane.apply(full)
            text = "\n".join(option_texts(app.query_one("#overview-list")))
            assert "will be archived (1 due now)" in text and "Postgres 16 in production" in text
            assert app.errors == []

    asyncio.run(flow())


def test_overview_lists_the_journal_days_once(home_demo, monkeypatch):  # noqa: F811
    """The chart's turns and its days' files came from two listings of every day file
    (10,000 days: each ~0.1–0.5 s, issue 37): one listing serves both."""
    from memsearch_tui.engine.memsearch import activity, journal

    root, project = home_demo
    listed: list[object] = []
    real = journal.journal_files

    def spy(folder):
        listed.append(folder)
        return real(folder)

    monkeypatch.setattr(journal, "journal_files", spy)
    monkeypatch.setattr(activity, "journal_files", spy)

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            pane = await app.mounted("overview")  # made here: never shown
            listed.clear()
            quick = pane.load_quick()
            assert len(listed) == 1, listed  # 5dbfd6c: 2
            assert sum(quick.activity.values()) > 0 and quick.day_files  # the chart has its days and files

    asyncio.run(flow())
