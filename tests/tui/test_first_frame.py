"""The first frame waits only for what it shows (issue 37 item 5: first paint ≤ 2× a bare
Textual app at 100k entries): the app composes the first pane alone; each other pane is
imported, built and mounted when first shown, and then works as before. Timings are in
benchmarks/tui_bench.py; here, what is imported and composed, and when."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from memsearch_tui.tui.actions import PANES
from memsearch_tui.tui.panes.base import Pane
from tests.helpers import settle, until

pytestmark = pytest.mark.slow

# the app started as a user starts it, up to its first frame (the Index's tree drawn);
# then which of our modules were imported by then
FIRST_FRAME = """
import asyncio, json, sys
from pathlib import Path
from memsearch_tui.tui.app import MemsearchApp

async def main():
    app = MemsearchApp(Path(sys.argv[1]), Path(sys.argv[2]), watch_files=False, remember_theme=False,
                       prepare_index=False)
    async with app.run_test(size=(100, 30)) as pilot:
        tree = app.query_one("#index-tree")
        while not tree.root.children:
            await pilot.pause(0.01)
        mods = sorted(m for m in sys.modules if m.startswith(("memsearch_tui", "markdown_it", "textual.widgets")))
        panes = sorted(p.id for p in app.query(".pane"))
        records = sorted(
            name for m in mods if m.startswith("memsearch_tui.engine.api.")
            for name, v in vars(sys.modules[m]).items() if isinstance(v, type) and v.__module__ == m
            and hasattr(v, "__dataclass_fields__")
        )
    print(json.dumps({"modules": mods, "panes": panes, "records": records}))

asyncio.run(main())
"""


def test_the_first_frame_imports_and_composes_the_first_pane_only(demo) -> None:
    root, project = demo
    out = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME, str(root), str(project)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["panes"] == [f"pane-{PANES[0].id}"]
    hidden = {spec.cls.partition(":")[0] for spec in PANES[1:]}
    assert hidden.isdisjoint(seen["modules"]), sorted(hidden & set(seen["modules"]))
    # the app opens on a category: no entry body to draw, so no Markdown widget nor its
    # parser; no dialog is open (their module, Textual's TextArea); the keymap is read from
    # the config without the maintenance tasks
    shown_later = {
        "markdown_it",
        "textual.widgets._markdown",
        "memsearch_tui.tui.modals",
        "textual.widgets._text_area",
        "memsearch_tui.engine.maintenance",
        # no proposal is read: the agent-memory target check is imported when one is
        # (tests/agent_memory/test_curate.py: a fresh process still checks it)
        "memsearch_tui.engine.agent_memory.curate",
        "memsearch_tui.engine.review.proposals",
        "memsearch_tui.tui.screens.first_run",  # a store exists: no first-run screen
        "textual.widgets._data_table",  # no table on the Index
    }
    assert shown_later.isdisjoint(seen["modules"]), sorted(shown_later & set(seen["modules"]))
    # Each frozen dataclass costs ~1 ms of generated methods to create: the records one noun
    # makes (the journal's days, versions, an import's result, a proposal's review…) are
    # defined in that noun's module and built when it is first used, not by ``types``'s
    # import at start (it built all 32)
    built = set(seen["records"])
    assert {"EntrySummary", "FullEntry"} <= built  # what the Index draws
    not_shown = {"JournalDay", "JournalTurn", "JournalChange", "Version", "VersionText", "OpenConflict", "ImportResult"}
    not_shown |= {"ProposalReview", "StoreMove", "LifecycleForecast", "IndexReport", "IndexRefresh", "MemsearchScrub"}
    assert built.isdisjoint(not_shown), sorted(built & not_shown)


def test_an_entry_body_shown_while_its_widget_mounts_is_the_one_drawn(drive) -> None:
    """The body's Markdown widget is made for the first entry shown; a second entry shown
    before it is mounted is the one drawn, not the first."""

    async def flow(pilot, app):
        assert not app.query("#entry-body")  # a category is shown: no body widget yet
        index = app.pane("index")
        index.select_entry("preferences/editor-setup")
        index.select_entry("decisions/postgres-16-in-production")  # the same tick
        await settle(pilot, app)
        body = app.query_one("#entry-body")
        assert "Postgres" in body.source and "Neovim" not in body.source
        index.select_entry("preferences/editor-setup")  # mounted: drawn at once
        await settle(pilot, app)
        assert "Neovim" in body.source

    drive(flow)


def test_a_pane_is_mounted_when_first_shown_and_then_works(drive) -> None:
    async def flow(pilot, app):
        assert [p.pane_id for p in app.query(Pane)] == [PANES[0].id]
        assert not app.query("#journal-tree")  # the Journal's widgets do not exist yet
        await pilot.press("2")
        await until(pilot, lambda: app.query_one("#tabs").active == "journal", "the Journal shown")
        await settle(pilot, app)
        journal = app.pane("journal")
        assert journal.is_mounted and journal.loaded
        assert app.query_one("#journal-tree").root.children  # its days, drawn
        assert sorted(p.pane_id for p in app.query(Pane)) == ["index", "journal"]  # no other pane made
        await pilot.press("1")
        await until(pilot, lambda: app.query_one("#tabs").active == "index", "the Index shown again")

    drive(flow)


def test_the_palette_lists_a_pane_s_actions_before_that_pane_is_made(drive) -> None:
    """The command palette asks each pane what it can do: a pane never shown is not made
    for that (it offers everything, as one made but never shown does)."""

    async def flow(pilot, app):
        commands = [c.title for c in app.get_system_commands(app.screen)]
        assert any(title.startswith("Trash: ") for title in commands)
        assert [p.pane_id for p in app.query(Pane)] == [PANES[0].id]

    drive(flow)


def test_the_other_panes_are_made_while_idle_after_start(drive) -> None:
    """A user's first key on a pane finds it mounted: after start the app makes the other
    panes while idle, one at a time (``panes_ahead``; the test scaffold turns it off)."""

    async def flow(pilot, app):
        await until(pilot, lambda: len(app.query(Pane)) == len(PANES), "every pane made and mounted")
        await settle(pilot, app)
        assert [p.pane_id for p in app.panes()] == [spec.id for spec in PANES]
        assert app.query_one("#tabs").active == PANES[0].id  # made, not shown
        assert not any(p.loaded for p in app.panes()[1:])  # nor loaded before it is shown
        assert app.errors == []

    drive(flow, panes_ahead=True)


def test_quitting_while_the_other_panes_are_made_is_quiet(drive) -> None:
    """``q`` while the idle chain is still making panes: the chain's next step ran after the
    tabs were taken down and mounting into a detached tab raised MountError, a traceback over
    the user's terminal at exit (seen in tmux, quitting ~2.6 s after open). It stops instead."""

    async def flow(pilot, app):
        app.make_panes_ahead()  # the chain: one pane per refresh
        await pilot.press("q")

    app = drive(flow)
    assert app.return_code == 0 and app.errors == []


