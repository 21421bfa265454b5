"""Issue 21, items 5 and 7: ids and paths fit by losing their middle, the Maintenance table
keeps task/status/next in place, the diff gets the rows at 80×24, and the smaller items
(the Versions layout key, every day's counts, PROJECT.md hits, empty-pane hints, the
cursor row kept in view, ``updated:`` after an edit).

Each Pilot test here fails on the code before the fix (said in its docstring).
"""

from __future__ import annotations

import contextlib
import re
from datetime import date
from types import SimpleNamespace

import pytest
from rich.cells import cell_len

from memsearch_tui.engine.store.store import Store
from tests.helpers import WAIT_LIMIT, screen_lines, settle, shown, until

pytestmark = pytest.mark.slow  # each flow starts the whole app

NARROW, WIDE = (80, 24), (160, 48)
CONFLICTED = "decisions/postgres-16-in-production"
TODAY = date(2026, 11, 30)  # the demo's fixed clock (tests/tui/conftest.py)


# -- the middle cut, without Textual ------------------------------------------------------


@pytest.mark.parametrize("width", range(1, 40))
def test_middle_keeps_both_ends_and_never_exceeds_the_width(width):
    from memsearch_tui.tui.text import middle

    text = "decisions/postgres-16-in-production"
    out = middle(text, width)
    assert cell_len(out) <= width
    if cell_len(text) <= width:
        assert out == text
    elif width >= 3:
        head, _, tail = out.partition("…")
        assert text.startswith(head) and text.endswith(tail) and len(tail) >= len(head)


def test_middle_counts_wide_characters_as_two_cells():
    from memsearch_tui.tui.text import middle

    out = middle("项目/中文标题-很长的名字", 11)
    assert cell_len(out) <= 11 and out.startswith("项目") and out.endswith("名字")


# -- fit ------------------------------------------------------------------------------------


def _mid_word_cut(lines: list[str]) -> list[str]:
    """Lines where the conflicted entry's id was wrapped (``…-in-product`` then ``ion``)."""
    return [line for line in lines if re.search(r"in-product(?!ion)", line)]


@pytest.mark.parametrize("size", [NARROW, WIDE])
def test_ids_are_shortened_in_the_middle_never_wrapped(drive, size):
    """Versions and Search at 80 and 160 columns: an id too long for its column shows as
    ``decisions/po…in-production`` (before: ``decisions/postgres-16-in-product`` / ``ion``).
    One app per size visits both panes."""

    async def flow(pilot, app):
        for pane in ("3", "6"):
            await pilot.press(pane)
            await settle(pilot, app)
            if pane == "6":
                app.query_one("#pane-search").strategy = "grep"
                await pilot.press(*"Postgres", "enter")
                # the rows, not only an idle app: under load settle() returned before them
                await until(pilot, lambda: any("in-production" in line for line in screen_lines(app)), "the hits")
                await settle(pilot, app)
            lines = screen_lines(app)
            assert not _mid_word_cut(lines), (pane, "\n".join(lines))
            if size == NARROW:
                assert any("…" in line and "in-production" in line for line in lines), (pane, "\n".join(lines))

    drive(flow, size=size)


def _columns(app) -> list[tuple[str, int]]:
    table = app.query_one("#tasks")
    return [(str(c.label), c.get_render_width(table)) for c in table.columns.values()]


# -- the smaller items ------------------------------------------------------------------------


def test_every_day_shows_its_session_and_turn_counts(drive):
    """No day opened: each day's label already counts its turns (and its sessions when
    there are several; before: only a day that had been opened did)."""

    async def flow(pilot, app):
        await pilot.press("2")
        await settle(pilot, app)
        days = app.query_one("#journal-tree").root.children
        assert len(days) > 5
        for node in days:
            assert not node.is_expanded
            assert re.search(r"\d+ turns?( · \d+ sessions)?$", str(node.label)), str(node.label)

    drive(flow)


