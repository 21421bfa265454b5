"""A transcript as a conversation (user / assistant / tool turns), opened at the anchored turn.

``o`` on a journal turn opens the agent's transcript it came from. The file is parsed by
the engine (bounded; lines that are not messages are skipped and counted); each message is
a block coloured by role, the turn the anchor names is highlighted and scrolled to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from memsearch_tui.engine.api.text import plural

if TYPE_CHECKING:
    from memsearch_tui.engine.api.records import Transcript
from memsearch_tui.tui.actions import bound_key
from memsearch_tui.tui.screens.modal import Modal
from memsearch_tui.tui.text import home_relative, untrusted

WINDOW = 300  # messages drawn around the anchored one (a long session stays light)
ROLE_NAMES = {"user": "user", "assistant": "assistant", "tool": "tool"}


class TranscriptScreen(Modal[None]):
    BINDINGS = [
        Binding("escape,q", "dismiss", "Close"),
        Binding("n", "jump(1)", "Next user turn"),
        Binding("p", "jump(-1)", "Previous user turn"),
    ]

    def __init__(self, transcript: Transcript, turn: str = "") -> None:
        super().__init__(classes="modal")
        self.transcript = transcript
        self.at = transcript.index_of(turn) if turn else 0
        lo = max(0, self.at - WINDOW // 3)
        self.shown = list(range(lo, min(len(transcript.messages), lo + WINDOW)))
        self.turn = turn

    def compose(self) -> ComposeResult:
        t = self.transcript
        with Vertical(classes="dialog editor", id="transcript"):
            # the path is a journal anchor's: drawn as typed (``[/b]`` in it crashed the app), secrets masked
            yield Label(untrusted(f"Transcript · {home_relative(t.path)}"), classes="dialog-title")
            with VerticalScroll(id="transcript-scroll"):
                if not t.messages:
                    yield Static(Text("No user or assistant messages in this file.", style="dim"))
                anchor_turn = t.messages[self.at].user_turn if t.messages else 0
                for i in self.shown:
                    m = t.messages[i]
                    classes = f"turn {m.role}" + (" anchor" if self.turn and m.user_turn == anchor_turn else "")
                    head = Text(ROLE_NAMES.get(m.role, m.role), style="bold")
                    if m.when:
                        head.append(f"  {m.when.replace('T', ' ')[:19]}", style="dim")
                    if i == self.at and self.turn:
                        head.append("  ◀ this journal turn", style="bold")
                    yield Static(Text.assemble(head, "\n", untrusted(m.text)), classes=classes, id=f"msg-{i}")
            notes = []
            if t.skipped:
                notes.append(f"{plural(t.skipped, 'line')} that are not messages skipped")
            if t.truncated:
                notes.append("file cut at the size limit")
            keys = [bound_key(self.BINDINGS, a) for a in ("dismiss", "jump(1)", "jump(-1)")]
            hint = f"{keys[0]} closes · {keys[1]} / {keys[2]} next / previous user turn"
            yield Label(" · ".join([hint, *notes]), classes="hint")

    def on_mount(self) -> None:
        if self.transcript.messages and self.turn:
            self.call_after_refresh(self._show_message, self.at)

    def _show_message(self, index: int) -> None:
        widget = self.query_one(f"#msg-{index}")
        self.query_one("#transcript-scroll").scroll_to_widget(widget, top=True, animate=False)
        self.at = index

    def action_jump(self, step: int) -> None:
        msgs = self.transcript.messages
        i = self.at + step
        while i in self.shown and msgs[i].role != "user":
            i += step
        if i in self.shown:
            self._show_message(i)
