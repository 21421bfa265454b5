"""Overview pane (key 0): each line, reached with j/k and opened with Enter, lands in its
pane with the thing it is about selected (issue 14, Deliver 5: "each item jumps to its pane").

Every flow ends with the keyboard: ``j`` onto the line, ``Enter``; the first leg walks
from the top with ``j`` (``reach``). The demo's clock is fixed (2026-11-30), so days and due dates are too.
"""

from __future__ import annotations

from datetime import date

import pytest
from textual.widgets import DataTable, OptionList, Tree

from tests.helpers import settle, shown, told, until

pytestmark = pytest.mark.slow  # each flow starts the whole app

MAX_LINES = 80  # more j presses than the demo's overview has lines


def cursor_text(lst: OptionList) -> str:
    if lst.highlighted is None:
        return ""
    return shown_prompt(lst.get_option_at_index(lst.highlighted).prompt)


def shown_prompt(prompt) -> str:
    import io

    from rich.console import Console

    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(prompt)
    return console.export_text()


async def open_overview(pilot, app) -> OptionList:
    await pilot.press("0")
    await settle(pilot, app)
    lst = app.query_one("#overview-list", OptionList)
    await until(pilot, lambda: lst.option_count > 10, "the overview's lines")
    return lst


async def reach(pilot, app, fragment: str, *, walk: bool = False) -> OptionList:
    """Put the cursor on the Overview's first line with ``fragment``: from the line before it
    (or ``g`` at the top), ``j`` moves onto it, so a line j skips is never reached. With
    ``walk``, j pressed from the top, line by line, as a person does (each press redraws the
    list: walking every leg that way was most of this file's CPU)."""
    lst = await open_overview(pilot, app)
    await pilot.press("g")
    if not walk:
        texts = [shown_prompt(lst.get_option_at_index(i).prompt) for i in range(lst.option_count)]
        at = next((i for i, text in enumerate(texts) if fragment in text), None)
        assert at is not None, f"no overview line holds {fragment!r}"
        before = [i for i in range(at) if not lst.get_option_at_index(i).disabled]
        if before:
            lst.highlighted = before[-1]
            await pilot.press("j")
    for _ in range(MAX_LINES):
        if fragment in cursor_text(lst):
            return lst
        await pilot.press("j")
    raise AssertionError(f"j never reached an overview line with {fragment!r}")


async def enter(pilot, app) -> None:
    await pilot.press("enter")
    await settle(pilot, app)


def active(app) -> str:
    return app.query_one("#tabs").active


def test_days_conflicts_and_lifecycle_lines_open_their_panes_at_their_item(drive):
    """One walk (each leg from the Overview's top, as a person goes back with ``0``): the
    demo's sections, then a day
    opens the Journal before that pane ever loaded, a day chosen on the chart opens at that
    day, a conflict line selects its entry in Versions, the store's lifecycle hook line
    opens the plan at its first row, a lifecycle line due now selects its move in the plan."""

    async def flow(pilot, app):
        # every section of the demo
        lst = await open_overview(pilot, app)
        text = "\n".join(shown_prompt(lst.get_option_at_index(i).prompt) for i in range(lst.option_count))
        assert "Journal activity · last 56 days" in text
        assert "42 turns on 21 days" in text  # 21 demo days × 2 turns
        assert "notes" in text and "60" in text  # the 60-entry inbox category
        assert "will be archived (1 due now)" in text
        assert "will be purged for good" in text
        assert "Postgres 16 in production" in text  # the open conflict
        assert "Pending proposals · 1" in text and "PROJECT.md" in text
        assert "Claude Code · user profile" in text and "disabled (would use native)" in text

        # a day, before the Journal pane ever loaded
        assert not app.pane("journal").loaded
        await reach(pilot, app, "turns on", walk=True)
        await enter(pilot, app)
        assert active(app) == "journal"
        node = app.query_one("#journal-tree", Tree).cursor_node
        assert node.data.path.name == "2026-11-30.md" and node.is_expanded

        # a day of the chart
        lst = await reach(pilot, app, "turns on")
        assert "selected Mon Nov 30: 2 turns" in cursor_text(lst)  # the newest day with turns
        await pilot.press("h", "left")  # two days with turns back (the demo writes every other day)
        assert "selected Thu Nov 26: 2 turns" in cursor_text(lst)
        await pilot.press("l")
        assert "selected Sat Nov 28" in cursor_text(lst)
        await pilot.press("h")
        days = sorted(app.query_one("#pane-overview").data.activity)
        chart = lst.get_option_at_index(lst.highlighted).prompt
        marked = [sp.start for sp in chart.spans if "reverse" in str(sp.style)]
        assert marked == [days.index(date(2026, 11, 26))]  # the selected day, reversed in the strip
        await enter(pilot, app)
        assert active(app) == "journal"
        tree = app.query_one("#journal-tree", Tree)
        node = tree.cursor_node
        assert node.data.kind == "day" and node.data.path.name == "2026-11-26.md"
        assert node.is_expanded and node.children  # opened to show its sessions
        assert app.focused is tree
        assert "2026-11-26" in shown(app.query_one("#journal-detail"))

        # a conflict line
        await reach(pilot, app, "Postgres 16 in production")
        await enter(pilot, app)
        assert active(app) == "versions"
        versioned = app.query_one("#versioned", OptionList)
        assert app.focused is versioned
        assert versioned.get_option_at_index(versioned.highlighted).id == "decisions/postgres-16-in-production"
        assert app.query_one("#pane-versions").entry_id == "decisions/postgres-16-in-production"

        # the store's lifecycle hook line, the Trash pane's first visit
        await reach(pilot, app, "Store · lifecycle")
        await enter(pilot, app)
        assert active(app) == "trash"
        table = app.query_one("#plan-table", DataTable)
        await until(pilot, lambda: table.row_count > 0, "the lifecycle plan")
        assert app.focused is table and table.cursor_row == 0

        # a lifecycle line due now
        await reach(pilot, app, "will be archived (1 due now)")
        await enter(pilot, app)
        assert active(app) == "trash"
        await until(pilot, lambda: table.row_count > 0, "the lifecycle plan")
        assert app.focused is table
        action, entry = (str(c) for c in table.get_row_at(table.cursor_row)[:2])
        assert action == "archive" and entry == "projects/data/pipelines/parquet-schema-rules"
        assert app.errors == []

    drive(flow)


