"""Notices kept before a dialog composed are said by a ``call_after_refresh``
set in ``on_mount``. A notice sent after the mount and before that refresh (a worker's
result landing then) is drawn at once, and the kept, older notice then overwrites it:
the dialog ends showing the older message, not the newest."""

from __future__ import annotations

import pytest

from memsearch_tui.tui.modals import UndoModal
from memsearch_tui.tui.screens.modal import Modal
from tests.helpers import settle, until
from tests.tui.test_dialog_notices import _line

pytestmark = pytest.mark.slow


def test_a_notice_sent_between_mount_and_refresh_is_not_overwritten_by_an_older_one(
    demo, drive, monkeypatch: pytest.MonkeyPatch
) -> None:
    held: list = []
    real = Modal.call_after_refresh

    def holding(self, callback, *args, **kwargs):  # type: ignore[no-untyped-def]
        if getattr(callback, "__name__", "") == "say_unsaid":
            held.append(callback)  # run when the test says: "the refresh came later"
            return True
        return real(self, callback, *args, **kwargs)

    monkeypatch.setattr(Modal, "call_after_refresh", holding)

    async def flow(pilot, app):
        app.action_undo()  # pushed, not composed
        app.notify("forgot: turn 1", title="journal")  # kept
        await until(pilot, lambda: app.screen.is_mounted and bool(held), "the dialog mounted")
        app.notify("已删除：第 2 条", severity="error")  # arrives before the refresh
        for callback in held:
            callback()
        await settle(pilot, app)
        assert isinstance(app.screen, UndoModal)
        assert "已删除：第 2 条" in _line(app.screen)  # the newest notice stays on the line
        assert app.errors == []

    drive(flow)
