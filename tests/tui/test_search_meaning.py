"""Issue 36 item 3 in the app: Enter ("by meaning") reaches the meaning leg when the
keyword hits are weak — the issue's example, on the demo memory with the real model."""

from __future__ import annotations

import pytest

from tests.helpers import hold_index, settle, until
from tests.search.conftest import write_entry

pytestmark = pytest.mark.slow  # the real model


def test_enter_during_the_build_shows_keyword_hits_then_meaning_and_weak_keyword_hits_reach_it(
    demo, drive, monkeypatch
):
    """The app builds the index after it opens (``prepare_index``). Enter during the build
    shows the keyword hits at once with "meaning results coming", then the meaning hits in
    their place when the build ends. The embedding waits for an event (the one stand-in:
    what is tested is the answer during the build).

    Then, on the index the build made (one real-model build for both checks: each cost
    ~4 s of CPU), the issue's example: a question whose keyword hits are weak reaches the
    meaning leg."""
    root, _ = demo
    write_entry(root, "ops/rollback", "Rollback", [], "To roll back a bad release, redeploy the previous image.\n")
    write_entry(
        root, "ops/backups", "Backups", [], "The orders Postgres is dumped every night with pg_dump, kept 30 days.\n"
    )
    go = hold_index(monkeypatch)

    async def flow(pilot, app):
        warm = app.ctx.mem.warm
        pane = app.pane("search")
        assert pane.strategy == "auto"
        await until(pilot, lambda: not warm.built.is_set(), "the build at open")
        await pilot.press("slash")
        status = app.query_one("#search-status")  # the Search pane is made by its first visit
        await pilot.press(*"how do we deploy", "enter")
        await until(pilot, lambda: "meaning results coming" in str(status.content), "the keyword hits, meaning to come")
        assert pane.hits
        go.set()
        await until(pilot, lambda: warm.built.is_set(), "the build's end")
        await settle(pilot, app)
        assert "meaning results coming" not in str(status.content)
        assert "strategy hybrid" in str(status.content) or "+hybrid" in str(status.content), str(status.content)

        # the weak keyword hits: "Rollback" (the stem "back") first by keywords, backups 4th
        app.query_one("#search-input").value = ""
        await pilot.press(*"when is the database backed up", "enter")
        await settle(pilot, app)
        assert pane.strategy == "auto"
        ids = [h.id for h in pane.hits]
        assert "ops/backups" in ids[:3], ids
        assert "ops/rollback" not in ids or ids.index("ops/backups") < ids.index("ops/rollback")

    drive(flow, prepare_index=True)


def test_enter_while_the_index_builds_shows_meaning_over_the_vectors_embedded_so_far(demo, drive, monkeypatch):
    """Issue 36 item 6: Enter at once during the build at open shows the keyword hits; as
    soon as the build has committed the vectors the question needs (its keyword leg's best
    chunks and their neighbours, embedded right after the batch under way) the pane ranks
    by meaning over the chunks embedded so far, saying so ("meaning over N of M chunks"),
    before the build ends; when it ends the full result replaces it. Before: keyword hits
    only until the end. The build waits before its first batch (two texts) is stored and
    after the next one (the one stand-in)."""
    import threading

    from memsearch_tui.engine.search import indexer
    from memsearch_tui.engine.search.manifest_vectors import VectorBook

    monkeypatch.setattr(indexer, "FIRST_BATCH", 2)
    gates = {name: (threading.Event(), threading.Event()) for name in ("store", "step")}

    def gated(name, real, after, nth=1):
        calls = []

        def run(*args):
            held, go = gates[name]
            calls.append(1)
            if after:
                real(*args)
            if not held.is_set() and len(calls) == nth:
                held.set()
                assert go.wait(120), "the test never let the build go on"
            if not after:
                real(*args)

        return run

    monkeypatch.setattr(VectorBook, "store_text_vectors", gated("store", VectorBook.store_text_vectors, False))
    monkeypatch.setattr(indexer._Progress, "step", gated("step", indexer._Progress.step, True, nth=2))

    async def flow(pilot, app):
        warm = app.ctx.mem.warm
        await until(pilot, gates["store"][0].is_set, "the build's first batch, embedded, not stored")
        await pilot.press("slash")
        status = app.query_one("#search-status")
        app.pane("search").strategy = "hybrid"
        await pilot.press(*"how do we deploy", "enter")
        try:
            await until(pilot, lambda: "meaning results coming" in str(status.content), "the keyword hits first")
            assert "meaning over" not in str(status.content) and app.pane("search").hits
            gates["store"][1].set()
            await until(pilot, lambda: "meaning over" in str(status.content), "meaning over the first vectors")
            assert "strategy hybrid" in str(status.content) and app.pane("search").hits, str(status.content)
            assert not warm.built.is_set()
        finally:
            gates["store"][1].set()
            gates["step"][1].set()
        await until(pilot, lambda: warm.built.is_set(), "the build's end")
        await settle(pilot, app)
        await until(pilot, lambda: "meaning over" not in str(status.content), "the full result")
        assert "meaning results coming" not in str(status.content) and "strategy hybrid" in str(status.content)

    drive(flow, prepare_index=True)


def test_enter_during_the_build_shows_the_final_meaning_answer_before_the_vector_store_is_filled(
    demo, drive, monkeypatch
):
    """Issue 36 item 6b: Enter at once during the build at open; once the build has embedded
    its last text the pane shows the final meaning answer (no "meaning results coming", no
    "meaning over N of M"), while the build still waits to open Milvus Lite and fill it.
    Before: the pane showed "meaning over M of M … coming" until Milvus was started, filled
    and flushed. The vector store's opening waits for an event (the one stand-in)."""
    import threading

    from memsearch_tui.engine.search.searcher import Searcher

    reached, go = threading.Event(), threading.Event()
    real_open = Searcher._open_vectors

    def held_open(self):
        reached.set()
        assert go.wait(120), "the test never let the build go on"
        return real_open(self)

    monkeypatch.setattr(Searcher, "_open_vectors", held_open)

    async def flow(pilot, app):
        warm = app.ctx.mem.warm
        await until(pilot, lambda: not warm.built.is_set(), "the build at open")
        await pilot.press("slash")
        status = app.query_one("#search-status")
        app.pane("search").strategy = "hybrid"
        await pilot.press(*"how do we deploy", "enter")
        try:
            await until(pilot, reached.is_set, "the vector store opened")
            await until(
                pilot,
                lambda: "strategy hybrid" in str(status.content) and "coming" not in str(status.content),
                "the final meaning answer",
            )
            assert "meaning over" not in str(status.content) and app.pane("search").hits
            assert not warm.built.is_set()
        finally:
            go.set()
        await until(pilot, lambda: warm.built.is_set(), "the build's end")
        assert reached.is_set()

    drive(flow, prepare_index=True)
