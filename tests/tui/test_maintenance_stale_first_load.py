"""The Maintenance pane's two-step first load and a reload meanwhile: a cancelled first load never
draws its "checking…" rows over the newer load's (review, session 19)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from tests.helpers import SIZE, make_app, settle, until
from tests.tui.test_pane_first_visits import _memory

pytestmark = pytest.mark.slow


def test_a_cancelled_first_load_does_not_draw_checking_over_a_newer_load(tmp_path: Path, monkeypatch) -> None:
    """The first load's quick answer is slow (10,000 days' proposals, a loaded machine);
    meanwhile the pane reloads (a file changed, a write): the first worker is cancelled and
    the new one draws its quick rows, then the full ones. The old worker's quick answer,
    arriving last, must not be drawn: it says "checking…" and its own second draw is never
    made (cancelled), so the pane said "checking…" until the next reload."""
    from memsearch_tui.tui.panes import maintenance_pane as mp

    root, project = _memory(tmp_path)
    (project / ".memsearch.toml").write_text("[plugins.claude-code.project_review]\nenabled = true\n", encoding="utf-8")
    gate, entered = threading.Event(), threading.Event()
    real = mp.MaintenancePane.load
    calls: list[bool] = []
    runs: list[threading.Event] = []  # each load worker's end
    body = mp.MaintenancePane._load_then_apply

    def load_then_apply(self) -> None:  # type: ignore[no-untyped-def]
        runs.append(threading.Event())
        ended = runs[-1]
        try:
            body(self)
        finally:
            ended.set()

    monkeypatch.setattr(mp.MaintenancePane, "_load_then_apply", load_then_apply)

    def load(self, *, check_input: bool = True):  # type: ignore[no-untyped-def]
        calls.append(check_input)
        data = real(self, check_input=check_input)
        if len(calls) == 1:  # the first worker's quick answer is late
            entered.set()
            gate.wait(60)
        return data

    monkeypatch.setattr(mp.MaintenancePane, "load", load)

    def nexts(app) -> list[str]:  # type: ignore[no-untyped-def]
        table = app.pane("maintenance").query_one("#tasks")
        return [str(table.get_row(k)[2]) for k in table.rows]

    async def main() -> tuple[list[str], list[str]]:
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("5")
            await until(pilot, entered.is_set, "the first load began")
            app.pane("maintenance").reload()  # a file changed: the first worker is cancelled
            await until(pilot, lambda: nexts(app) and mp.CHECKING not in nexts(app), "the new load's full rows")
            await settle(pilot, app)
            before = nexts(app)
            gate.set()  # the old worker's quick answer arrives now
            await until(pilot, runs[0].is_set, "the old worker's end")
            await settle(pilot, app)
            return before, nexts(app)

    try:
        before, after = asyncio.run(main())
    finally:
        gate.set()
    assert mp.CHECKING not in before
    assert after == before  # s19-integ: the old quick rows drawn last, "checking…" for good
