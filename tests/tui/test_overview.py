"""Overview pane (key 0) on an empty store and what it reads; every section of the demo and
where Enter takes each line: ``test_overview_jumps.py`` (one walk checks the sections' text
before its jumps)."""

from __future__ import annotations

import asyncio

from tests.helpers import SNAPSHOT_SIZES, entry_reads, make_app, settle, until
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
            # the start-up conflict check (the badges, on a 1 s timer: no worker yet for settle
            # to wait on) reads every entry: under load it ran inside the spies below
            await until(pilot, lambda: app.badges.conflicted, "the start-up conflict check")
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

    def spy(folder, since=""):
        listed.append(folder)
        return real(folder, since) if since else real(folder)

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


def _old_days(project, n: int) -> None:
    """``n`` journal days long before the chart's 56 (2001 on), English and Chinese."""
    from datetime import date, timedelta

    memory = project / ".memsearch" / "memory"
    for i in range(n):
        day = (date(2001, 1, 1) + timedelta(days=i)).isoformat()
        text = "### 10:00 修复登录\n- 缓存预热的竞态\n" if i % 2 else "### 10:00 fix login\n- the cache warm-up race\n"
        (memory / f"{day}.md").write_text(f"# {day}\n{text}", encoding="utf-8")


def test_overview_makes_a_path_only_for_its_charts_days(home_demo, monkeypatch):  # noqa: F811
    """The chart shows 56 days: at 10,000 days the Overview made 10,000 ``Path`` objects and
    sorted them (~0.15 s) to use 56. Its listing now hands back the window's days only, and
    the chart's turns and days' files are those the whole listing gives."""
    from memsearch_tui.engine.memsearch import journal
    from memsearch_tui.tui.panes.overview_pane import ACTIVITY_DAYS, day_files

    root, project = home_demo
    _old_days(project, 300)
    memory = project / ".memsearch" / "memory"
    whole = journal.journal_files(memory)
    handed: list[int] = []
    real = journal.journal_files

    def spy(folder, since=""):
        out = real(folder, since) if since else real(folder)
        handed.append(len(out))
        return out

    monkeypatch.setattr(journal, "journal_files", spy)

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            pane = await app.mounted("overview")  # made here: never shown
            handed.clear()
            quick = pane.load_quick()
            since = min(quick.activity).isoformat()
            window = [p for p in whole if journal._DAY_NAME.match(p.name) and p.name[:10] >= since]
            assert handed == [len(window)] and len(whole) > 300 > len(window) > 0  # dfc9a86: [len(whole)]
            expected = app.ctx.mem.journal.activity(ACTIVITY_DAYS, whole)
            assert quick.activity == expected and sum(expected.values()) > 0
            assert quick.day_files == day_files(whole, {d for d, n in expected.items() if n})

    asyncio.run(flow())


def test_overview_digests_no_journal_when_no_hook_task_is_enabled(tmp_path, monkeypatch):
    """The hooks' lines show no digest, and a disabled task is never due: with every task
    disabled (no config) the Overview stats and reads none of the day files for one
    (10,000 stats at 10,000 days); the lines say the same."""
    from memsearch_tui.engine.maintenance import run
    from memsearch_tui.engine.store.store import Store

    root, project = tmp_path / "memory", tmp_path / "project"
    (project / ".memsearch" / "memory").mkdir(parents=True)
    Store(root).init()
    _old_days(project, 30)
    digested: list[object] = []
    real = run.input_digest
    monkeypatch.setattr(run, "input_digest", lambda folder: digested.append(folder) or real(folder))

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            pane = await app.mounted("overview")  # made here: never shown
            digested.clear()
            quick = pane.load_quick()
            assert digested == [] and quick.tasks and not any(t.enabled for t in quick.tasks)  # dfc9a86: 1
            pane.apply(quick)
            text = "\n".join(option_texts(app.query_one("#overview-list")))
            assert "Claude Code · project review" in text and "disabled (would use" in text
            assert app.errors == []

    asyncio.run(flow())


