"""The Index pane at scale: it counts from the catalog and reads a category's rows only
when that category is opened, so opening the app never holds a summary of every entry
(at 100k entries that was most of the app's memory: benchmarks/tui_bench.py)."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.store.store import Store
from memsearch_tui.tui.panes.index.pane import IndexPane
from tests.helpers import settle, until

pytestmark = pytest.mark.slow


def test_opening_the_index_reads_no_entry_until_a_category_is_opened(demo, drive, monkeypatch):
    from memsearch_tui.tui.panes.index import tree as tree_mod

    monkeypatch.setattr(tree_mod, "BATCH", 25)  # batches of 25 rows: a big category at a test's size
    root, _ = demo
    store = Store(root)
    for i in range(120):  # a big category, English and Chinese titles
        title = f"Deploy note {i}" if i % 2 else f"部署 笔记 {i}"
        store.add("big/inbox", title, f"Body {i}: 我们通过流水线部署。\n")
    total = len(store.list())

    async def flow(pilot, app):
        pane = app.query_one(IndexPane)
        await until(pilot, lambda: pane.loaded and not pane.model.partial, "the catalog's counts")
        await settle(pilot, app)
        assert pane.model.total == total  # the counts cover every entry …
        assert pane.model.summaries == {}  # … and not one entry was listed for them
        node = pane.tree.find_cat("big/inbox", expand=True)
        pane.tree.populate(node)
        node.expand()
        await settle(pilot, app)
        assert {c for c, rows in pane.model.entries_of.items() if rows} == {"big/inbox"}  # only the opened one was read
        assert len(pane.model.summaries) == 120
        drawn = [c for c in node.children if c.data is not None and c.data.kind == "entry"]
        assert len(drawn) == 25  # and only its first batch is drawn
        last = pane.model.rows("big/inbox")[-1].id  # the last row: found, batches loaded on the way
        assert pane.select_entry(last)
        await settle(pilot, app)
        assert pane.tree.cursor_node is not None and pane.tree.cursor_node.data.key == last

    drive(flow)


def test_the_filter_asks_the_catalog_and_finds_english_and_chinese(demo, drive):
    async def flow(pilot, app):
        pane = app.query_one(IndexPane)
        await until(pilot, lambda: pane.loaded and not pane.model.partial, "the catalog's counts")
        await settle(pilot, app)
        n = pane.tree.show_filter("ALPHA")
        assert n >= 1 and all("alpha" in s.title.casefold() or "alpha" in s.id for s in pane.model.summaries.values())
        assert pane.model.total > len(pane.model.summaries)  # hits only, never the whole store

    drive(flow)


def test_the_first_frame_walks_no_folder_and_the_empty_category_follows(demo, drive, monkeypatch):
    """Before the first frame the Index reads only the catalog's counts: the walk that also
    finds the empty categories lists every file (100k of them) and waits for the worker."""
    from memsearch_tui.engine.api.entries import Entries

    root, _ = demo
    (root / "空的 empty").mkdir()  # a category with no entry: only a walk of the folders finds it
    walks: list[bool] = []
    real = Entries.category_names
    monkeypatch.setattr(Entries, "category_names", lambda self: walks.append(True) or real(self))

    said: list[str] = []
    real_status = IndexPane.status
    monkeypatch.setattr(IndexPane, "status", lambda self, text: said.append(text) or real_status(self, text))

    async def flow(pilot, app):
        pane = app.query_one(IndexPane)
        await settle(pilot, app)
        assert "空的 empty" in pane.model.children[""] and walks  # the worker's full load walked them
        # the first frame's line gave no category count, rather than one short of the empty one
        n = pane.model.category_count()
        assert said[0] == f"{pane.model.total} entries · loading details…", said
        assert said[-1] == f"{pane.model.total} entries in {n} categories", said
        walks.clear()
        quick = pane._quick_model()  # what the first frame draws
        assert quick is not None and quick.partial and walks == []  # the counts, no walk
        assert "空的 empty" not in quick.children[""] and quick.total == pane.model.total

    drive(flow)
