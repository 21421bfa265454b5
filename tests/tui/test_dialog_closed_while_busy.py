"""A dialog closed while its worker still reads: its answer raises nothing, draws nothing.

The hygiene scan, the task detail's doctor and the undo list read in a thread worker and
sent their answer with ``self.app.call_from_thread``, whatever became of the dialog
meanwhile. Closed first (Escape before a scan of every memory ends), the dialog has no
parent: ``self.app`` in the thread raised NoActiveAppError; closed between the answer's
posting and its run, the callback's ``query_one`` found the widgets gone (NoMatches).
They answer through ``call_while_shown`` now. Each test holds the worker back until the
dialog is closed (as tests/tui/test_exit_while_busy.py holds a pane's load), then lets it
answer; each fails without the fix (NoActiveAppError raised in the worker).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from memsearch_tui.engine.api.hygiene import Hygiene
from memsearch_tui.tui import app as app_module
from memsearch_tui.tui.modals import UndoModal
from memsearch_tui.tui.screens import task_detail
from memsearch_tui.tui.screens.hygiene import HygieneScreen
from memsearch_tui.tui.screens.task_detail import TaskDetailScreen
from tests.helpers import until

pytestmark = pytest.mark.slow  # starts the whole app

WAIT = 20  # seconds: a bound on a stuck worker, never a timing claim


class HeldBack:
    """A dialog's thread worker, held back: its read waits for ``release``; ``ended`` is
    set when the worker's function returned or raised (``raised``: what it raised).
    Without the fix the answer's ``self.app`` in the thread raised NoActiveAppError (the
    closed dialog has no parent), or its callback raised NoMatches on the UI thread."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, dialog: type) -> None:
        self.entered, self.release, self.ended = threading.Event(), threading.Event(), threading.Event()
        self.raised: list[BaseException] = []
        real_run = dialog.run_worker  # ``@work`` starts its worker through it too

        def run_worker(node: Any, work: Callable[[], Any], *args: Any, **kwargs: Any) -> Any:
            def watched() -> Any:
                try:
                    return work()
                except BaseException as exc:
                    self.raised.append(exc)
                    raise
                finally:
                    self.ended.set()

            return real_run(node, watched, *args, **kwargs)

        monkeypatch.setattr(dialog, "run_worker", run_worker)

    def wrap(self, read: Callable[..., Any]) -> Callable[..., Any]:
        def held(*args: Any, **kwargs: Any) -> Any:
            self.entered.set()
            assert self.release.wait(WAIT), "never released"
            return read(*args, **kwargs)

        return held


def spy(monkeypatch: pytest.MonkeyPatch, cls: type, *names: str) -> list[str]:
    """Record each call of the methods ``names`` of ``cls`` (a dialog's answer drawn)."""
    calls: list[str] = []
    for name in names:
        real = getattr(cls, name)

        def recorded(self: object, *args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            calls.append(_name)
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, recorded)
    return calls


def close_before_the_answer(drive, held: HeldBack, open_dialog, dialog_type: type) -> Any:  # type: ignore[no-untyped-def]
    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        open_dialog(app)
        await until(pilot, lambda: isinstance(app.screen, dialog_type), "the dialog")
        await until(pilot, held.entered.is_set, "the worker reading")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, dialog_type), "the dialog closed")
        held.release.set()
        await until(pilot, held.ended.is_set, "the worker's end")
        await pilot.pause(0.05)
        assert held.raised == [] and app.errors == []

    return drive(flow)


def test_the_hygiene_scan_answering_after_its_dialog_closed(drive, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    held = HeldBack(monkeypatch, HygieneScreen)
    monkeypatch.setattr(Hygiene, "scan", held.wrap(Hygiene.scan))
    shown = spy(monkeypatch, HygieneScreen, "_show", "_failed")
    app = close_before_the_answer(drive, held, lambda app: app.action_hygiene(), HygieneScreen)
    assert app.errors == [] and app.return_code in (None, 0)
    assert shown == []


def test_the_task_detail_doctor_answering_after_its_dialog_closed(drive, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    held = HeldBack(monkeypatch, TaskDetailScreen)
    monkeypatch.setattr(task_detail, "doctor_fixes", held.wrap(task_detail.doctor_fixes))
    got = spy(monkeypatch, TaskDetailScreen, "_got")

    def open_detail(app) -> None:  # type: ignore[no-untyped-def]
        row = app.ctx.mem.maintenance.status(app.ctx.config())[0]
        app.push_screen(TaskDetailScreen(row, app.ctx.mem))

    app = close_before_the_answer(drive, held, open_detail, TaskDetailScreen)
    assert app.errors == [] and app.return_code in (None, 0)
    assert got == []


def test_the_undo_list_answering_after_its_dialog_closed(drive, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    held = HeldBack(monkeypatch, UndoModal)
    App_ = app_module.MemsearchApp
    monkeypatch.setattr(App_, "_undo_records", held.wrap(App_._undo_records))
    drawn = spy(monkeypatch, UndoModal, "_draw")
    app = close_before_the_answer(drive, held, lambda app: app.action_undo(), UndoModal)
    assert app.errors == []
    assert drawn == []