def test_a_project_md_hit_is_labelled_and_opens_in_notes(drive):
    """A PROJECT.md hit says it is a note (before: "journal") and Enter shows the file in
    the Notes pane (before: a pop-up)."""
    from memsearch_tui.tui.modals import ViewerModal

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        pane = app.query_one("#pane-search")
        pane.strategy = "grep"
        await pilot.press(*"Active threads", "enter")
        await settle(pilot, app)
        index = next(i for i, h in enumerate(pane.hits) if h.kind == "project")
        hits = app.query_one("#search-hits")
        label = shown(SimpleNamespace(content=hits.get_option_at_index(index).prompt))
        assert "PROJECT.md  note" in label and "journal" not in label
        hits.focus()
        hits.highlighted = index
        await pilot.press("enter")
        await settle(pilot, app)
        assert not isinstance(app.screen, ViewerModal)
        assert app.query_one("#tabs").active == "notes"
        notes = app.query_one("#pane-notes")
        assert notes.selected == "f:0" and notes.data.files[0][1].name == "PROJECT.md"

    drive(flow)


def test_empty_versions_and_search_say_what_to_do(tmp_path):
    """An empty Versions pane names the keys that make a version; Search before a query says
    what typing does (before: one sentence with no key, and a blank pane)."""

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        hint = shown(app.query_one("#search-preview"))
        assert "Type to search" in hint and "ctrl+s" in hint
        await pilot.press("escape")
        await pilot.press("3")
        await settle(pilot, app)
        head = shown(app.query_one("#versions-head"))
        assert "No entry has more than one version" in head and "$EDITOR" not in head
        assert "E or e in the Index" in head

    root = tmp_path / "empty-memory"
    Store(root).init()
    project = tmp_path / "empty-project"
    project.mkdir()
    from tests.helpers import make_app, run_flow

    run_flow(make_app((root, project)), flow, NARROW)


def _cursor_in_view(tree) -> bool:
    top = tree.scroll_offset.y
    return top <= tree.cursor_line < top + tree.scrollable_content_region.height


async def _far_down(pilot, app) -> str:
    """Select the last entry of the 60-entry category; returns its id."""
    entry_id = sorted(s.id for s in Store(app.ctx.memory_root).list() if s.id.startswith("notes/inbox/"))[-1]
    app.query_one("#pane-index").select_entry(entry_id)
    await settle(pilot, app)
    tree = app.query_one("#index-tree")
    assert _cursor_in_view(tree)
    return entry_id


def test_a_resize_keeps_the_selected_row_in_view(drive):
    """Shrinking the terminal keeps the Index's cursor row on screen (before: it stayed
    where it was and fell below the tree's new bottom)."""

    async def flow(pilot, app):
        await _far_down(pilot, app)
        await pilot.resize_terminal(80, 14)
        await settle(pilot, app)
        await pilot.pause(0.1)
        assert _cursor_in_view(app.query_one("#index-tree"))

    drive(flow, size=(120, 40))


def test_an_editor_edit_keeps_the_row_in_view_and_dates_the_entry(drive, demo, tmp_path, monkeypatch):
    """After ``e`` ($EDITOR) the edited entry is still the visible cursor row, and its
    ``updated:`` is today (before: the row scrolled away and ``updated:`` stayed)."""
    root, _ = demo
    editor = tmp_path / "append-editor.sh"
    editor.write_text("#!/bin/sh\nprintf '\\nOne more line from the editor.\\n' >> \"$1\"\n", encoding="utf-8")
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    edited: list[str] = []

    async def flow(pilot, app):
        app.suspend = contextlib.nullcontext  # the headless driver cannot hand over the terminal
        entry_id = await _far_down(pilot, app)
        before = Store(root).get(entry_id).updated
        assert before != TODAY
        await pilot.press("e")
        await until(pilot, lambda: "One more line" in Store(root).get(entry_id).body, "the edit on disk")
        await settle(pilot, app)
        await pilot.pause(0.1)
        tree = app.query_one("#index-tree")
        assert tree.cursor_node is not None and tree.cursor_node.data.key == entry_id
        assert _cursor_in_view(tree)
        edited.append(entry_id)

    drive(flow, size=(120, 30))
    assert Store(root).get(edited[0]).updated == TODAY