@pytest.mark.parametrize(("size", "classes"), [((120, 40), {"-wide", "-tall"}), ((80, 24), {"-narrow", "-short"})])
def test_the_screen_is_styled_once_before_its_first_frame(demo, monkeypatch, size, classes) -> None:
    """The screen is made with its size classes (``-wide``, ``-short``…): Textual set them at
    its first Resize, after it had been styled and drawn, and every widget was styled, laid
    out and drawn again before the first frame settled. Each widget is styled as it mounts;
    Textual's restyle of the whole screen at its first show (~14 ms at 100k) is not done."""
    from textual.app import App
    from textual.css.stylesheet import Stylesheet
    from textual.screen import Screen

    from tests.helpers import make_app, run_flow

    styled: list[str] = []
    restyled: list[str] = []
    real_apply, real_update = Stylesheet.apply, App.update_styles

    def apply(self, node, *args, **kwargs):
        if isinstance(node, Screen):
            styled.append(" ".join(sorted(node.classes)))
        return real_apply(self, node, *args, **kwargs)

    def update_styles(self, node, animate=True):
        if isinstance(node, Screen):
            restyled.append(" ".join(sorted(node.classes)))
        return real_update(self, node, animate)

    monkeypatch.setattr(Stylesheet, "apply", apply)
    monkeypatch.setattr(App, "update_styles", update_styles)

    async def flow(pilot, app):
        assert classes <= app.screen.classes

    run_flow(make_app(demo), flow, size)
    assert restyled == []  # not restyled at its first show
    assert len(styled) == 1 and classes <= set(styled[0].split()), styled


