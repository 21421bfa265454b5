"""Dialog titles that name what a journal wrote (a transcript path, a day file) are untrusted text.

A hostile repository's journal can anchor a turn to ``…/t[/b]/x[red]y.jsonl`` or name a day
``2026-12-03[/b].md``. Both titles were markup ``Label``s: Textual parsed them, and ``o`` (or
``d``) crashed the app with ``MarkupError`` (a traceback on exit). They are drawn as typed
now, with secrets masked like every other view."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.app import App

from memsearch_tui.engine.memsearch.transcript import Message, Transcript
from memsearch_tui.tui.screens.transcript import TranscriptScreen
from tests.helpers import shown

KEY = "glpat-" + "xY3kP9mQ2rT7vW1zB4nC"  # a GitLab token (built in two parts)


def test_a_markup_path_with_a_secret_is_drawn_as_typed_and_masked(tmp_path: Path) -> None:
    path = tmp_path / "t[/b]" / f"会话[red]{KEY}.jsonl"
    transcript = Transcript(path, [Message("user", "你好 hello", 1, "", 1, "")])

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(TranscriptScreen(transcript))

    async def flow() -> None:
        app = Host()
        async with app.run_test(size=(100, 20)) as pilot:
            await pilot.pause()
            title = shown(app.screen.query_one(".dialog-title"))
            assert "t[/b]" in title and "会话[red]" in title, title
            assert "xY3kP9mQ2rT7" not in title and "[redacted" in title, title

    asyncio.run(flow())


def test_the_forget_dialog_names_a_markup_day_file_as_typed(tmp_path: Path) -> None:
    """``d`` on a turn asks in a dialog titled with the day file's name (a hostile
    ``2026-12-03[/b].md`` is a dated day): drawn as typed, no MarkupError."""
    from memsearch_tui.tui.panes.journal_pane import AskModal

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(AskModal("Forget turn 10:01 of 2026-12-03[/b]日志 (to the trash)", ["reason"]))

    async def flow() -> None:
        app = Host()
        async with app.run_test(size=(100, 20)) as pilot:
            await pilot.pause()
            assert "2026-12-03[/b]日志" in shown(app.screen.query_one(".dialog-title"))

    asyncio.run(flow())
