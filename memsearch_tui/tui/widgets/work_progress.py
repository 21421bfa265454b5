"""A progress line for long work: what is happening, and Textual's ``ProgressBar``.

Hidden while idle. Workers call ``report(done, total)`` from their thread (the engine's
``progress`` callbacks); with no total yet (a model loading) the bar pulses.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar

from memsearch_tui.tui.from_thread import call_while_shown


class WorkProgress(Horizontal):
    DEFAULT_CSS = "WorkProgress { height: 1; display: none; }"

    def compose(self) -> ComposeResult:
        yield Label("", classes="work-label")
        yield ProgressBar(show_eta=False, classes="work-bar")

    def start(self, what: str, total: float | None = None) -> None:
        """UI thread: show the line with ``what`` (no total: an indeterminate bar)."""
        self.query_one(Label).update(what)
        self.query_one(ProgressBar).update(total=total, progress=0)
        self.display = True

    def step(self, done: float, total: float | None, what: str | None = None) -> None:
        """UI thread: ``done`` of ``total`` (``what`` replaces the label)."""
        if what is not None:
            self.query_one(Label).update(what)
        self.query_one(ProgressBar).update(total=total, progress=done)

    def report(self, done: float, total: float | None, what: str | None = None) -> None:
        """Worker thread: the same as ``step``, posted to the UI thread (not once the app
        exits or the line's screen is closed: its label may be gone)."""
        call_while_shown(self, self.step, done, total, what)

    def finish(self) -> None:
        if self.display:  # setting it again still costs a layout of the screen the first time
            self.display = False
