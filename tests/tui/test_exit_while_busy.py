"""The app exits while a pane is still being made, or while a pane's worker still runs: quiet.

``tui_keys.py --first --only 2`` on 10,000 journal days crashed at Pilot's teardown: the
idle chain (``make_panes_ahead``) was mounting the Trash and Maintenance panes when the
app closed, Textual took their children down before their own Mount, and their
``on_mount`` queried those children (NoMatches, exit code 1). ``q`` waits for panes being
mounted, but any other way out (Pilot's teardown here, the app's ``exit``) did not. A
worker's answer (``call_from_thread``) landing while the app was being taken down did the
same. Each test exits without ``q``, at once.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path

import pytest

from memsearch_tui.tui.actions import PANES
from memsearch_tui.tui.panes.trash_pane import TrashData, TrashPane
from tests.helpers import make_app, run_flow, settle

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.parametrize("pid", [spec.id for spec in PANES[1:]])  # the first is made with the app
def test_a_pane_made_as_the_app_exits_is_quiet(drive, pid) -> None:
    """A pane asked for (its key, the idle chain, a jump) and the app exiting before it is
    mounted: no NoMatches from its set-up (Trash, Maintenance and Search raised one)."""

    async def flow(pilot, app):
        app.pane(pid)  # mounting begins; the flow ends at once: the app exits

    app = drive(flow)
    assert app.errors == []
    assert app.return_code in (None, 0)


def _journal(tmp_path: Path, days: int) -> tuple[Path, Path]:
    """A generated journal of ``days`` days, two turns a day (benchmarks/journal_gen.py)."""
    sys.path.insert(0, str(BENCH))
    try:
        import journal_gen
    finally:
        sys.path.remove(str(BENCH))
    journal_gen.generate(tmp_path / "corpus", days * 2, per_day=2)
    return tmp_path / "corpus" / "memory", tmp_path / "corpus" / "project"


def test_quitting_at_once_after_the_journal_key_on_a_big_journal(tmp_path) -> None:
    """The bench's path: ``2`` on a big journal, the idle chain making the next panes, the
    app exiting at once (the chain was making the Trash pane: NoMatches at exit)."""
    root, project = _journal(tmp_path, 400)

    async def flow(pilot, app):
        await pilot.press("2")
        await pilot.press("3")  # the chain's next pane is then the Trash
        await settle(pilot, app)
        assert app.query_one("#tabs").active == "versions"
        app.make_panes_ahead()  # as its timer does, 2 s after the start

    app = run_flow(make_app((root, project)), flow)
    assert app.errors == []
    assert "trash" in app._panes  # the chain did begin the Trash pane before the exit


def test_a_load_answering_after_the_app_began_to_exit_is_not_drawn(drive, monkeypatch) -> None:
    """A pane's load still running when the app exits: its answer came back through
    ``call_from_thread`` while the app was taking the pane down, and ``apply`` drew into it
    (or found its table gone: NoMatches, reported as an unexpected error). Not drawn now."""
    answered = threading.Event()
    applied: list[TrashData] = []
    real_apply = TrashPane.apply

    def slow_load(self: TrashPane) -> TrashData:
        app, deadline = self.app, time.monotonic() + 20
        while app.is_running and time.monotonic() < deadline:  # answers once the app began to exit
            time.sleep(0.001)
        answered.set()
        return TrashData()

    def apply(self: TrashPane, data: TrashData) -> None:
        applied.append(data)
        real_apply(self, data)

    monkeypatch.setattr(TrashPane, "load", slow_load)
    monkeypatch.setattr(TrashPane, "apply", apply)

    async def flow(pilot, app):
        await pilot.press("4")  # the Trash pane: its load waits in its worker
        assert app.pane("trash").is_mounted and not answered.is_set()

    app = drive(flow)
    assert answered.wait(20), "the load never answered"
    assert app.errors == []
    assert applied == []


def test_a_worker_answer_for_a_closed_dialog_is_not_run(drive) -> None:
    """``call_while_shown`` runs a worker's answer while its dialog is up, and not once the
    dialog is closed (its widgets are being taken down: the answer's query would fail)."""
    from textual.screen import ModalScreen
    from textual.widgets import Static

    from memsearch_tui.tui.from_thread import call_while_shown

    class Dialog(ModalScreen[None]):
        def compose(self):
            yield Static("请稍候 [b]…", id="dialog-text", markup=False)

    async def flow(pilot, app):
        dialog, ran = Dialog(), []
        await app.push_screen(dialog)
        answer = lambda: ran.append(dialog.query_one("#dialog-text"))  # noqa: E731
        await asyncio.to_thread(call_while_shown, dialog, answer)
        assert len(ran) == 1
        dialog.dismiss()
        await pilot.pause()
        await asyncio.to_thread(call_while_shown, dialog, answer)
        assert len(ran) == 1 and app.errors == []

    drive(flow)
