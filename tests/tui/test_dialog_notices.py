"""No toast covers a dialog: a notice while a dialog is up is drawn inside it.

Textual draws its toasts over whatever screen is on top, so at 80×24 the undo history's
"undone: …" sat over the list it was about, and a toast posted just before a dialog
opened covered the dialog's text. Now a dialog shows no toast and tells its notices on its
own message line, which stays until its next action; toasts posted before it opened come
back when it closes.
"""

from __future__ import annotations

import asyncio

import pytest

from memsearch_tui.tui.modals import HelpScreen, UndoModal
from memsearch_tui.tui.panes.journal_pane import AskModal
from tests.helpers import make_app, screen_lines, settle, shown, told, until
from tests.tui.test_journal_curate import _select_turn, _setup

pytestmark = pytest.mark.slow  # each flow starts the whole app


def _line(screen) -> str:
    """The text of the dialog's message line ('' when it has none, or it is hidden)."""
    lines = [w for w in screen.query(".dialog-error") if w.display]
    return " ".join(shown(w) for w in lines).strip()


def _notes(app) -> list[str]:
    return [f"{n.title}: {n.message}" for n in told(app)]


def test_undo_and_redo_in_the_history_are_told_inside_it_not_by_a_toast(demo, drive):
    root, _ = demo

    async def flow(pilot, app):
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
        await settle(pilot, app)
        modal, before = app.screen, _notes(app)
        summary = modal.newest().summary
        await pilot.press("u")
        await until(pilot, lambda: "undone" in _line(modal), "the undo's note in the dialog")
        assert summary in _line(modal) and "r redoes it" in _line(modal)
        assert _notes(app) == before  # no toast over the list
        assert any("undone: " in row for row in screen_lines(app))  # drawn, not only set
        await settle(pilot, app)
        await pilot.press("r")
        await until(pilot, lambda: "redone" in _line(modal), "the redo's note in the dialog")
        await settle(pilot, app)
        await pilot.press("r")  # nothing left to redo: said in the dialog too
        await until(pilot, lambda: "nothing to redo" in _line(modal), "the refusal in the dialog")
        assert _notes(app) == before
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.errors == []

    drive(flow)


def test_a_notice_sent_while_a_dialog_is_up_is_drawn_inside_it(demo, drive):
    async def flow(pilot, app):
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the key list")
        await settle(pilot, app)
        before = _notes(app)
        app.notify("built 12 chunks · 向量索引已建好", title="Vector index")
        await pilot.pause(0.05)
        assert "Vector index: built 12 chunks · 向量索引已建好" in _line(app.screen)
        assert _notes(app) == before
        app.notify("the store is locked by another writer", title="Index", severity="error")
        await pilot.pause(0.05)
        assert "locked by another writer" in _line(app.screen)  # the newest notice, until the next
        assert "built 12 chunks" not in _line(app.screen)

    drive(flow)


def test_a_refusal_while_the_forget_dialog_is_up_stays_inside_it_with_the_typed_reason(tmp_path):
    root, project, day = _setup(tmp_path)

    async def flow():
        app = make_app((root, project))
        async with app.run_test(size=(80, 24)) as pilot:
            await _select_turn(pilot, app, day, 6)
            await pilot.press("d")
            await until(pilot, lambda: isinstance(app.screen, AskModal), "the reason question")
            await pilot.press(*"泄露的令牌")
            before = _notes(app)
            app.report(PermissionError(13, "Permission denied", str(day)))  # an engine-describable refusal
            await pilot.pause(0.05)
            assert "permission denied" in _line(app.screen).lower()
            assert _notes(app) == before
            assert app.screen.query_one("#ask-0").value == "泄露的令牌"

    asyncio.run(flow())


def test_a_toast_posted_before_a_dialog_opened_does_not_cover_it_and_comes_back_after(demo):
    marker = "TOAST-OVER-THE-DIALOG"

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot, app)
            app.notify(f"{marker} reloaded the panes", timeout=60)
            await until(pilot, lambda: any(marker in row for row in screen_lines(app)), "the toast on the pane")
            await pilot.press("u")
            await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
            await settle(pilot, app)
            assert not any(marker in row for row in screen_lines(app))
            await pilot.press("escape")
            await until(pilot, lambda: any(marker in row for row in screen_lines(app)), "the toast back")

    asyncio.run(flow())


def test_a_notice_sent_before_the_dialog_is_composed_is_said_once_it_is(demo, drive):
    """A write's result can land between ``u`` pushing the undo history and the history
    composing its dialog (seen under load: ``NoMatches: '.dialog'`` in ``message_line``
    crashed the app). The notice waits and is said inside the dialog once it is drawn,
    in English and in Chinese, in the order sent."""

    async def flow(pilot, app):
        app.action_undo()  # pushed: in the stack, not yet composed
        assert isinstance(app.screen, UndoModal) and not app.screen.query(".dialog")
        app.notify("forgot: turn 1", title="journal")
        app.notify("已删除：第 2 条", severity="error")
        await until(pilot, lambda: "已删除" in _line(app.screen), "the kept notices in the dialog")
        await settle(pilot, app)
        assert "已删除：第 2 条" in _line(app.screen)  # the newest one on the line
        assert app.errors == []
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.errors == []

    drive(flow)


def test_a_write_told_while_the_undo_history_is_up_is_listed_in_it(demo, drive):
    """``y`` then ``u`` at once: the history was read before the trash landed, and its
    ``← u`` pointed at the change before it (``u`` was then refused as "a newer change
    arrived"). The write's notice reaching the list reads it again."""
    from tests.helpers import run_cli

    root, project = demo

    async def flow(pilot, app):
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
        await settle(pilot, app)
        modal = app.screen
        before = modal.newest().seq
        done = run_cli(
            "--memory-root",
            str(root),
            "--project",
            str(project),
            "trash",
            "notes/inbox/inbox-note-01-retry-policy",
            "--reason",
            "不再需要",
        )
        assert done.code == 0, done.output
        assert modal.newest().seq == before  # read before the write
        app.notify("moved notes/inbox/inbox-note-01-retry-policy to the trash (u undoes)", title="Index")
        await until(pilot, lambda: modal.newest().seq > before, "the list read again")
        await settle(pilot, app)
        assert "inbox-note-01-retry-policy" in modal.newest().summary
        assert any("inbox-note-01-retry-policy" in row and "← u" in row for row in screen_lines(app))
        assert app.errors == []

    drive(flow)
