"""Every write the app makes goes through the pane's one write path (``Pane.run_write``).

The edit and new-entry dialogs, the import dialog and the Journal pane's forget used to run
their own workers: a write there was told differently, did not reload the panes the same
way and (the dialogs) could not share the pane's refusal handling. Each flow here makes
the write for real on files in a temp dir, checks it went through ``run_write`` of the pane
that opened it (a recording wrapper around the real method), that the operation log can
undo it, and, where the person was shown a file, that a change made behind the app's back
since is refused (``expected=``) and leaves the file as the other writer left it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from memsearch_tui.engine.store.trash_index import list_trash
from memsearch_tui.tui.modals import AddEntryModal, ConflictModal, TextEditModal
from memsearch_tui.tui.panes.base import Outcome, Pane
from memsearch_tui.tui.panes.index.pane import IndexPane
from memsearch_tui.tui.panes.journal_pane import AskModal
from memsearch_tui.tui.screens.import_screen import ImportScreen
from tests.helpers import SIZE, make_app, settle, shown, told, until
from tests.tui.test_journal_curate import DAY, _select_turn, _setup

pytestmark = pytest.mark.slow  # each flow starts the whole app


@pytest.fixture
def writes(monkeypatch) -> list[tuple[str, str]]:
    """(pane id, write name) of every ``run_write`` call; the real method still runs."""
    calls: list[tuple[str, str]] = []
    real = Pane.run_write

    def recording(self, name, write, **kw):
        calls.append((self.pane_id, name))
        return real(self, name, write, **kw)

    monkeypatch.setattr(Pane, "run_write", recording)
    return calls


def _notes(app) -> list[str]:
    return [f"{n.title}: {n.message}" for n in told(app)]


def test_the_edit_dialog_saves_through_the_index_write_path_undoably_and_refuses_unseen_changes(demo, drive, writes):
    root, _ = demo
    entry_id = "preferences/editor-setup"
    path = root / f"{entry_id}.md"
    original = path.read_bytes()

    async def flow(pilot, app):
        app.query_one(IndexPane).select_entry(entry_id)
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, TextEditModal), "the editor")
        area = app.screen.query_one("#editor")
        area.text = area.text.replace("Neovim", "Helix")
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert not isinstance(app.screen, TextEditModal)  # closed once the pane's write was done
        assert ("index", "save") in writes
        assert b"Helix" in path.read_bytes()
        assert f"Index: saved {entry_id}" in _notes(app)  # told by the pane, as every write is

        newest = app.ctx.mem.history.list(1)[0]
        assert newest.kind == "edit" and not newest.undone
        app.ctx.mem.history.undo(expected_seq=newest.seq)
        assert path.read_bytes() == original

        # expected=: the file as the dialog opened it; a change made since is refused
        await settle(pilot, app)
        app.query_one(IndexPane).select_entry(entry_id)
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, TextEditModal), "the editor again")
        app.screen.query_one("#editor").text = "---\ntitle: mine\n---\nmine\n"
        theirs = original + b"\n- an agent wrote this meanwhile\n"
        path.write_bytes(theirs)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ConflictModal), "the conflict dialog")
        assert path.read_bytes() == theirs
        assert writes.count(("index", "save")) == 2
        assert app.errors == []

    drive(flow)


def test_the_new_entry_dialog_adds_through_the_index_write_path_and_undo_removes_it(demo, drive, writes):
    """A new entry has no file the person was shown (nothing to pass as ``expected=``); the
    store's own same-topic check decides what an existing title means."""
    root, _ = demo
    path = root / "projects/web/fresh-note.md"

    async def flow(pilot, app):
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AddEntryModal), "the add dialog")
        modal = app.screen
        modal.query_one("#category").value = "projects/web"
        modal.query_one("#title").value = "Fresh note"
        modal.query_one("#body").text = "Written through the pane."
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert not isinstance(app.screen, AddEntryModal)
        assert ("index", "save") in writes
        assert path.is_file()
        await until(pilot, lambda: app.query_one(IndexPane).current == "projects/web/fresh-note", "the new entry")
        newest = app.ctx.mem.history.list(1)[0]
        app.ctx.mem.history.undo(expected_seq=newest.seq)
        assert not path.exists()
        assert app.errors == []

    drive(flow)


def test_import_runs_as_a_write_of_the_index_pane_and_undo_removes_what_it_added(demo, drive, writes, tmp_path):
    root, _ = demo
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(2):
        (notes / f"n{i}.md").write_text(f"# Imported note {i}\n\nSomething distinct number {i * 7919}.\n")
    folder = root / "notes" / "imported"

    def imported() -> list[Path]:
        return [p for p in folder.glob("*.md") if p.name != "INDEX.md"] if folder.is_dir() else []

    async def flow(pilot, app):
        await settle(pilot, app)
        await pilot.press("I")
        await until(pilot, lambda: isinstance(app.screen, ImportScreen), "the import dialog")
        app.screen.query_one("#import-path").value = str(notes)
        app.screen.query_one("#import-category").value = "notes/imported"
        app.screen.start()
        await settle(pilot, app)
        assert ("index", "import") in writes
        assert len(imported()) == 2
        assert isinstance(app.screen, ImportScreen)  # the outcome is shown in the dialog
        told = shown(app.screen.query_one(".dialog-error"))  # the write path's note: on the dialog's line
        assert told.startswith("Index: 2 imported into notes/imported")
        assert not any("imported into" in n for n in _notes(app))  # no toast over the dialog
        newest = app.ctx.mem.history.list(1)[0]
        app.ctx.mem.history.undo(expected_seq=newest.seq)
        assert imported() == []
        assert app.errors == []

    drive(flow)


