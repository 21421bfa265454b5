"""A face that ends while it serves the hook's upkeep stops that build at its next batch.

The app (or the MCP server) owns the project's warm index and runs the hook's upkeep pass
in its owner thread, under the warm lock (:mod:`memsearch_tui.engine.api.warm_share`). Its
exit (``stop_sharing``, then closing the searcher) waited for that whole pass. Now the pass
stops at its next batch, the owner's socket is gone at once, so the next face owns the
index, and its index run completes the build to what a clean one makes (EN and ZH).
"""

from __future__ import annotations

import os
import threading

import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.search.owner_wire import notify_upkeep
from tests.held_build import EXIT_WAIT, HELD, HeldEncoder, assert_completed_as_clean, hold_builds, journal_memory


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_owner_ending_during_the_hooks_upkeep_stops_it_and_the_next_face_completes_it(
    tmp_path, monkeypatch, lang
) -> None:
    root, project = journal_memory(tmp_path, lang)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    enc = HeldEncoder()
    hold_builds(monkeypatch, enc)
    app = Memory(root, project, share=True)
    app.search.query("cache", strategy="index")  # its first indexed search: it owns the index now
    assert app.warm.owner is not None
    assert notify_upkeep(*app.warm.where(app)) == os.getpid()  # the hook hands its pass over
    assert enc.started.wait(EXIT_WAIT), "the upkeep never began embedding"

    def exit_app() -> None:  # what the app's exit does, in its order
        app.search.stop_sharing()
        app.search.release()

    ended = threading.Thread(target=exit_app, daemon=True)
    ended.start()
    ended.join(EXIT_WAIT)
    try:
        assert not ended.is_alive(), "the face's exit waited for the whole upkeep pass"
    finally:
        enc.go.set()
        ended.join(HELD)
    assert enc.calls in (1, 2), enc.calls
    with Memory(root, project, share=True) as next_face:  # the dead owner's place is free
        next_face.search.query("cache", strategy="index")
        assert next_face.warm.owner is not None
        next_face.search.stop_sharing()
    assert_completed_as_clean(tmp_path, root, project, monkeypatch, enc)
