"""The Notes pane (key 7) draws a note's true text at once and makes Textual's Markdown
after (issue 37 item 5: importing that widget — markdown-it, linkify, pygments — and its
first mount were most of the pane's first key); a note that is not a regular file (a FIFO)
says so instead of "not written yet", and is never opened for reading.

Work is counted (modules imported in a fresh process, widgets made), never timed; real
files (and a real FIFO) in temp dirs, English and Chinese.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from memsearch_tui.engine.store.store import Store
from tests.helpers import SIZE, make_app, settle, shown, until
from tests.tui.home_demo import option_texts

pytestmark = pytest.mark.slow  # starts the whole app

MARKDOWN_MODULES = {"markdown_it", "linkify_it", "pygments", "textual.widgets._markdown"}
FIFO_SAYS = "not a regular file: not read"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


def _memory(tmp_path: Path, *, user_note: str = "notes/用户.md") -> tuple[Path, Path]:
    """An empty store and a project whose user_profile note is ``user_note`` (Chinese name)."""
    root, project = tmp_path / "memory", tmp_path / "proj"
    Store(root).init()
    (project / ".memsearch").mkdir(parents=True)
    (project / ".git").mkdir()
    (project / ".memsearch.toml").write_text(
        f'[plugins.claude-code.user_profile]\noutput_file = "{user_note}"\n', encoding="utf-8"
    )
    (project / "notes").mkdir()
    return root, project


def _fresh(code: str) -> str:
    """Run ``code`` in a fresh interpreter (what it imports is its own); its stdout."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.strip().splitlines()[-1]


def test_the_notes_pane_module_imports_no_markdown_parser() -> None:
    """A pane made ahead (or by its key) no longer pays Textual's Markdown import."""
    code = (
        "import sys\n"
        "import memsearch_tui.tui.app, memsearch_tui.tui.panes.notes_pane\n"
        f"print(sorted(set({sorted(MARKDOWN_MODULES)!r}) & set(sys.modules)))\n"
    )
    assert _fresh(code) == "[]"  # 6e86c88: all four, at the pane's import


def test_a_first_visit_to_missing_notes_makes_no_markdown(tmp_path: Path) -> None:
    """Both notes missing (as at 100k entries and at 10,000 days): the message is text, and
    the whole visit imports no Markdown machinery."""
    root, project = _memory(tmp_path)
    code = f"""
import asyncio, sys
from pathlib import Path
from typing import Any
from tests.helpers import SIZE, make_app, settle, shown, until

async def main():
    app = make_app((Path({str(root)!r}), Path({str(project)!r})), remember_theme=False, panes_ahead=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("7")
        await settle(pilot, app)
        text = shown(app.query_one("#notes-text"))
        assert "PROJECT.md does not exist yet" in text and "project_review" in text, text
        print(sorted(set({sorted(MARKDOWN_MODULES)!r}) & set(sys.modules)))

asyncio.run(main())
"""
    assert _fresh(code) == "[]"  # 6e86c88: the Markdown widget and its parser, for a message


@pytest.mark.parametrize(
    "note",
    [
        "# Project\n\n- Postgres 16 in production\n- **deploy** with `make ship`\n",
        "# 项目\n\n- 生产环境用 Postgres 16\n",
    ],
)
def test_the_note_text_is_shown_before_its_markdown_is_made(tmp_path: Path, monkeypatch, note: str) -> None:
    """While the Markdown widget is not made yet, the doc shows the note's own text (not a
    placeholder); once made, the Markdown shows the same source and the text gives way."""
    from memsearch_tui.tui.panes.notes_pane import NotesPane

    root, project = _memory(tmp_path)
    (project / ".memsearch" / "PROJECT.md").write_text(note, encoding="utf-8")
    made: list[bool] = []
    monkeypatch.setattr(NotesPane, "_import_markdown", lambda self: made.append(False))  # a slow import: not yet

    async def main() -> None:
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("7")
            await settle(pilot, app)
            text = app.query_one("#notes-text")
            assert made == [False] and text.display
            assert shown(text).rstrip().splitlines() == note.rstrip().splitlines()  # the true text, as written
            assert not app.query("#notes-doc")  # no Markdown yet
            pane = app.pane("notes")
            pane._make_markdown()
            await settle(pilot, app)
            doc = app.query_one("#notes-doc")
            assert doc.source == note and doc.display and not text.display
            assert len(app.query("#notes-doc")) == 1
            pane._make_markdown()  # a second call makes no second widget
            await settle(pilot, app)
            assert len(app.query("#notes-doc")) == 1
            assert app.errors == []

    asyncio.run(main())