# -- speed, by structure (no timing assertions) ---------------------------------------------


def test_a_theme_switch_repaints_each_widget_once_and_draws_the_same(drive):
    """A theme switch asks each widget for one repaint (Textual asked ~80 times per widget:
    every colour rule repainted the whole subtree), and the screen it draws is the one an
    app started in that theme draws."""
    from textual.widget import Widget

    calls: list[int] = []

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        widgets = len(list(app.screen.walk_children(with_self=True)))
        original = Widget.refresh

        def counted(self, *args, **kwargs):
            calls.append(1)
            return original(self, *args, **kwargs)

        Widget.refresh = counted
        try:
            app.theme = "memsearch-light"
            await settle(pilot, app)
        finally:
            Widget.refresh = original
        assert len(calls) <= 3 * widgets, (len(calls), widgets)

    _draws_as_if_started_light(drive, flow)


def _draws_as_if_started_light(drive, switch) -> None:
    """``switch`` ends on the Maintenance pane in memsearch-light; an app started in that
    theme (remembered from the switch) must draw the same screen there."""
    switched: list[str] = []
    fresh: list[str] = []

    async def flow(pilot, app):
        await switch(pilot, app)
        switched.append(app.export_screenshot())

    async def started_light(pilot, app):
        assert app.theme == "memsearch-light"
        await pilot.press("5")
        await settle(pilot, app)
        fresh.append(app.export_screenshot())

    drive(flow)
    drive(started_light)
    assert switched == fresh


def test_a_pane_hidden_at_a_theme_switch_takes_its_styles_when_shown_and_draws_the_same(drive):
    """A theme switch applies the stylesheet to the pane on screen only (before: to every
    node of the eight panes); the Maintenance pane, hidden at the switch, takes it when
    shown and draws what an app started in that theme draws."""
    from textual.css.stylesheet import Stylesheet

    styled: list[object] = []

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        await pilot.press("1")
        await settle(pilot, app)
        hidden = set(app.query_one("#maintenance").walk_children(with_self=True))
        original = Stylesheet.apply

        def counted(self, node, **kwargs):
            styled.append(node)
            return original(self, node, **kwargs)

        Stylesheet.apply = counted
        try:
            app.theme = "memsearch-light"
            await settle(pilot, app)
            assert styled and not hidden & set(styled)  # the switch left the hidden pane alone
            await pilot.press("5")
            await settle(pilot, app)
            assert hidden & set(styled)  # shown: it took the new theme's styles
        finally:
            Stylesheet.apply = original

    _draws_as_if_started_light(drive, flow)


