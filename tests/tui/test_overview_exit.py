"""The Overview's worker after the app began to exit (the quick answer comes back
while the app is being taken down): it must be quiet and do no further work."""

from __future__ import annotations

import asyncio
import threading
import time

from memsearch_tui.tui.panes.overview_pane import OverviewPane


def test_overview_quick_answer_after_exit_is_quiet_and_stops(drive, monkeypatch) -> None:
    answered, ended = threading.Event(), threading.Event()
    after: list[str] = []
    errors: list[BaseException] = []
    real_quick = OverviewPane.load_quick
    real_forecast = OverviewPane.with_cached_forecast
    real_rest = OverviewPane.load_rest
    real_run = OverviewPane._load_then_apply
    armed, started = threading.Event(), threading.Event()

    def load_quick(self):
        data = real_quick(self)
        if armed.is_set():
            started.set()
            app, deadline = self.app, time.monotonic() + 20
            while app.is_running and time.monotonic() < deadline:
                time.sleep(0.001)
            answered.set()
        return data

    def with_cached_forecast(self, quick):
        if armed.is_set():
            after.append("forecast")
        return real_forecast(self, quick)

    def load_rest(self, quick):
        if armed.is_set():
            after.append("rest")
        return real_rest(self, quick)

    def run(self):
        try:
            real_run(self)
        except BaseException as exc:
            errors.append(exc)
            raise
        finally:
            if armed.is_set():
                ended.set()

    monkeypatch.setattr(OverviewPane, "load_quick", load_quick)
    monkeypatch.setattr(OverviewPane, "with_cached_forecast", with_cached_forecast)
    monkeypatch.setattr(OverviewPane, "load_rest", load_rest)
    monkeypatch.setattr(OverviewPane, "_load_then_apply", run)

    async def flow(pilot, app):
        assert app.ctx.store_exists()
        armed.set()
        app.pane("overview").reload()  # the quick load waits in its worker until the app exits
        assert await asyncio.to_thread(started.wait, 20)

    app = drive(flow)
    assert answered.wait(20)
    assert ended.wait(20), "the worker never ended"
    assert after == [], after  # no forecast query, no full re-check for an app that is gone
    assert errors == [], errors  # nor a NoActiveAppError from the re-check's self.app
    assert app.errors == []