def test_journal_forget_is_a_write_of_the_journal_pane_undoable_and_refused_on_an_unseen_change(tmp_path, writes):
    root, project, day = _setup(tmp_path)
    appended = DAY + "\n### 11:00\n<!-- session:abc turn:3 transcript:/tmp/abc.jsonl -->\n- a hook wrote this\n"

    async def forget(pilot, app) -> None:
        await _select_turn(pilot, app, day, 6)
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, AskModal), "the reason question")
        await pilot.press(*"leaked token", "enter")
        await settle(pilot, app)

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await forget(pilot, app)
            assert ("journal", "forget") in writes
            assert "sk-live" not in day.read_text(encoding="utf-8")
            assert any(n.startswith("Journal: forgot 10:00 of 2026-12-01") for n in _notes(app)), _notes(app)
            newest = app.ctx.mem.history.list(1)[0]
            app.ctx.mem.history.undo(expected_seq=newest.seq)
            assert day.read_text(encoding="utf-8") == DAY and list_trash(root) == []

            await settle(pilot, app)
            await _select_turn(pilot, app, day, 6)  # the tree draws the day as it is now
            day.write_text(appended, encoding="utf-8")  # then a hook appends, behind the app's back
            await pilot.press("d")
            await until(pilot, lambda: isinstance(app.screen, AskModal), "the reason question again")
            await pilot.press(*"leaked token", "enter")
            await settle(pilot, app)
            assert any("refused, changed meanwhile" in n for n in _notes(app)), _notes(app)
            assert day.read_text(encoding="utf-8") == appended and list_trash(root) == []
            assert writes.count(("journal", "forget")) == 2
            assert app.errors == []

    asyncio.run(flow())


def test_undo_and_redo_in_the_history_are_writes_of_the_pane_on_screen(demo, drive, writes):
    """The undo history ran its own worker: an undo or a redo was not a write like the others."""
    from memsearch_tui.engine.store.store import Store
    from memsearch_tui.tui.modals import UndoModal

    root, _ = demo
    Store(root).add("projects/web", "写 memory 中文 note", "Logged before the history opens.\n")
    path = root / "projects/web"
    added = {p.name for p in path.glob("*.md")}

    async def flow(pilot, app):
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
        await settle(pilot, app)
        await pilot.press("u")
        await until(pilot, lambda: {p.name for p in path.glob("*.md")} != added, "the undo")
        await settle(pilot, app)
        assert ("index", "undo") in writes
        await pilot.press("r")
        await until(pilot, lambda: {p.name for p in path.glob("*.md")} == added, "the redo")
        await settle(pilot, app)
        assert writes[-2:] == [("index", "undo"), ("index", "redo")]
        assert isinstance(app.screen, UndoModal) and app.errors == []

    drive(flow)


def test_init_on_the_first_run_screen_is_a_write_of_the_pane_on_screen(tmp_path, monkeypatch, writes):
    """``init`` created the store on the UI thread, outside the write path."""
    from memsearch_tui.tui.screens.first_run import FirstRunScreen
    from tests.tui.test_first_run import SIZE as FIRST_RUN_SIZE
    from tests.tui.test_first_run import _app

    root, app = _app(tmp_path, monkeypatch)

    async def flow():
        async with app.run_test(size=FIRST_RUN_SIZE) as pilot:
            await settle(pilot)
            await until(pilot, lambda: isinstance(app.screen, FirstRunScreen), "the first-run screen")
            await pilot.press("i")
            await until(pilot, lambda: (root / "INDEX.md").is_file(), "the store")
            await settle(pilot)
            assert writes == [("index", "init")]
            assert app.errors == []

    asyncio.run(flow())


def test_two_writes_of_one_name_each_get_their_own_handlers(drive):
    """The handlers were kept per pane by the write's name: a second "save" before the first
    finished took the first one's place, so the first dialog was never told it was done."""
    told: list[str] = []

    async def flow(pilot, app):
        pane = app.pane("index")
        for who in ("第一 first", "second 第二"):
            pane.run_write(
                "save", lambda who=who: Outcome(f"saved {who}", refresh=False), done=lambda out: told.append(out.note)
            )
        pane.run_write("save", lambda: _refused(), failed=lambda message: told.append(f"failed: {message.error}"))
        await until(pilot, lambda: len(told) == 3, "the three writes")
        await settle(pilot, app)
        assert sorted(told) == ["failed: 磁盘 disk full", "saved second 第二", "saved 第一 first"]

    drive(flow)


def _refused() -> Outcome:
    raise OSError("磁盘 disk full")
