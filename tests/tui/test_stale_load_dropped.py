"""A pane's load that a reload superseded is never drawn over the newer one (every pane whose
worker answers through ``Pane.apply_from_thread``; review, session 19). The older worker is
cancelled on the UI thread when the reload starts; its answer, arriving after the newer
one's, used to be drawn last and stay: here the Journal would lose the day an agent had
just written, until the next reload."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from tests.helpers import SIZE, make_app, settle, until

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("day_text", ["- Rolled the deploy back", "- 回滚了这次部署"])
def test_an_older_load_arriving_last_is_not_drawn(demo: tuple[Path, Path], monkeypatch, day_text: str) -> None:
    from memsearch_tui.tui.panes import journal_pane as jp

    root, project = demo
    real = jp.JournalPane.load
    gate, entered = threading.Event(), threading.Event()
    calls: list[int] = []
    runs: list[threading.Event] = []
    body = jp.JournalPane._load_then_apply

    def load_then_apply(self) -> None:  # type: ignore[no-untyped-def]
        runs.append(threading.Event())
        ended = runs[-1]
        try:
            body(self)
        finally:
            ended.set()

    def load(self):  # type: ignore[no-untyped-def]
        calls.append(1)
        data = real(self)
        if len(calls) == 1:  # the first load's answer is late (a big journal, a loaded machine)
            entered.set()
            gate.wait(60)
        return data

    monkeypatch.setattr(jp.JournalPane, "_load_then_apply", load_then_apply)
    monkeypatch.setattr(jp.JournalPane, "load", load)
    new_day = project / ".memsearch" / "memory" / "2031-05-05.md"

    def names(app) -> list[str]:  # type: ignore[no-untyped-def]
        return [p.name for p in app.pane("journal")._data or []]

    async def main() -> tuple[list[str], list[str]]:
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("2")
            await until(pilot, entered.is_set, "the first load began")
            new_day.write_text(f"## Session 09:00\n\n{day_text}\n", encoding="utf-8")
            app.pane("journal").reload()  # an agent wrote a day: the first worker is cancelled
            await until(pilot, lambda: new_day.name in names(app), "the newer load's rows")
            before = names(app)
            gate.set()  # the older answer arrives now
            await until(pilot, runs[0].is_set, "the older worker's end")
            await settle(pilot, app)
            return before, names(app)

    try:
        before, after = asyncio.run(main())
    finally:
        gate.set()
    assert new_day.name in before
    assert after == before  # before the fix: the older list, without the new day, drawn last