def test_the_index_tree_is_focused_before_it_is_first_drawn(demo, monkeypatch) -> None:
    """The Index tree took its focus (``focus()``: a ``call_later``) after its first frame was
    drawn, and the focus restyled it and made it draw its rows again (issue 37 item 5)."""
    from memsearch_tui.tui.panes.index.tree import IndexTree
    from tests.helpers import make_app, run_flow

    focused_at_draw: list[bool] = []
    real_lines = IndexTree.render_lines

    def render_lines(self, crop):
        focused_at_draw.append(self.has_focus)
        return real_lines(self, crop)

    monkeypatch.setattr(IndexTree, "render_lines", render_lines)

    async def flow(pilot, app):
        assert app.focused is app.query_one(IndexTree)

    run_flow(make_app(demo), flow)
    assert focused_at_draw and focused_at_draw[0], focused_at_draw[:3]


def test_the_index_s_full_load_starts_once_its_first_frame_is_drawn(demo, monkeypatch) -> None:
    """The Index draws the catalog's cached counts first; its full load (the catalog checked
    against every file: a thread sharing the interpreter) starts once that frame is drawn."""
    from textual.app import App

    from memsearch_tui.tui.panes.index.pane import IndexPane
    from tests.helpers import make_app, run_flow

    frames: list[object] = []
    real_display, real_load = App._display, IndexPane.load
    monkeypatch.setattr(
        App, "_display", lambda app, screen, update: (frames.append(update), real_display(app, screen, update))
    )
    drawn_before: list[int] = []

    def load(self):
        drawn_before.append(len([f for f in frames if f is not None]))
        return real_load(self)

    monkeypatch.setattr(IndexPane, "load", load)

    async def flow(pilot, app):
        assert app.pane("index").model.total > 0 and not app.pane("index").model.partial

    run_flow(make_app(demo), flow)
    assert drawn_before and drawn_before[0] >= 1, drawn_before


def test_the_index_s_first_counts_are_read_off_the_ui_thread(demo, monkeypatch) -> None:
    """The catalog's cached counts (the Index's first frame) are read on a thread of their
    own while Textual mounts the app, and drawn as before."""
    import threading

    from memsearch_tui.engine.api.entries import Entries
    from tests.helpers import make_app, run_flow

    readers: list[str] = []
    real = Entries.cached_tally

    def cached_tally(self):
        readers.append(threading.current_thread().name)
        return real(self)

    monkeypatch.setattr(Entries, "cached_tally", cached_tally)

    async def flow(pilot, app):
        assert app.pane("index").model.total > 0

    run_flow(make_app(demo), flow)
    assert readers == ["index counts"], readers


def test_a_tree_frame_computes_its_style_once(drive, monkeypatch) -> None:
    """Textual's Tree asked for its ``rich_style`` (a walk up every ancestor) once per line
    drawn; the app's trees ask once per frame, and draw the same lines."""
    from textual.dom import DOMNode
    from textual.geometry import Region

    async def flow(pilot, app):
        tree = app.query_one("#index-tree")
        region = Region(0, 0, tree.size.width, tree.size.height)
        tree.refresh()  # drawn afresh, not from Textual's cache of the lines last drawn
        before = [strip.text for strip in tree.render_lines(region)]
        walks: list[object] = []
        real = DOMNode.rich_style

        def counted(node):
            if node is tree:
                walks.append(node)
            return real.fget(node)

        monkeypatch.setattr(DOMNode, "rich_style", property(counted))
        tree.refresh()
        lines = tree.render_lines(region)
        monkeypatch.undo()
        assert len(lines) == tree.size.height > 20
        assert len(walks) == 1, len(walks)
        assert [strip.text for strip in lines] == before

    drive(flow)


