"""Pilot: a journal file changing while ctrl+o builds the vectors leaves the app answering.

The Search pane tells its warm searcher on the UI thread that files changed; that call
waited for the searcher's lock, which the build holds for the whole embedding, and the app
froze for minutes (trial #3). The build here is real up to its embedding, which a
stand-in holds (``tests/search/test_invalidate_during_build.py``); the app must switch
panes on ``1`` while it is still held, and the appended line is searchable after it.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from memsearch_tui.engine.search import Searcher, searcher
from memsearch_tui.tui.app import REFRESH_DELAY
from memsearch_tui.tui.watch import FilesChanged
from tests.helpers import SIZE, make_app, settle, until
from tests.tui.test_journal_curate import _setup

HELD = 20.0  # seconds the stand-in holds the embedding at most: a frozen app answers only after


class _NoVectors:
    def close(self) -> None:
        pass


def test_a_file_change_during_the_build_does_not_freeze_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    root, project, day = _setup(tmp_path)
    embedding, go = threading.Event(), threading.Event()
    gave_up: list[bool] = []

    def held_sync_vectors(*a: object, **kw: object) -> tuple[int, int]:
        embedding.set()
        if not go.wait(HELD):
            gave_up.append(True)  # the app never answered while the build was held
        return 0, 0

    monkeypatch.setattr(searcher, "sync_vectors", held_sync_vectors)
    monkeypatch.setattr(Searcher, "_open_vectors", lambda self: _NoVectors())

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("6")
            await settle(pilot, app)
            await pilot.press("ctrl+o")
            await until(pilot, embedding.is_set, "the build's embedding")
            with day.open("a", encoding="utf-8") as f:
                f.write("- appended by agent: zebrafish tank 斑马鱼缸\n")
            app.post_message(FilesChanged({day}))
            await pilot.pause(REFRESH_DELAY * 2)  # the coalesced refresh runs
            await pilot.press("1")
            await until(pilot, lambda: app.query_one("#tabs").active == "index", "the Index shown", limit=HELD * 2)
            assert gave_up == [], "the app answered only after the build let go"
            go.set()
            await settle(pilot, app)
            warm = app.ctx.mem.warm.searcher
            for word in ("zebrafish", "斑马鱼缸"):
                hits = warm.search(word, strategy="index", k=5).hits
                assert {Path(h.path).name for h in hits} == {day.name}, word
            assert app.errors == []

    try:
        asyncio.run(flow())
    finally:
        go.set()