def test_hook_purge_and_category_lines_open_their_panes_at_their_item(drive):
    """One walk (each leg from the Overview's top): a hook line selects its task in
    Maintenance before that pane ever loaded, and again once loaded; a split check with no
    split proposal waiting says so and stays (Maintenance would only show an unrelated
    proposal selected); a lifecycle line due later selects the trashed item purged first
    (nothing is purged today); a category line expands and selects it in the Index and a
    reload keeps it; a click on a category line selects it too."""

    async def flow(pilot, app):
        # a hook line, before the Maintenance pane ever loaded
        assert not app.pane("maintenance").loaded  # selected once its load lands
        await reach(pilot, app, "Claude Code · user profile", walk=True)
        await enter(pilot, app)
        assert active(app) == "maintenance"
        tasks = app.query_one("#tasks", DataTable)
        assert app.focused is tasks
        assert tasks.coordinate_to_cell_key((tasks.cursor_row, 0)).row_key.value == "claude-code.user_profile"
        await reach(pilot, app, "Claude Code · memory to skill")  # and again, the pane loaded now
        await enter(pilot, app)
        assert tasks.coordinate_to_cell_key((tasks.cursor_row, 0)).row_key.value == "claude-code.memory_to_skill"
        assert app.focused is tasks

        # the split check, with no split proposal waiting
        await reach(pilot, app, "Store · split")
        await enter(pilot, app)
        assert active(app) == "overview"
        assert any("no split proposal waits" in n.message for n in told(app))

        # a lifecycle line due later
        await reach(pilot, app, "will be purged for good")
        first = app.query_one("#pane-overview").data.forecast.first["purge"][0]
        await enter(pilot, app)
        assert active(app) == "trash"
        trashed = app.query_one("#trash-table", DataTable)
        assert app.focused is trashed
        key = trashed.coordinate_to_cell_key((trashed.cursor_row, 0)).row_key.value
        assert key == first == "2026-11-24/decisions/old-logging-library"
        assert any("first one goes on 2026-12-24" in n.message for n in told(app))

        # a category line
        await reach(pilot, app, "projects ")
        await enter(pilot, app)
        assert active(app) == "index"
        tree = app.query_one("#index-tree", Tree)
        node = tree.cursor_node
        assert node.data.kind == "cat" and node.data.key == "projects"
        assert node.is_expanded and node.children
        assert app.focused is tree
        assert "projects" in shown(app.query_one("#entry-meta"))  # the detail shows the category
        app.refresh_panes()  # a reload (an agent wrote a file) keeps the category selected
        await settle(pilot, app)
        assert tree.cursor_node.data.key == "projects" and tree.cursor_node.is_expanded

        # a click on a category line
        lst = await reach(pilot, app, "decisions ")
        row = lst.highlighted
        lst.highlighted = 0
        await pilot.pause()
        # the option's first line on screen, relative to the list's own top-left corner
        top = lst.content_region.y - lst.region.y
        y = lst._index_to_line[row] - int(lst.scroll_offset.y) + top
        await pilot.click("#overview-list", offset=(top + 4, y))
        await settle(pilot, app)
        assert active(app) == "index"
        assert tree.cursor_node.data.key == "decisions"
        assert app.errors == []

    drive(flow)


