"""Issue 31 item 9: the app at 80x24 as a new user walks it. A refused save keeps the Add
dialog's body field its size; coming back to Search and typing replaces the old query; one
Esc in the Forget/Redact question or the palette does not throw typed text away ("the reason
is required" going once a reason is typed: tests/tui/test_typing.py)."""

from __future__ import annotations

import pytest

from tests.helpers import settle, shown, until

pytestmark = pytest.mark.slow

SMALL = (80, 24)
TOKEN = "ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"


def test_a_refused_save_keeps_the_body_field_its_size(drive):
    from textual.widgets import TextArea

    from memsearch_tui.tui.modals import AddEntryModal

    async def flow(pilot, app):
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AddEntryModal), "the Add dialog")
        dialog = app.screen
        await pilot.press(*"notes", "tab", *"Deploy token", "tab", *"ops", "tab")
        await pilot.press(*f"use {TOKEN} to deploy")
        await settle(pilot, app)
        body = dialog.query_one("#body", TextArea)
        before = body.size.height
        assert before >= 3
        await pilot.press("ctrl+s")
        await until(pilot, lambda: dialog.query_one("#dialog-error").display, "the refusal")
        await settle(pilot, app)
        assert "secret" in shown(dialog.query_one("#dialog-error"))
        # the refusal takes the key hint's row and at most two more; the field keeps the rest
        assert app.screen is dialog and body.size.height >= max(3, before - 2), (before, body.size.height)

    drive(flow, size=SMALL)


def test_back_on_search_typing_replaces_the_old_query(drive):
    from memsearch_tui.tui.panes.search_pane import TYPE_DELAY, SearchBox

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        app.query_one("#pane-search").strategy = "grep"
        await pilot.press(*"ECharts", "enter")
        await settle(pilot, app)
        await pilot.press("tab", "1")  # into the hits (the box takes digits as text), then Index
        await settle(pilot, app)
        await pilot.press("6")
        await settle(pilot, app)
        await pilot.press(*"rollback")
        await pilot.pause(TYPE_DELAY * 2)
        await settle(pilot, app)
        assert app.query_one(SearchBox).value == "rollback"
        await pilot.press("tab", *"s")  # within one visit, a letter on the hits adds to the query
        await pilot.pause(TYPE_DELAY * 2)
        await settle(pilot, app)
        assert app.query_one(SearchBox).value == "rollbacks"

    drive(flow, size=SMALL)


async def open_forget_question(pilot, app):
    from memsearch_tui.tui.panes.journal_pane import AskModal

    await pilot.press("2")
    await settle(pilot, app)
    await pilot.press("enter", "j", "enter", "j")  # a day, its session, its first turn
    await settle(pilot, app)
    await pilot.press("d")
    await until(pilot, lambda: isinstance(app.screen, AskModal), "the forget question")
    return app.screen


def test_one_escape_in_the_forget_question_or_the_palette_keeps_the_typed_text(drive):
    """One walk: the forget question first, then the palette (was two flows, each
    starting the app for its Escape)."""
    from textual.command import CommandInput, CommandPalette
    from textual.widgets import Input

    from memsearch_tui.tui.modals import DiscardModal
    from memsearch_tui.tui.panes.journal_pane import AskModal

    async def flow(pilot, app):
        ask = await open_forget_question(pilot, app)
        await pilot.press(*"pasted a key")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, DiscardModal), "the discard question")
        await pilot.press("escape")  # keep editing
        await settle(pilot, app)
        assert app.screen is ask and ask.query_one("#ask-0", Input).value == "pasted a key"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, DiscardModal), "the discard question")
        await pilot.press("d")
        await settle(pilot, app)
        assert app.screen is app.screen_stack[0]
        await pilot.press("d")  # the same turn again
        await until(pilot, lambda: isinstance(app.screen, AskModal), "the forget question")
        await pilot.press("escape")  # nothing typed: closes at once
        await settle(pilot, app)
        assert app.screen is app.screen_stack[0]

        # the palette: one Esc clears what was typed first, the next one closes it
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        palette = app.screen
        await pilot.press(*"trash")
        await settle(pilot, app)
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is palette and palette.query_one(CommandInput).value == ""
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is app.screen_stack[0]

    drive(flow, size=SMALL)