def test_overview_shows_its_quick_draw_before_the_forecast_query(home_demo, monkeypatch):  # noqa: F811
    """The worker went on to the lifecycle forecast (imports and a catalog query, holding
    the interpreter) as soon as the quick draw was handed over, and the frame showing it
    waited for them (~0.1 s at 10,000 days). Now the forecast starts once that frame is
    out, however late the screen draws it: here the frame waits for the forecast to start
    (0.6 s at most, under ``DRAWN_WAIT``), and the forecast still comes second."""
    import threading

    from textual.screen import Screen

    from memsearch_tui.tui.panes.overview_pane import OverviewPane

    root, project = home_demo
    events: list[str] = []
    started = threading.Event()
    real_forecast = OverviewPane.with_cached_forecast

    def forecast(self, quick):
        events.append("forecast")
        started.set()
        return real_forecast(self, quick)

    monkeypatch.setattr(OverviewPane, "with_cached_forecast", forecast)

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            real_refresh = Screen._compositor_refresh

            def late_frame(screen):  # a busy UI thread: the data's frame comes late
                pane = app._panes.get("overview")
                if pane is not None and pane._data is not None and "frame" not in events:
                    started.wait(0.6)  # dfc9a86's worker starts the forecast meanwhile (< DRAWN_WAIT)
                    events.append("frame")
                real_refresh(screen)

            monkeypatch.setattr(Screen, "_compositor_refresh", late_frame)
            await pilot.press("0")
            await settle(pilot)
            assert events[:2] == ["frame", "forecast"], events  # dfc9a86: ["forecast", "frame"]
            assert "Journal activity · last 56 days" in "\n".join(option_texts(app.query_one("#overview-list")))
            assert app.errors == []

    asyncio.run(flow())


def test_overview_reads_sync_and_hygiene_lines_without_their_machinery(tmp_path):
    """The sync line (before ``sync init``) and the hygiene line read one small file each;
    importing the sync machinery (git, three-way merge, rapidfuzz) and the hygiene scan
    (its checks, the agent-memory tools) for them cost ~70 ms CPU of the first draw. A
    fresh process answers both without those modules, and says what it said before."""
    import subprocess
    import sys

    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.store.store import Store

    root, project = tmp_path / "memory", tmp_path / "project"
    (project / ".memsearch" / "memory").mkdir(parents=True)
    Store(root).init()
    probe = (
        "import sys\nfrom memsearch_tui.engine.api import Memory\n"
        f"m = Memory({str(root)!r}, {str(project)!r})\n"
        "s, h = m.sync.status(), m.hygiene.last()\n"
        "print(s.initialised, h, [n for n in ('memsearch_tui.engine.sync.run', 'memsearch_tui.engine.hygiene.run',"
        " 'rapidfuzz') if n in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "None", "[]"], out  # dfc9a86: all three modules loaded
    from dataclasses import fields

    from memsearch_tui.engine.api.sync import SyncState
    from memsearch_tui.engine.sync import run

    full = run.status(root)  # the whole status, as before: the same answer
    assert Memory(root, project).sync.status() == SyncState(*(getattr(full, f.name) for f in fields(SyncState)))


def test_overview_draw_measures_each_line_once(home_demo, monkeypatch):  # noqa: F811
    """Every draw (three per load, and each ←/→ of the chart's day) rebuilt the list one
    option at a time, and each separator made the list measure every line above it again:
    ~30 ms of the UI thread a draw on the demo (each category line a Rich table). Now the
    lines go in at once, each measured once, and the list is the same."""
    from textual.widgets import OptionList

    root, project = home_demo

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("0")
            await settle(pilot)
            pane = app.pane("overview")
            lst = app.query_one("#overview-list", OptionList)
            before = [(o.id, o._divider, o.disabled) for o in lst.options]
            measured: list[object] = []
            real = OptionList._get_visual
            monkeypatch.setattr(OptionList, "_get_visual", lambda self, o: measured.append(o) or real(self, o))
            pane.apply(pane.data)
            assert len(measured) == lst.option_count, (len(measured), lst.option_count)  # dfc9a86: ~6x as many
            assert [(o.id, o._divider, o.disabled) for o in lst.options] == before and lst.highlighted is not None
            assert app.errors == []

    asyncio.run(flow())