def test_the_index_tree_draws_each_row_once_before_its_first_frame(demo, monkeypatch) -> None:
    """The Index tree's first Resize comes after its first draw; Textual's ``Tree`` forgot
    every row then (and laid itself out again), so each row was drawn twice before the first
    frame settled (~31 ms at 100k entries, issue 37 item 5). A row's label is made to draw a
    row not kept (and to measure the tree's width: not counted), so the labels made while
    drawing are the rows drawn. The full load (which fills the tree again, each new node
    drawn once) waits until the first frame has settled: landing before the Resize, it hid
    the second draw."""
    import threading

    from memsearch_tui.tui.panes.index.pane import IndexPane
    from memsearch_tui.tui.panes.index.tree import IndexTree
    from tests.helpers import SIZE, make_app, refreshed

    drawing: list[str] = []
    drawn: list[object] = []  # the nodes (kept alive: compared by identity)
    real_lines, real_label, real_width = IndexTree.render_lines, IndexTree.render_label, IndexTree.get_label_width

    def within(what, real):
        def spy(self, *args):
            drawing.append(what)
            try:
                return real(self, *args)
            finally:
                drawing.pop()

        return spy

    def render_label(self, node, base_style, style):
        if drawing[-1:] == ["draw"]:
            drawn.append(node)
        return real_label(self, node, base_style, style)

    monkeypatch.setattr(IndexTree, "render_lines", within("draw", real_lines))
    monkeypatch.setattr(IndexTree, "get_label_width", within("measure", real_width))
    monkeypatch.setattr(IndexTree, "render_label", render_label)
    settled, real_load = threading.Event(), IndexPane.load
    monkeypatch.setattr(IndexPane, "load", lambda self: (settled.wait(30), real_load(self))[1])

    async def main() -> None:
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            tree = app.query_one(IndexTree)
            await until(pilot, lambda: tree.root.children, "the tree filled")
            await refreshed(pilot, app)
            await refreshed(pilot, app)
            settled.set()
            await settle(pilot, app)

    asyncio.run(main())
    twice = [str(node.label) for i, node in enumerate(drawn) if any(node is n for n in drawn[:i])]  # type: ignore[attr-defined]
    assert drawn and twice == [], twice


def test_a_kept_tree_draws_its_rows_again_only_when_their_room_changes() -> None:
    """``LinesKept`` keeps its line list and rows through a resize: a taller window draws no
    row again (nor measures one: the list was measured at this room); a narrower one draws the rows at their new room and measures the tree's
    virtual width again (a label cut to its room: the Index's entries), so the scrollbars
    follow (a stale width drew a horizontal scrollbar over the last row at 80×24)."""
    from textual.app import App

    from memsearch_tui.tui.textual_private import LinesKept
    from tests.textual_private import screen_strips

    drawn: list[str] = []

    class Cut(LinesKept[str]):
        def render_label(self, node, base_style, style):
            drawn.append(str(node.label))
            text = super().render_label(node, base_style, style)
            room = self.scrollable_content_region.width - 4  # less a child's guides
            if room > 0:
                text.truncate(room)
            return text

    class Days(App[None]):
        def compose(self):
            yield Cut("日子 days", id="days")

    async def flow() -> None:
        app = Days()
        async with app.run_test(size=(40, 8)) as pilot:
            tree = app.query_one(Cut)
            for i in range(3):
                tree.root.add_leaf(f"第{i}天 day {i} with a long title")
            tree.root.expand()
            await pilot.pause()
            assert tree.virtual_size.width > 30
            await pilot.resize_terminal(40, 9)  # the new list measured at its room
            await pilot.pause()
            drawn.clear()
            await pilot.resize_terminal(40, 10)
            await pilot.pause()
            assert drawn == []  # the same room: every row kept
            await pilot.resize_terminal(16, 10)
            await pilot.pause()
            assert drawn and tree.virtual_size.width <= 16  # measured again at the new room
            rows = [strip.text for strip in screen_strips(app)]
            assert any("第1天" in row for row in rows) and not tree.show_horizontal_scrollbar, rows

    asyncio.run(flow())


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
def test_the_main_screen_is_laid_out_once_for_its_first_frame(demo, monkeypatch, size) -> None:
    """The screen's first layout hands each widget its virtual size, which asks for a layout,
    and the widgets' asks from mounting were handled after it: Textual laid the whole screen
    out again once the first frame was drawn, to the same boxes (issue 37 item 5). Now once
    until the screen has settled (the full load, which fills the tree again, held until
    then); the frame is drawn as before (the snapshots at both sizes: ``test_snapshots.py``)."""
    import threading

    from memsearch_tui.tui.panes.index.pane import IndexPane
    from tests.helpers import make_app, refreshed
    from tests.textual_private import count_layouts

    layouts = count_layouts(monkeypatch)
    settled, real_load = threading.Event(), IndexPane.load
    monkeypatch.setattr(IndexPane, "load", lambda self: (settled.wait(30), real_load(self))[1])
    before_load: list[list[bool]] = []

    async def main() -> None:
        app = make_app(demo)
        async with app.run_test(size=size) as pilot:
            tree = app.query_one("#index-tree")
            await until(pilot, lambda: tree.root.children, "the tree filled")
            await refreshed(pilot, app)
            await refreshed(pilot, app)
            await pilot.pause(0.05)
            before_load.append([scroll for _screen, scroll in layouts])
            settled.set()
            await settle(pilot, app)

    asyncio.run(main())
    assert before_load == [[False]], before_load