@pytest.mark.css_afresh  # the app's own parses, not the tests' per-worker ones (tests/tui/css_once.py)
def test_the_theme_ctrl_t_goes_to_next_is_parsed_before_the_key(drive):
    """While the app is idle, the stylesheet is parsed for the theme ``ctrl+t`` goes to
    next, so the key parses nothing (before: every source, a third of the switch), and the
    next-but-one theme is parsed after it; switching back parses nothing either."""
    from textual.css.stylesheet import Stylesheet

    from memsearch_tui.tui.app import PARSE_AHEAD_DELAY

    parsed: list[object] = []  # by the app's stylesheet, for the theme switched to
    ahead: list[object] = []  # by a spare one, for the theme after it

    async def flow(pilot, app):
        first = app.theme
        await until(pilot, lambda: app.parses_ahead_done > 0, "the idle parse", limit=PARSE_AHEAD_DELAY + WAIT_LIMIT)
        await settle(pilot, app)
        # On a loaded machine the timer's parse can run before the hidden panes finished
        # mounting, so widgets' CSS added after it is not parsed ahead (what ctrl+t then
        # parses): once settled, one more parse ahead, as the idle timer runs it.
        done = app.parses_ahead_done
        app.parse_ahead()
        await until(pilot, lambda: app.parses_ahead_done > done, "the parse ahead once settled")
        original = Stylesheet._parse_rules

        def counted(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
            if (css, read_from, is_default_rules, tie_breaker, scope) not in self._parse_cache:  # a real parse
                (parsed if self is app.stylesheet else ahead).append(read_from)
            return original(self, css, read_from, is_default_rules, tie_breaker, scope)

        Stylesheet._parse_rules = counted
        try:
            done = app.parses_ahead_done
            app.theme = app.next_theme()  # what ctrl+t does, less its toast (a new widget's CSS)
            # the parse ahead it starts (the theme after this one, once this one was drawn)
            # runs one source per step after the switch: wait for it to finish, not a refresh
            await until(pilot, lambda: app.parses_ahead_done > done, "the parse ahead after the switch")
            await settle(pilot, app)
            assert app.theme != first and parsed == []
            assert ahead
            done = app.parses_ahead_done
            app.theme = first
            await until(pilot, lambda: app.parses_ahead_done > done, "the parse ahead after switching back")
            await settle(pilot, app)
            assert parsed == []
        finally:
            Stylesheet._parse_rules = original

    drive(flow, remember_theme=False)


def test_a_dialog_opens_without_redrawing_the_screen_it_covers(drive):
    """Opening the key help tints the screen under it once (Textual did at each layout of
    the dialog), neither lays the app's screen out again at the size it has (Textual did,
    for the dialog's first Resize) nor redraws the footer under the dialog (the focus
    moved, so its keys changed: the dimmed dialog was drawn again for it); closing the
    dialog shows the footer's keys as before."""
    from textual.renderables.background_screen import BackgroundScreen
    from textual.screen import Screen

    from memsearch_tui.tui.modals import HelpScreen
    from memsearch_tui.tui.widgets.keys import KeyFooter

    async def flow(pilot, app):
        main, footer = app.screen, app.query_one(KeyFooter)
        keys = str(footer.content)
        layouts, footers, tints = [], [], []
        relayout, update = Screen._refresh_layout, KeyFooter.update
        tint, kept = BackgroundScreen.process_segments, BackgroundScreen.__dict__["process_segments"]
        Screen._refresh_layout = lambda self, *a, **k: (self is main and layouts.append(1), relayout(self, *a, **k))[1]
        KeyFooter.update = lambda self, *a, **k: (self is footer and footers.append(1), update(self, *a, **k))[1]
        BackgroundScreen.process_segments = staticmethod(lambda *a: (tints.append(1), tint(*a))[1])
        try:
            await pilot.press("question_mark")
            await settle(pilot, app)
            assert isinstance(app.screen, HelpScreen)
            assert layouts == [] and footers == [] and len(tints) == 1
        finally:
            Screen._refresh_layout, KeyFooter.update = relayout, update
            BackgroundScreen.process_segments = kept
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is main and str(footer.content) == keys

    drive(flow)


# -- the 80x24 walk: checks that start at 80x24, in one app -------------------------------
#
# Each was a test of its own with the same opening (the demo at 80x24); one app now runs
# them in order (a start cost about as much as one of them). Each step names the test it
# was; the two that resize come last, and the header's goes back to 80x24 first.


async def the_proposal_diff_gets_the_width_and_rows_at_80x24(pilot, app):
    """At 80×24 the proposal's diff had 2 rows and 42 columns (the task table, section gaps
    and the proposal list beside it took the rest); now the list sits above it."""
    await pilot.press("5")
    await settle(pilot, app)
    diff = app.query_one("#proposal-diff-scroll")
    assert diff.size.height >= 8 and diff.size.width >= 76, diff.size


async def versions_layout_key_visibly_switches(pilot, app):
    """``s`` at 80 columns draws the diff side by side, ``s`` again unified, and the diff
    says which it is (before: the first ``s`` said "unified" and changed nothing)."""
    from memsearch_tui.tui.diffview import DiffView

    await pilot.press("3")
    await settle(pilot, app)
    diff = app.query_one("#versions-diff", DiffView)
    assert not diff.split
    assert "unified" in shown(diff).splitlines()[0]
    await pilot.press("s")
    await settle(pilot, app)
    assert diff.split
    assert "side by side" in shown(diff).splitlines()[0]
    await pilot.press("s")
    await settle(pilot, app)
    assert not diff.split
    assert any(line.startswith("@@") for line in shown(diff).splitlines())


async def maintenance_keeps_task_status_next_first_and_in_place(pilot, app):
    """At 80, 120 and 160 columns the table starts with task, status and next, at the same
    widths, before and after a reload (before: platform, task, enabled, then "due / why
    not" cut at 80 columns, and auto widths that moved with the content)."""
    seen = []
    await pilot.press("5")
    await settle(pilot, app)
    for width, height in ((80, 24), (120, 40), (160, 48)):
        await pilot.resize_terminal(width, height)
        await settle(pilot, app)
        header = next(line for line in screen_lines(app) if "task" in line and "status" in line)
        assert re.search(r"task\s+status\s+next", header), header
        before = _columns(app)
        app.refresh_panes()
        await settle(pilot, app)
        assert _columns(app) == before
        seen.append(before[:3])
    assert [c[0] for c in seen[0]] == ["task", "status", "next"]
    assert seen[0] == seen[1] == seen[2]


async def the_header_shortens_both_places_in_the_middle(pilot, app):
    """At 80 columns the header keeps the end of both paths (before: the project's path was
    cut at its end, ``/tmp/…/d…``); wide enough for both, it shows them whole."""
    await pilot.resize_terminal(*NARROW)
    await settle(pilot, app)
    root, project = str(app.ctx.memory_root), str(app.ctx.project)
    header = screen_lines(app)[0]
    assert "…" in header and "memory" in header and project.endswith("project") and "project" in header
    wide = len(root) + len(project) + 60  # the temp dir's depth differs between machines
    await pilot.resize_terminal(wide, 40)
    await settle(pilot, app)
    header = screen_lines(app)[0]
    assert root in header and project in header


NARROW_WALK = (
    the_proposal_diff_gets_the_width_and_rows_at_80x24,
    versions_layout_key_visibly_switches,
    maintenance_keeps_task_status_next_first_and_in_place,
    the_header_shortens_both_places_in_the_middle,
)


def test_the_80x24_walk(drive):
    """The steps of ``NARROW_WALK`` in order, on one app started at 80x24 (a failure names
    its step in the traceback)."""

    async def flow(pilot, app):
        for step in NARROW_WALK:
            await step(pilot, app)

    drive(flow, size=NARROW)


@pytest.mark.parametrize("size", [NARROW, (120, 40)])
def test_the_trash_tables_headers_are_whole_beside_the_preview(drive, size):
    """With the rows fitting (no vertical scrollbar), the cells kept for one showed the next
    column's first letter at the table's edge: a header "t" beside the preview."""
    from memsearch_tui.tui.panes.trash_pane import TrashPane

    async def flow(pilot, app):
        await pilot.press("4")
        await settle(pilot, app)
        table = app.query_one("#trash-table")
        x, width = table.region.x, table.region.width
        header = next(line for line in screen_lines(app) if "title" in line and "purge in" in line)
        cells = header[x : x + width]
        shown_names = [w for w in re.split(r"\s{2,}", cells.strip("▌ ")) if w]
        assert shown_names and all(n in TrashPane.TRASH_COLUMNS for n in shown_names), cells

    drive(flow, size=size)