def test_a_category_line_clears_an_index_filter_first(drive):
    async def flow(pilot, app):
        await pilot.press("f", *"deploy")
        pane = app.query_one("#pane-index")
        await until(pilot, lambda: "filter" in str(pane.tree.root.label), "the filter")
        await pilot.press("escape", "escape")  # the box keeps no text: leave it…
        await pilot.press("f", *"deploy", "enter")  # …then filter again and go to the tree
        await until(pilot, lambda: "filter" in str(pane.tree.root.label), "the filter")
        await reach(pilot, app, "decisions ")
        await enter(pilot, app)
        assert active(app) == "index"
        assert app.query_one("#index-filter").value == ""
        node = pane.tree.cursor_node
        assert node.data.kind == "cat" and node.data.key == "decisions" and node.is_expanded

    drive(flow)


def test_an_entry_expiring_later_opens_the_index_at_that_entry(demo, drive):
    from memsearch_tui.engine.store.store import Change, Store

    root, _ = demo
    Store(root).update("people/dana-platform-team", Change(expires=date(2026, 12, 10)))

    async def flow(pilot, app):
        await reach(pilot, app, "will be expired")
        await enter(pilot, app)
        assert active(app) == "index"
        node = app.query_one("#index-tree", Tree).cursor_node
        assert node.data.kind == "entry" and node.data.key == "people/dana-platform-team"

    drive(flow)


def test_a_proposal_line_selects_that_proposal_in_maintenance(demo, drive):
    from memsearch_tui.engine.review import store_proposals
    from memsearch_tui.engine.store.store import Store

    root, _ = demo
    split = store_proposals.propose_split(Store(root), "notes/inbox", by="month")

    async def flow(pilot, app):
        def selected() -> str:
            return plist.get_option_at_index(plist.highlighted).id

        await reach(pilot, app, "Store · split")  # the second proposal in Maintenance's list
        await enter(pilot, app)
        assert active(app) == "maintenance"
        plist = app.query_one("#proposals", OptionList)  # the pane is made by this first visit
        assert app.focused is plist and selected() == f"s:{split['id']}"
        assert split["id"] in shown(app.query_one("#proposal-head"))

        await reach(pilot, app, "PROJECT.md")  # back to the first one
        pid = app.query_one("#pane-overview").data.proposals[0].id
        await enter(pilot, app)
        assert app.focused is plist and selected() == f"p:{pid}"
        assert pid in shown(app.query_one("#proposal-head"))

        await reach(pilot, app, "Store · split")  # the hook's split check: its waiting proposal
        await enter(pilot, app)
        assert active(app) == "maintenance" and selected() == f"s:{split['id']}"
        assert app.errors == []

    drive(flow)


def test_step_day_moves_between_days_with_turns_and_stops_at_the_ends():
    from memsearch_tui.tui.panes.overview_pane import step_day

    days = [date(2026, 11, 26), date(2026, 11, 28), date(2026, 11, 30)]
    assert step_day(days, days[2], -1) == days[1]
    assert step_day(days, days[0], -1) == days[0]  # the oldest stays
    assert step_day(days, days[2], 1) == days[2]  # the newest stays
    assert step_day(days, date(2026, 11, 27), 1) == days[2]  # a day without turns: the newest
    assert step_day([], None, 1) is None


def test_day_files_maps_each_day_to_its_journal(tmp_path):
    from memsearch_tui.tui.panes.overview_pane import day_files

    for name in ("2026-11-30.md", "2026-11-28.md", "notes.md"):
        (tmp_path / name).write_text("# x\n", encoding="utf-8")
    got = day_files(tmp_path.glob("*.md"), {date(2026, 11, 30), date(2026, 11, 29)})
    assert got == {date(2026, 11, 30): tmp_path / "2026-11-30.md"}
