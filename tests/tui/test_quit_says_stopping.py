"""Quitting while a vector build is stopping says so in the terminal, once the screen is gone.

Textual leaves the screen before the Search pane's unmount waits for the build to stop:
on 10,000 journal days the terminal stayed empty for 8-15 s (trial s19 #3), which reads as
a hang. Now, past a moment, one plain line says what the wait is, on stderr; no line when
no build is under way.

The build is real (files, manifest, Milvus Lite); the encoder is a stand-in
(tests/held_build.py): its first batch is in flight as the app quits and ends only once
the line was written (on the old code, never: it then gives up after ``SAY_WAIT``).
"""

from __future__ import annotations

import io
import sys
import threading

import numpy as np
import pytest

from tests.held_build import HeldEncoder, assert_completed_as_clean, hold_builds, journal_memory, quit_while_embedding
from tests.helpers import make_app, run_flow, settle, until
from tests.textual_private import notifications

SAID = "stopping the vector build"
SAY_WAIT = 30.0  # seconds the batch in flight waits for the line (far more than the app's moment)


class Terminal(io.StringIO):
    """The process's stderr (``sys.__stderr__``) as the test sees it: what was written, and
    an event once the line is there."""

    def __init__(self) -> None:
        super().__init__()
        self.said = threading.Event()

    def write(self, text: str) -> int:
        n = super().write(text)
        if SAID in self.getvalue():
            self.said.set()
        return n


class StoppingEncoder(HeldEncoder):
    """Batch 1 is the one in flight as the app quits: it ends once the line is said. (Held
    at batch 2 instead, the quit could come before batch 2 began: the build then stops at
    once, rightly saying nothing, and the test failed under load.)"""

    def __init__(self, terminal: Terminal) -> None:
        super().__init__(held=False)
        self.terminal = terminal

    def encode(self, texts: list[str]) -> np.ndarray:
        if self.calls == 0:
            self.started.set()
            self.terminal.said.wait(SAY_WAIT)
        return super().encode(texts)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_quitting_during_a_build_says_in_one_plain_line_that_it_stops_the_build(tmp_path, monkeypatch, lang):
    root, project = journal_memory(tmp_path, lang)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    terminal = Terminal()
    monkeypatch.setattr(sys, "__stderr__", terminal)
    enc = StoppingEncoder(terminal)
    hold_builds(monkeypatch, enc)

    quit_while_embedding(root, project, enc)  # its first batch in the model as the app quits
    lines = [line for line in terminal.getvalue().splitlines() if SAID in line]
    assert len(lines) == 1, f"the terminal said {terminal.getvalue()!r} while the build stopped"
    assert lines[0].startswith("memsearch-tui: ") and "\x1b" not in lines[0] and "[" not in lines[0]
    assert enc.calls == 1, enc.calls  # stopped after the batch in flight

    assert_completed_as_clean(tmp_path, root, project, monkeypatch, enc)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_quitting_with_no_build_under_way_says_nothing(tmp_path, monkeypatch, lang):
    """The searcher was opened (a build ran, and ended) but nothing builds as the app quits: no line."""
    root, project = journal_memory(tmp_path, lang)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    terminal = Terminal()
    monkeypatch.setattr(sys, "__stderr__", terminal)
    enc = HeldEncoder(held=False)
    hold_builds(monkeypatch, enc)

    async def flow(pilot, app):
        await pilot.press("6")
        await settle(pilot, app)
        app.query_one("#pane-search").action_build_index()
        await until(pilot, lambda: any(n.title == "Vector index" for n in notifications(app)), "the build", limit=120)

    app = make_app((root, project))
    run_flow(app, flow)
    assert app.errors == [] and enc.calls > 0  # the build opened the searcher, embedded, and ended
    assert SAID not in terminal.getvalue()