@needs_fifo
def test_a_fifo_note_is_never_read_and_says_why(tmp_path: Path) -> None:
    from memsearch_tui.engine.api import Memory

    fifo = tmp_path / "PROJECT.md"
    os.mkfifo(fifo)
    mem = Memory(tmp_path / "memory", tmp_path)
    answers: list[object] = []
    reader = threading.Thread(
        target=lambda: answers.extend([mem.proposals.read_note(fifo), mem.proposals.why_unread(fifo)]), daemon=True
    )
    reader.start()
    reader.join(30)
    assert not reader.is_alive(), "reading a FIFO note blocked"
    assert answers == [None, FIFO_SAYS]  # 6e86c88: no why_unread (the pane said "not written yet")
    assert mem.proposals.why_unread(tmp_path / "USER.md") == "not written yet"
    folder = tmp_path / "用户.md"
    folder.mkdir()
    assert mem.proposals.why_unread(folder) == FIFO_SAYS


@needs_fifo
def test_the_notes_pane_says_a_fifo_note_is_not_read(tmp_path: Path) -> None:
    root, project = _memory(tmp_path)
    os.mkfifo(project / ".memsearch" / "PROJECT.md")
    os.mkfifo(project / "notes" / "用户.md")

    async def main() -> None:
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("7")
            await settle(pilot, app)
            texts = option_texts(app.query_one("#notes-list"))
            assert any(t.startswith("PROJECT.md") and FIFO_SAYS in t for t in texts), texts
            assert any(t.startswith("用户.md") and FIFO_SAYS in t for t in texts), texts
            assert not any("not written yet" in t for t in texts), texts  # 6e86c88: both said so
            text = shown(app.query_one("#notes-text"))
            assert f"PROJECT.md: {FIFO_SAYS}" in text and "does not exist" not in text, text
            assert app.errors == []

    asyncio.run(main())


def _frames_of_notes(app: Any, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each frame written while the Notes tab is the active one: was its data applied?"""
    seen: list[bool] = []
    original = app._display

    def display(screen: Any, update: Any) -> None:
        original(screen, update)
        if update is not None and app.query_one("#tabs").active == "notes":
            seen.append(app.pane("notes")._data is not None)

    monkeypatch.setattr(app, "_display", display)
    return seen


def _gated_load(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The Notes pane's load waits for ``gate`` (set by the test); ``started`` says it began."""
    from memsearch_tui.tui.panes.notes_pane import NotesPane

    gate, started = threading.Event(), threading.Event()
    load = NotesPane.load

    def gated(self: Any) -> Any:
        started.set()
        gate.wait(60)
        return load(self)

    monkeypatch.setattr(NotesPane, "load", gated)
    return gate, started


def test_the_first_visit_draws_the_pane_once_with_its_notes(tmp_path: Path, monkeypatch) -> None:
    """No frame of the empty pane before its first load: the pane was drawn twice (empty,
    then with its notes), each draw ~100-200 ms at 100k entries under load."""
    from memsearch_tui.tui.panes import notes_pane

    monkeypatch.setattr(notes_pane, "HOLD_FIRST_FRAME", 60.0, raising=False)  # the cap is not what this tests
    root, project = _memory(tmp_path)
    (project / ".memsearch" / "PROJECT.md").write_text("# 项目\n- 生产环境用 Postgres 16\n", encoding="utf-8")
    gate, started = _gated_load(monkeypatch)

    async def main() -> None:
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            frames = _frames_of_notes(app, monkeypatch)
            await pilot.press("7")
            assert started.wait(30)
            for _ in range(5):  # the app runs its queue and refreshes meanwhile (6e86c88: the empty pane drawn)
                await pilot.pause()
            gate.set()
            await settle(pilot, app)
            assert frames and all(frames), f"frames of the Notes pane before its data: {frames.count(False)}"
            assert "生产环境用 Postgres 16" in shown(app.query_one("#notes-text")) or "生产环境用 Postgres 16" in (
                app.query_one("#notes-doc").source
            )

    asyncio.run(main())


def test_a_slow_first_load_holds_the_frame_only_briefly(tmp_path: Path, monkeypatch) -> None:
    """A load that does not land: the pane is drawn without it once the hold ends, and with
    it when it lands (the hold never outlives ``HOLD_FIRST_FRAME``, whatever the load does)."""
    from memsearch_tui.tui.panes import notes_pane

    monkeypatch.setattr(notes_pane, "HOLD_FIRST_FRAME", 0.05)
    root, project = _memory(tmp_path)
    gate, started = _gated_load(monkeypatch)

    async def main() -> None:
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            frames = _frames_of_notes(app, monkeypatch)
            await pilot.press("7")
            assert started.wait(30)
            await until(pilot, lambda: bool(frames), "the pane drawn while its load waits at the gate")
            assert frames[0] is False and not gate.is_set()
            gate.set()
            await settle(pilot, app)
            assert frames[-1] is True
            assert "PROJECT.md does not exist yet" in shown(app.query_one("#notes-text"))

    asyncio.run(main())
