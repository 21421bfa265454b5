"""Quitting the app while the vector index is built ends within a batch, and loses nothing.

The Search pane's exit closed the warm searcher, which waited for the lock the build held
to its end: minutes on a big memory, for someone who pressed q. The build now stops at its
next batch (``mem.search.stop_building``), everything embedded so far committed, and the
next index run completes it to the index a clean build makes (same chunk ids, each once).

The build is real (files listed and chunked, the manifest and Milvus Lite written); the
encoder is a stand-in, a vector from each text's hash (the model is not what is tested),
held in its embedding step: its second batch is in flight when the app begins to close the
searcher, and every later batch waits as a long build's would.
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from tests.held_build import EXIT_WAIT, HELD, HeldEncoder, assert_completed_as_clean, hold_builds, journal_memory
from tests.helpers import make_app, run_flow, settle


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_quitting_during_a_build_ends_at_once_and_the_next_index_completes_it(tmp_path, monkeypatch, lang):
    root, project = journal_memory(tmp_path, lang)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    enc = HeldEncoder()
    hold_builds(monkeypatch, enc)

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        app.query_one("#pane-search").action_build_index()
        assert await asyncio.to_thread(enc.started.wait, EXIT_WAIT), "the build never began embedding"
        # the flow ends: the app exits, its build in its embedding step

    app = make_app((root, project))
    run = threading.Thread(target=run_flow, args=(app, flow), daemon=True)
    run.start()
    run.join(EXIT_WAIT)
    try:
        assert not run.is_alive(), "quitting waited for the whole vector build"
    finally:
        enc.go.set()  # on the old code: let the build end, and the app with it
        run.join(HELD)
    assert app.errors == []
    assert enc.calls in (1, 2), enc.calls  # stopped at the batch in flight (or just before it)

    assert_completed_as_clean(tmp_path, root, project, monkeypatch, enc)
