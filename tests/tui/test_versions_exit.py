"""The Versions pane's first load drew the catalog's list, then re-checked every
file (seconds at 100k entries). Its quick answer landing as the app exits is not drawn
(``call_while_shown``), and the worker went on to the full re-check for an app that is
gone; the app's ``run`` (``asyncio.run``) waits for the worker thread: the quit waited."""

from __future__ import annotations

import asyncio
import threading
import time

from memsearch_tui.engine.api.versions import Versions


def test_versions_quick_answer_after_exit_stops_the_worker(drive, monkeypatch) -> None:
    started, answered = threading.Event(), threading.Event()
    full: list[bool] = []
    real = Versions.versioned

    def versioned(self, *, fresh: bool = True):
        rows = real(self, fresh=fresh)
        if fresh:
            full.append(True)
        elif not answered.is_set():
            started.set()
            app, deadline = holder[0], time.monotonic() + 20
            while app.is_running and time.monotonic() < deadline:
                time.sleep(0.001)
            answered.set()
        return rows

    holder: list = []
    monkeypatch.setattr(Versions, "versioned", versioned)

    async def flow(pilot, app):
        holder.append(app)
        assert app.ctx.store_exists()
        app.pane("versions")  # made; its first load waits in its quick step until the app exits
        await pilot.press("3")
        assert await asyncio.to_thread(started.wait, 20)

    app = drive(flow)
    assert answered.is_set()
    assert full == []  # s18-integ: [True] (the whole re-check ran after the exit, and the exit waited)
    assert app.errors == []
