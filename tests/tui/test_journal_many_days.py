"""The Journal pane with many days draws only what is on screen (issue 37: 10,000 days took
1.6 s on its key): a day is read for its counts once its row is drawn, no label is drawn
only to be measured, and the rows beyond the first slice are made after the first frame.
Scrolled to the end, the oldest day is there with its counts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, timedelta
from pathlib import Path

import pytest

from memsearch_tui.engine.api.journal import Journal
from memsearch_tui.engine.store.store import Store
from memsearch_tui.tui.panes import journal_pane
from memsearch_tui.tui.widgets.fitted_tree import FittedTree
from tests.helpers import SIZE, make_app, screen_lines, settle

pytestmark = pytest.mark.slow  # starts the whole app

DAYS = 450


def _day(when: date, i: int) -> str:
    words = "修复了登录测试的竞争条件" if i % 2 else "fixed the flaky login test"
    return (
        f"# {when.isoformat()}\n\n## Session 09:00\n\n"
        f"### 09:00\n<!-- session:s{i} turn:1 -->\n- {words}\n\n"
        f"### 09:30\n<!-- session:s{i} turn:2 -->\n- 加了回归测试 added a regression test\n"
    )


def _many_days(tmp_path: Path) -> tuple[Path, Path, date]:
    root, project = tmp_path / "memory", tmp_path / "proj"
    Store(root).init()
    folder = project / ".memsearch" / "memory"
    folder.mkdir(parents=True)
    (project / ".git").mkdir()
    newest = date(2026, 11, 30)
    for i in range(DAYS):
        when = newest - timedelta(days=i)
        (folder / f"{when.isoformat()}.md").write_text(_day(when, i), encoding="utf-8")
    return root, project, newest - timedelta(days=DAYS - 1)


@asynccontextmanager
async def _journal_shown(root: Path, project: Path) -> AsyncIterator[tuple]:
    """The app started on this memory, settled, with the Journal pane shown by its key."""
    app = make_app((root, project), remember_theme=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("2")
        await settle(pilot, app)
        yield app, pilot


def test_the_journal_key_reads_and_draws_only_the_days_on_screen(tmp_path, monkeypatch):
    root, project, oldest = _many_days(tmp_path)
    monkeypatch.setattr(journal_pane, "DAY_SLICE", 100)  # several slices made after the first frame
    read: list[Path] = []
    real_read = Journal.read

    def spy_read(self, path):
        read.append(Path(path))
        return real_read(self, path)

    monkeypatch.setattr(Journal, "read", spy_read)
    drawn: list[str] = []
    real_label = FittedTree.render_label

    def spy_label(self, node, base_style, style):
        drawn.append(node.data.path.stem if node.data is not None else "")
        return real_label(self, node, base_style, style)

    monkeypatch.setattr(FittedTree, "render_label", spy_label)

    async def flow():
        async with _journal_shown(root, project) as (app, pilot):
            tree = app.query_one("#journal-tree")
            assert len(tree.root.children) == DAYS  # every day is listed
            rows = tree.size.height
            # the days on screen were read for their counts, not all 450 (the old pane read each)
            assert 0 < len(set(read)) <= rows + 2, len(set(read))
            # no label drawn only to measure it (Tree drew all 450 at each rebuild of its lines)
            assert len(drawn) < DAYS, len(drawn)
            assert any("2026-11-30  2 turns" in r for r in screen_lines(app))
            await pilot.press("end")
            await settle(pilot, app)
            lines = screen_lines(app)
            assert any(f"{oldest.isoformat()}  2 turns" in r for r in lines), lines
            assert oldest.isoformat() in {p.stem for p in read}
            assert len(set(read)) < DAYS // 2, len(set(read))  # the screens drawn, not every day between

    asyncio.run(flow())


def test_a_day_beyond_the_first_slice_opens_at_once(tmp_path, monkeypatch):
    """A search hit or a chart day far down (``open_at``) is there before the rest are made."""
    root, project, oldest = _many_days(tmp_path)
    monkeypatch.setattr(journal_pane, "DAY_SLICE", 50)

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("2")
            await settle(pilot, app)
            pane = app.query_one("#pane-journal")
            pane.pending_open = (project / ".memsearch" / "memory" / f"{oldest.isoformat()}.md", 0)
            pane.reload()  # as a search hit's jump to a day does, or a file change while it waits
            await settle(pilot, app)
            node = app.query_one("#journal-tree").cursor_node
            assert node is not None and node.data.path.stem == oldest.isoformat()
            assert node.is_expanded and [c.data.kind for c in node.children] == ["session"]

    asyncio.run(flow())


def test_day_rows_are_made_without_splitting_their_labels(tmp_path, monkeypatch):
    """``Tree.process_label`` split every label into lines to keep the first: a copy of each
    of the 10,000 day labels on a first visit (and again when its counts came), ~40% of
    making a row. A day's label is one line: it is kept as it is."""
    from textual.widgets import Tree

    root, project, _oldest = _many_days(tmp_path)
    split: list[str] = []
    real_process = Tree.process_label

    def spy_process(self, label):
        if isinstance(self, journal_pane.DayTree):
            split.append(str(label))
        return real_process(self, label)

    monkeypatch.setattr(Tree, "process_label", spy_process)

    async def flow():
        async with _journal_shown(root, project) as (app, pilot):
            assert len(app.query_one("#journal-tree").root.children) == DAYS
            days_split = [s for s in split if s[:4].isdigit()]
            assert days_split == [], days_split[:3]  # 5dbfd6c: each of the 450 day labels, counted ones again
            assert any("2026-11-30  2 turns" in r for r in screen_lines(app))  # the label is drawn as before

    asyncio.run(flow())
