"""Pilot flows: each pane's main actions, asserting what changed on disk.

Every flow runs through the ``drive`` fixture (tests/tui/conftest.py): the app on a fresh
demo memory at a fixed size and clock, after its first load settled.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from memsearch_tui.engine.curator import trash, versions
from memsearch_tui.engine.review import proposals
from memsearch_tui.engine.store.store import Store
from memsearch_tui.tui.modals import ConfirmModal, ErrorModal, OverwriteModal, RejectModal, TextEditModal, UndoModal
from memsearch_tui.tui.panes.index.pane import IndexPane
from tests.helpers import settle, shown, told, until

pytestmark = pytest.mark.slow  # each flow starts the whole app (3–8 s on two busy cores)


def index(app) -> IndexPane:
    return app.query_one(IndexPane)


async def undo_newest(pilot, app) -> None:
    """u opens the undo history; u there undoes the newest change; Escape closes it."""
    await pilot.press("u")
    await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
    await settle(pilot, app)
    await pilot.press("u")
    await settle(pilot, app)
    await pilot.press("escape")
    await settle(pilot, app)


def test_restore_from_trash_then_undo(demo, drive):
    root, _ = demo
    store = Store(root)
    item = next(i for i in trash.list_trash(root) if i.original_id == "decisions/old-logging-library")
    trashed_bytes = Path(item.path).read_bytes()

    async def flow(pilot, app):
        await pilot.press("4")
        await settle(pilot, app)
        table = app.query_one("#trash-table")
        keys = [str(k.value) for k in table.rows]
        table.move_cursor(row=keys.index(item.key))
        await pilot.press("R")
        await settle(pilot, app)
        assert store.get("decisions/old-logging-library").status == "active"
        assert not Path(item.path).exists()
        await undo_newest(pilot, app)
        assert app.errors == []

    drive(flow)
    assert Path(item.path).read_bytes() == trashed_bytes
    assert not (root / "decisions" / "old-logging-library.md").exists()


def test_a_long_trashed_title_never_pushes_purge_date_and_reason_off_screen(demo, drive):
    """The title column has a width of its own share of the table: a long title (a
    forgotten turn's excerpt) ends in "…" and the purge countdown and reason stay in view,
    before and after it leaves the trash."""
    from tests.helpers import screen_lines

    root, _ = demo
    store = Store(root)
    entry = store.add("misc", "A very long title " + "that keeps going " * 6, "Body.\n")
    trash.trash(store, entry.id, reason="too long")
    item = next(i for i in trash.list_trash(root) if i.original_id == entry.id)

    async def flow(pilot, app):
        await pilot.press("4")
        await settle(pilot, app)
        row = next(line for line in screen_lines(app) if "A very long title" in line)
        assert "…" in row and "days" in row and "too long" in row, row
        table = app.query_one("#trash-table")
        keys = [str(k.value) for k in table.rows]
        table.move_cursor(row=keys.index(item.key))
        await pilot.press("R")
        await settle(pilot, app)
        assert item.key not in [str(k.value) for k in table.rows]
        assert [str(c.value) for c in table.columns][:3] == ["title", "purge in", "reason"]
        assert any("belongs in the" in line for line in screen_lines(app))
        assert app.errors == []

    drive(flow)


def test_purge_asks_first(demo, drive):
    root, _ = demo
    item = trash.list_trash(root)[0]

    async def flow(pilot, app):
        await pilot.press("4")
        await settle(pilot, app)
        await pilot.press("P")
        await until(pilot, lambda: isinstance(app.screen, ConfirmModal), "the purge question")
        await pilot.press("n")  # cancelled: nothing deleted
        await settle(pilot, app)
        assert Path(item.path).exists()
        await pilot.press("P")
        await until(pilot, lambda: isinstance(app.screen, ConfirmModal), "the purge question")
        await pilot.press("y")
        await settle(pilot, app)

    drive(flow)
    assert not Path(item.path).exists()


def test_accept_proposal_and_undo(demo, drive):
    _, project = demo
    prop = proposals.list_pending(project)[0]
    target = Path(prop.target)
    before = target.read_bytes()

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
        assert target.read_text(encoding="utf-8") == prop.content
        assert proposals.get(project, prop.id).status == "accepted"
        await undo_newest(pilot, app)

    drive(flow)
    assert target.read_bytes() == before


def test_reject_proposal_asks_first(demo, drive):
    _, project = demo
    prop = proposals.list_pending(project)[0]
    before = Path(prop.target).read_bytes()

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, RejectModal), "the reject question")
        await pilot.press("n")
        await settle(pilot, app)
        assert proposals.get(project, prop.id).status == "pending"
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, RejectModal), "the reject question")
        await pilot.press("y")  # accept's key does not confirm a reject
        await pilot.pause(0.1)
        assert isinstance(app.screen, RejectModal)
        assert proposals.get(project, prop.id).status == "pending"
        await pilot.press("r")  # reject's own key does
        await settle(pilot, app)
        plist = app.query_one("#proposals")
        assert plist.get_option_at_index(plist.highlighted).id == f"p:{prop.id}"  # the cursor stays on it
        assert "rejected" in shown(app.query_one("#proposal-head"))
        await pilot.press("y")  # a reflex second key acts on nothing
        await settle(pilot, app)
        assert app.errors == []

    drive(flow)
    assert proposals.get(project, prop.id).status == "rejected"
    assert Path(prop.target).read_bytes() == before


def test_edit_then_accept_proposal(demo, drive):
    _, project = demo
    prop = proposals.list_pending(project)[0]

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, TextEditModal), "the editor")
        area = app.screen.query_one("#editor")
        area.text = area.text + "\n## Added by hand\n- reviewed in the TUI\n"
        await pilot.press("ctrl+s")
        await settle(pilot, app)

    drive(flow)
    text = Path(prop.target).read_text(encoding="utf-8")
    assert "## Added by hand" in text and "## Next steps" in text
    assert proposals.get(project, prop.id).status == "accepted"


def test_changed_target_needs_confirmation(demo, drive):
    _, project = demo
    prop = proposals.list_pending(project)[0]
    Path(prop.target).write_text("# edited by hand meanwhile\n", encoding="utf-8")

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        assert "changed since" in shown(app.query_one("#proposal-head"))
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, OverwriteModal), "the overwrite question")
        await pilot.press("y")  # a reflex second accept key does not overwrite
        await settle(pilot, app)
        assert isinstance(app.screen, OverwriteModal)
        await pilot.press("n")
        await settle(pilot, app)

    drive(flow)
    assert Path(prop.target).read_text(encoding="utf-8") == "# edited by hand meanwhile\n"
    assert proposals.get(project, prop.id).status == "pending"


def test_restore_version(demo, drive):
    root, _ = demo
    store = Store(root)
    entry_id = "decisions/postgres-16-in-production"
    assert store.get(entry_id).version == 3

    async def flow(pilot, app):
        await pilot.press("3")
        await settle(pilot, app)
        vl = app.query_one("#version-list")
        vl.focus()
        await pilot.press("G")  # oldest: v1 (the list is newest first)
        await settle(pilot, app)
        assert vl.highlighted == vl.option_count - 1
        assert "v0" not in shown(app.query_one("#versions-head"))
        await pilot.press("R")
        await until(pilot, lambda: isinstance(app.screen, ConfirmModal), "the restore question")
        await pilot.press("y")
        await settle(pilot, app)

    drive(flow)
    entry = store.get(entry_id)
    assert entry.version == 4
    assert "Postgres 16 with logical replication" in entry.body
    assert "conflict" not in entry.meta


def test_confirm_conflict(demo, drive):
    root, _ = demo
    store = Store(root)

    async def flow(pilot, app):
        await pilot.press("3")
        await settle(pilot, app)
        assert "1 entry with versions · 1 open conflict" in shown(app.query_one("#versions-status"))
        await pilot.press("c")
        await settle(pilot, app)

    drive(flow)
    assert versions.conflicts(store) == []
    assert store.get("decisions/postgres-16-in-production").version == 3


def test_edit_entry_in_place(demo, drive):
    root, _ = demo
    entry_id = "preferences/editor-setup"

    async def flow(pilot, app):
        index(app).select_entry(entry_id)
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, TextEditModal), "the editor")
        area = app.screen.query_one("#editor")
        area.text = area.text.replace("Neovim", "Helix")
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert not isinstance(app.screen, TextEditModal)
        assert "Helix" in shown(app.query_one("#entry-meta")) + str(app.query_one("#entry-body")._markdown)

    drive(flow)
    assert "Helix with the LSP" in Store(root).get(entry_id).body


def _edit_meanwhile(root: Path, entry_id: str) -> bytes:
    """What an agent (or the CLI) does while the user's editor is open."""
    path = root / f"{entry_id}.md"
    data = path.read_bytes() + b"\n- added by an agent meanwhile\n"
    path.write_bytes(data)
    return data


def test_edit_here_refuses_a_change_made_meanwhile_then_takes_theirs(demo, drive):
    from memsearch_tui.tui.modals import ConflictModal, DiffModal

    root, _ = demo
    entry_id = "preferences/editor-setup"

    async def flow(pilot, app):
        index(app).select_entry(entry_id)
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, TextEditModal), "the editor")
        area = app.screen.query_one("#editor")
        area.text = area.text.replace("Neovim", "Helix")
        theirs = _edit_meanwhile(root, entry_id)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ConflictModal), "the conflict dialog")
        assert (root / f"{entry_id}.md").read_bytes() == theirs  # nothing written
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, DiffModal), "the diff of both versions")
        diff = shown(app.screen.query_one("#conflict-diff"))
        assert "Helix" in diff and "added by an agent" in diff
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConflictModal), "back to the conflict dialog")
        await pilot.press("t")
        await settle(pilot, app)
        assert not isinstance(app.screen, (TextEditModal, ConflictModal))

    drive(flow)
    body = Store(root).get(entry_id).body
    assert "added by an agent meanwhile" in body and "Helix" not in body


def test_edit_here_keep_mine_overwrites_only_what_was_shown(demo, drive):
    from memsearch_tui.tui.modals import ConflictModal

    root, _ = demo
    entry_id = "preferences/editor-setup"

    async def flow(pilot, app):
        index(app).select_entry(entry_id)
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, TextEditModal), "the editor")
        area = app.screen.query_one("#editor")
        area.text = area.text.replace("Neovim", "Helix")
        _edit_meanwhile(root, entry_id)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ConflictModal), "the conflict dialog")
        await pilot.press("m")
        await settle(pilot, app)
        assert not isinstance(app.screen, (TextEditModal, ConflictModal))

    drive(flow)
    body = Store(root).get(entry_id).body
    assert "Helix" in body and "added by an agent meanwhile" not in body


def test_external_editor_refuses_a_change_made_meanwhile(demo, drive, tmp_path, monkeypatch):
    from memsearch_tui.tui.modals import ConflictModal

    root, _ = demo
    entry_id = "preferences/editor-setup"
    real = root / f"{entry_id}.md"
    editor = tmp_path / "fake-editor.sh"  # a real program: edits its file, and an "agent" edits the entry
    editor.write_text(
        f"#!/bin/sh\nsed -i 's/Neovim/Helix/' \"$1\"\nprintf '\\n- added by an agent meanwhile\\n' >> '{real}'\n",
        encoding="utf-8",
    )
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))

    async def flow(pilot, app):
        app.suspend = contextlib.nullcontext  # the headless test driver cannot hand over the terminal
        index(app).select_entry(entry_id)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, ConflictModal), "the conflict dialog")
        assert b"added by an agent meanwhile" in real.read_bytes() and b"Helix" not in real.read_bytes()
        await pilot.press("m")
        await settle(pilot, app)

    drive(flow)
    body = Store(root).get(entry_id).body
    assert "Helix" in body and "added by an agent meanwhile" not in body


def test_add_dialog_stays_open_on_a_refusal(demo, drive):
    from memsearch_tui.tui.modals import AddEntryModal

    root, _ = demo

    async def flow(pilot, app):
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AddEntryModal), "the add dialog")
        modal = app.screen
        modal.query_one("#category").value = "projects/web"
        modal.query_one("#body").text = "A body without a title."
        await pilot.press("ctrl+s")
        await until(pilot, lambda: modal.query_one("#dialog-error").display, "the inline error")
        assert app.screen is modal  # still open, the text kept
        assert modal.query_one("#body").text == "A body without a title."
        assert "title" in shown(modal.query_one("#dialog-error")).lower()
        modal.query_one("#title").value = "Fresh note"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert not isinstance(app.screen, AddEntryModal)
        await until(pilot, lambda: index(app).current == "projects/web/fresh-note", "the new entry selected")
        assert "Fresh note" in shown(app.query_one("#entry-meta"))

    drive(flow)
    assert Store(root).get("projects/web/fresh-note").body.strip() == "A body without a title."


def test_trash_from_index_asks_and_moves(demo, drive):
    root, _ = demo
    entry_id = "people/dana-platform-team"

    async def flow(pilot, app):
        index(app).select_entry(entry_id)
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmModal), "the trash question")
        await pilot.press("y")
        await settle(pilot, app)

    drive(flow)
    assert not (root / f"{entry_id}.md").exists()
    assert any(i.original_id == entry_id for i in trash.list_trash(root))


def test_live_refresh_after_outside_change(demo, drive):
    root, _ = demo

    async def flow(pilot, app):
        pane = index(app)
        pane.select_entry("projects/web/alpha-dashboard")
        Store(root).add("projects/web", "Added by an agent", "Written while the app was open.\n")
        await until(
            pilot, lambda: "projects/web/added-by-an-agent" in pane.model.summaries, "the watcher to reload the index"
        )
        assert pane.current == "projects/web/alpha-dashboard"  # selection kept

    drive(flow, watch_files=True)


def test_store_proposal_accept_in_maintenance(demo, drive):
    from memsearch_tui.engine.curator import lifecycle
    from memsearch_tui.engine.review import store_proposals

    root, _ = demo
    store = Store(root)
    moves = lifecycle.plan(store)
    assert [m["action"] for m in moves] == ["archive"]
    prop = store_proposals.propose_lifecycle(root, moves)
    entry_id = moves[0]["id"]

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        plist = app.query_one("#proposals")
        plist.highlighted = [o.id for o in plist.options].index(f"s:{prop['id']}")
        await pilot.pause()
        assert entry_id in str(app.query_one("#proposal-diff").content)
        await pilot.press("y")
        await settle(pilot, app)

    drive(flow)
    assert not (root / f"{entry_id}.md").exists()
    assert store.get(lifecycle.archive_target(entry_id)).status == "archived"
    assert store_proposals.show(root, prop["id"])["status"] == "accepted"


def test_viewing_an_entry_counts_as_activation(demo, drive, monkeypatch):
    import memsearch_tui.tui.panes.index.pane as ip

    monkeypatch.setattr(ip, "ACTIVATION_DELAY", 0.05)
    from memsearch_tui.engine.store import access

    root, _ = demo
    entry_id = "projects/cli/typer-quirks"
    before = Store(root).path_of(entry_id).read_bytes()
    assert entry_id not in access.last_read(root)

    async def flow(pilot, app):
        index(app).select_entry(entry_id)
        await until(pilot, lambda: entry_id in access.last_read(root), "the access record")

    drive(flow)
    assert access.last_read(root)[entry_id] == "2026-11-30"
    assert Store(root).path_of(entry_id).read_bytes() == before  # recorded beside the file, never in it


def test_journal_turn_opens_its_transcript(demo, drive, tmp_path):
    from memsearch_tui.tui.screens.transcript import TranscriptScreen

    _, project = demo
    transcript = tmp_path / "session-abc.jsonl"
    transcript.write_text('{"role": "user", "content": "why did the ETL fail?"}\n', encoding="utf-8")
    day = project / ".memsearch" / "memory" / "2026-12-01.md"
    day.write_text(
        "# 2026-12-01\n\n## Session 10:00\n\n### 10:00 ETL\n"
        f"<!-- session:abc turn:1 transcript:{transcript} -->\n- looked at the failed run\n",
        encoding="utf-8",
    )

    async def flow(pilot, app):
        await pilot.press("2")
        await settle(pilot, app)
        app.query_one("#pane-journal").open_at(day, 6)
        await pilot.pause()
        assert "claude-code" in shown(app.query_one("#journal-detail"))
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, TranscriptScreen), "the transcript view")
        assert "why did the ETL fail?" in shown(app.screen.query_one("#msg-0"))  # a conversation, not raw JSONL

    drive(flow)


def test_app_on_empty_folders_explains_instead_of_crashing(tmp_path):
    from tests.helpers import make_app, run_flow

    root, project = tmp_path / "nothing-here", tmp_path / "project"
    project.mkdir()

    async def flow(pilot, app):
        assert "i creates it" in str(app.query_one("#index-status").content)  # how to init
        assert "memsearch-tui init" in shown(app.query_one("#entry-meta"))
        for key in "23456":
            await pilot.press(key)
            await settle(pilot, app)
        from memsearch_tui.tui.screens.first_run import FirstRunScreen  # the welcome screen

        await until(pilot, lambda: isinstance(app.screen, FirstRunScreen), "the first-run screen")
        await pilot.press("escape")
        for key in "23456":
            await pilot.press(key)
            await settle(pilot, app)
        assert "no journals" in str(app.query_one("#journal-status").content)
        await pilot.press("escape", "5")  # leave the search box; nothing pending: the task table has the keys
        await settle(pilot, app)
        assert app.focused is app.query_one("#tasks")
        await pilot.press("t")
        from memsearch_tui.tui.screens.task_detail import TaskDetailScreen

        await until(pilot, lambda: isinstance(app.screen, TaskDetailScreen), "the task detail from t")
        await pilot.press("escape")
        assert app.errors == []
        assert app.is_running

    run_flow(make_app((root, project)), flow)
    assert not root.exists()  # looking never creates a store


def test_a_burst_of_changes_refreshes_once(demo, drive):
    from memsearch_tui.tui.watch import FilesChanged

    root, _ = demo

    async def flow(pilot, app):
        pane = index(app)
        calls = []
        pane.reload = lambda: calls.append(1)  # count reloads (the reload itself is tested above)
        for i in range(20):
            app.post_message(FilesChanged({root / f"projects/note-{i}.md"}))
        await until(pilot, lambda: calls, "the coalesced refresh")
        await pilot.pause(0.5)  # a second refresh would come within REFRESH_DELAY
        assert calls == [1]

    drive(flow)


def test_viewing_a_restored_entry_keeps_undo_possible(demo, drive, monkeypatch):
    import memsearch_tui.tui.panes.index.pane as ip
    from memsearch_tui.engine.store import access

    monkeypatch.setattr(ip, "ACTIVATION_DELAY", 0.01)
    root, _ = demo
    item = next(i for i in trash.list_trash(root) if i.original_id == "decisions/old-logging-library")

    async def flow(pilot, app):
        trash.restore(Store(root), item.key)
        app.refresh_panes()
        await settle(pilot, app)
        index(app).select_entry("decisions/old-logging-library")
        await until(pilot, lambda: "decisions/old-logging-library" in access.last_read(root), "the access record")
        await settle(pilot, app)
        await undo_newest(pilot, app)

    drive(flow)
    assert Path(item.path).exists()  # the restore was undone: the access record did not block it


def test_undo_history_lists_changes_and_refuses_one_that_arrived_unseen(demo, drive):
    root, _ = demo
    store = Store(root)

    async def flow(pilot, app):
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
        await settle(pilot, app)
        modal = app.screen
        assert modal.records, "the demo's writes are logged"
        seen = modal.newest().summary
        assert seen in shown(modal.query_one("#undo-list"))
        store.add("projects/web", "Written by an agent", "Logged after the list was drawn.\n")
        await pilot.press("u")
        await until(pilot, lambda: modal.query_one("#dialog-error").display, "the refusal")
        assert "newer change" in shown(modal.query_one("#dialog-error"))
        assert (root / "projects/web/written-by-an-agent.md").exists()  # not undone blind
        await settle(pilot, app)
        assert modal.newest().summary != seen  # the list shows the new change now
        await pilot.press("u")
        await settle(pilot, app)
        assert not (root / "projects/web/written-by-an-agent.md").exists()

    drive(flow)


def test_a_failed_vector_build_is_reported(demo, drive):
    # the user's own config (a project file may not name a Milvus collection)
    user = Path.home() / ".memsearch" / "config.toml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text('[tui.search]\ncollection = "1-not-a-name"\n', encoding="utf-8")

    async def flow(pilot, app):
        await pilot.press("6", "escape")  # leave the query box: ctrl+o is the pane's key
        await pilot.press("ctrl+o")
        await settle(pilot, app)
        status = shown(app.query_one("#search-status"))
        assert "building the vector index failed" in status and "1-not-a-name" in status
        assert any(n.title == "vector index failed" for n in told(app))
        assert app.errors == []  # an engine refusal, not a crash

    drive(flow)


def test_an_idle_search_pane_releases_milvus(drive, monkeypatch):
    """An open Milvus Lite data dir is locked for every other process (doctor, a hook), so
    the pane closes the searcher's Milvus client once idle (a real vector build takes about
    a minute on the test machine, so this watches the searcher's ``close`` instead)."""
    import memsearch_tui.tui.panes.search_pane as sp

    monkeypatch.setattr(sp, "RELEASE_AFTER", 0.1)

    async def flow(pilot, app):
        pane = app.pane("search")
        pane.strategy = "grep"
        warm = app.ctx.mem.warm  # the app's one warm searcher (``mem.search``)
        closed = []
        real_release = warm.release  # the searcher closes; the shared index's owner stays
        warm.release = lambda: (real_release(), closed.append(1))  # counted once it is done
        await pilot.press("slash", *"ECharts", "enter")
        # Enter's search may reopen the searcher after the as-you-type one was released: idle again, it goes
        await until(pilot, lambda: closed and warm.searcher is None, "the searcher to be released when idle")
        pane.hits = []
        await pilot.press("enter")  # a new query after the release still works (it opens a new one)
        await until(pilot, lambda: pane.hits, "hits from the reopened searcher")

    drive(flow)


def test_a_release_due_while_a_search_runs_comes_after_it(drive, monkeypatch):
    """The idle release must not be lost when its timer fires during a search (or before
    a finished search's worker says so): it waits for the search, then closes Milvus."""
    import threading

    import memsearch_tui.tui.panes.search_pane as sp

    monkeypatch.setattr(sp, "RELEASE_AFTER", 0.05)

    async def flow(pilot, app):
        pane = app.pane("search")
        closed = []
        warm = app.ctx.mem.warm
        warm.release = lambda: closed.append(1)
        searching = threading.Event()
        pane.run_worker(searching.wait, thread=True, group="search-query", name="search")  # a search in flight
        pane._opened = True
        pane._schedule_release()
        await pilot.pause(0.4)  # the timer fired (several times) while the search ran
        assert not closed
        searching.set()
        await until(pilot, lambda: closed, "the release after the search ended")

    drive(flow)


def test_a_reload_keeps_the_reading_position_in_the_entry_on_screen(demo, drive):
    root, _ = demo
    entry_id = "projects/web/alpha-dashboard"

    async def flow(pilot, app):
        index(app).select_entry(entry_id)
        scroll = app.query_one("#entry-body-scroll")
        await until(pilot, lambda: scroll.max_scroll_y > 0, "a body taller than its view")
        scroll.scroll_to(y=2, animate=False)
        await pilot.pause()
        Store(root).add("projects/web", "Unrelated note", "Written by an agent meanwhile.\n")
        app.refresh_panes()
        await settle(pilot, app)
        assert index(app).current == entry_id
        assert scroll.scroll_y == 2

    drive(flow, size=(100, 24))


def test_running_a_task_reports_its_outcome(demo, drive, monkeypatch):
    import json

    _, project = demo
    monkeypatch.setenv("PATH", "/nonexistent")  # the native provider's `claude` is not here: a clean error

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        app.query_one("#tasks").focus()
        await pilot.press("g", "ctrl+g")  # the first row: claude-code.project_review (enabled)
        await settle(pilot, app)
        note = [n for n in told(app) if n.title == "Maintenance"][-1]  # the key's, the newest
        assert note.message.startswith("claude-code.project_review: error") and note.severity == "error"
        assert app.errors == []

    drive(flow)
    state = json.loads((project / ".memsearch" / ".maintenance-state.json").read_text(encoding="utf-8"))
    assert state["claude-code.project_review"]["last_action"] == "error"


def test_edit_here_stays_open_with_the_error_when_the_text_is_refused(demo, drive):
    root, _ = demo
    entry_id = "preferences/editor-setup"
    before = (root / f"{entry_id}.md").read_bytes()

    async def flow(pilot, app):
        index(app).select_entry(entry_id)
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, TextEditModal), "the editor")
        modal = app.screen
        broken = "---\ntitle: [unclosed\n---\nbody\n"
        modal.query_one("#editor").text = broken
        await pilot.press("ctrl+s")
        await until(pilot, lambda: modal.query_one("#dialog-error").display, "the inline error")
        assert app.screen is modal and modal.query_one("#editor").text == broken
        assert entry_id in shown(modal.query_one("#dialog-error"))

    drive(flow)
    assert (root / f"{entry_id}.md").read_bytes() == before


def test_redo_in_the_undo_history_puts_an_undone_change_back(demo, drive):
    root, _ = demo
    store = Store(root)
    store.add("projects/web", "Redo me", "Undone, then redone.\n")
    path = root / "projects/web/redo-me.md"
    written = path.read_bytes()

    async def flow(pilot, app):
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
        await settle(pilot, app)
        modal = app.screen
        assert modal.redo_target() is None
        await pilot.press("u")
        await until(pilot, lambda: not path.exists(), "the undo")
        await until(pilot, lambda: modal.redo_target() is not None, "the redo mark")
        assert "undone ← r" in shown(modal.query_one("#undo-list"))
        await pilot.press("r")
        await until(pilot, lambda: path.exists(), "the redo")
        await settle(pilot, app)
        assert modal.redo_target() is None
        await pilot.press("r")  # nothing left to redo: says so, changes nothing
        await settle(pilot, app)
        assert app.errors == []

    drive(flow)
    assert path.read_bytes() == written


# -- the reading walk: flows that change nothing the next one reads, in one app ----------
#
# Each was a test of its own, with the same opening (the demo, the Index pane); one app now
# runs them in order (a start cost about as much as a flow). Each step names the flow it
# was; between steps ``_fresh`` empties the filter and the search box and goes back to the
# Index tree, what a new app gave. The two that write (an outside update, a failing store)
# come last.


async def _fresh(pilot, app) -> None:
    """Between steps: no filter, an empty search box, the Index pane, the focus on its tree."""
    box = app.query_one("#index-filter")
    if box.value:
        box.value = ""
        await until(pilot, lambda: "filter" not in str(index(app).tree.root.label), "the cleared filter")
    for search_box in app.query("#search-input"):  # the Search pane is made by its first visit
        search_box.value = ""
    await pilot.press("escape")
    await pilot.press("1")
    app.set_focus(index(app).tree)
    await settle(pilot, app)


async def follow_related_link(pilot, app):
    pane = index(app)
    assert pane.select_entry("projects/web/alpha-dashboard")
    await pilot.pause()
    await pilot.press("r")
    await pilot.press("enter")
    await settle(pilot, app)
    assert pane.current == "projects/web/deploy-checklist"
    assert app.query_one("#index-tree").cursor_node.data.key == "projects/web/deploy-checklist"
    assert "Deploy checklist" in shown(app.query_one("#entry-meta"))


async def markdown_list_items_are_not_stretched(pilot, app):
    index(app).select_entry("projects/web/alpha-dashboard")
    body = app.query_one("#entry-body")
    rows = "MarkdownBulletList > Horizontal"  # Markdown draws each list item as a row
    await until(pilot, lambda: len(body.query(rows)) == 2, "the two list items")
    await settle(pilot, app)
    items = list(body.query(rows))
    assert [i.region.height for i in items] == [1, 1]
    assert items[1].region.y - items[0].region.y == 1


async def detail_follows_the_cursor_after_a_filter_then_escape_clears_and_leaves_it(pilot, app):
    """A filter with several matches: the detail follows the cursor; Escape clears the
    filter, keeping the categories expanded before, and a second Escape leaves it."""
    pane = index(app)
    pane.select_entry("projects/web/alpha-dashboard")
    expanded = pane.tree.expanded_keys()
    assert "projects/web" in expanded
    await pilot.press("f", *"deploy")
    tree = app.query_one("#index-tree")
    await until(pilot, lambda: "filter" in str(tree.root.label), "the filter")
    await settle(pilot, app)
    node = tree.cursor_node
    assert node.data.kind == "entry" and node.data.key != "projects/web/alpha-dashboard"
    assert pane.current == node.data.key
    assert pane.model.summaries[node.data.key].title in shown(app.query_one("#entry-meta"))
    box = app.query_one("#index-filter")
    await pilot.press("escape")  # first press clears
    await settle(pilot, app)
    assert box.value == "" and app.focused is box
    assert pane.tree.expanded_keys() >= expanded  # the categories open before are open again
    await pilot.press("escape")  # second press leaves
    assert app.focused is pane.tree
    await pilot.press("2")  # and digits switch panes again
    assert app.query_one("#tabs").active == "journal"


async def clearing_the_index_filter_by_backspace_keeps_expanded_categories_even_after_a_reload(pilot, app):
    pane = index(app)
    pane.select_entry("projects/web/alpha-dashboard")
    pane.tree.find_cat("decisions").expand()
    await settle(pilot, app)
    expanded = pane.tree.expanded_keys()
    assert {"projects", "projects/web", "decisions"} <= expanded
    await pilot.press("f", *"deploy")
    await until(pilot, lambda: "filter" in str(pane.tree.root.label), "the filter")
    app.refresh_panes()  # an outside change reloads the tree while it is filtered
    await settle(pilot, app)
    assert "filter" in str(pane.tree.root.label)
    await pilot.press(*["backspace"] * len("deploy"))
    await until(pilot, lambda: "filter" not in str(pane.tree.root.label), "the cleared filter")
    await settle(pilot, app)
    assert pane.tree.expanded_keys() >= expanded


async def filter_as_you_type(pilot, app):
    await pilot.press("f")
    await pilot.press(*"回复")
    tree = app.query_one("#index-tree")
    await until(pilot, lambda: "1 match" in str(tree.root.label), "the filter")
    await pilot.press("enter")  # back to the tree, on the first match
    await settle(pilot, app)
    assert tree.cursor_node.data.key == "用户偏好/回复语言"
    assert index(app).current == "用户偏好/回复语言"


async def big_category_loads_in_batches(pilot, app):
    import memsearch_tui.tui.panes.index.tree as tree_mod

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tree_mod, "BATCH", 25)
        pane = index(app)
        node = pane.tree.find_cat("notes/inbox", expand=True)
        node.expand()
        await pilot.pause()
        assert len(node.children) == 26  # 25 entries + "more"
        # the last entry is past the first batch: revealing it loads the batches it needs
        last = pane.model.entries_of["notes/inbox"][-1].id
        assert pane.select_entry(last)
        assert pane.current == last
    assert len(Store(pane.ctx.mem.store.root).list("notes/inbox")) == 60


async def motion_keys_work_in_every_list(pilot, app):
    await pilot.press("3")  # Versions: an option list
    await settle(pilot, app)
    vl = app.query_one("#version-list")
    vl.focus()
    await pilot.press("j")
    assert vl.highlighted == 1
    await pilot.press("k")
    assert vl.highlighted == 0
    await pilot.press("G")
    assert vl.highlighted == vl.option_count - 1
    await pilot.press("g")
    assert vl.highlighted == 0
    await pilot.press("4")  # Trash: a table
    await settle(pilot, app)
    table = app.query_one("#trash-table")
    assert app.focused is table and table.row_count >= 2
    await pilot.press("j")
    assert table.cursor_row == 1
    await pilot.press("k")
    assert table.cursor_row == 0
    await pilot.press("G")
    assert table.cursor_row == table.row_count - 1
    await pilot.press("1")  # Index: a tree
    tree = app.query_one("#index-tree")
    await pilot.press("g", "j")
    assert tree.cursor_line == 1
    await pilot.press("pagedown")
    assert tree.cursor_line > 1


async def explain_key_shows_why_the_highlighted_hit_ranks_there(pilot, app):
    """ctrl+n on a hit: its tier, each leg's rank and score, the weights and why, the
    matched terms — the search's own explain records, in a read-only viewer."""
    from memsearch_tui.tui.modals import ViewerModal

    pane = app.pane("search")
    await pilot.press("slash")
    await pilot.press("ctrl+n")  # nothing searched yet: told so, nothing opens
    assert not isinstance(app.screen, ViewerModal)
    pane.strategy = "index"
    await pilot.press(*"postgres pooling", "enter")
    await settle(pilot, app)
    assert len(pane.hits) >= 2 and pane.hits[0].explain is not None
    await pilot.press("ctrl+n")  # from the box: the first hit is highlighted
    await until(pilot, lambda: isinstance(app.screen, ViewerModal), "the explanation")
    text = app.screen.query_one("#viewer").text
    first = pane.hits[0].explain
    assert text.startswith("hit #1 · score") and "found by index" in text
    assert first.keyword is not None and f"keyword  #1  score {first.keyword.score:.4g}" in text
    assert "vector   not used" in text and "keyword — keyword index (BM25) only" in text
    assert "matched  postgres" in text and "query terms  postgres, pooling" in text
    await pilot.press("escape")
    await until(pilot, lambda: not isinstance(app.screen, ViewerModal), "the viewer closed")
    await pilot.press("down")  # into the hits
    app.query_one("#search-hits").highlighted = 1
    await pilot.press("ctrl+n")
    await until(pilot, lambda: isinstance(app.screen, ViewerModal), "the second explanation")
    assert app.screen.query_one("#viewer").text.startswith("hit #2 ·")
    await pilot.press("escape")
    await until(pilot, lambda: not isinstance(app.screen, ViewerModal), "the viewer closed")


async def escape_leaves_the_search_box_and_digits_switch_panes(pilot, app):
    await pilot.press("slash", *"zz5")
    box = app.query_one("#search-input")
    assert box.value == "zz5"  # in an input a digit is text
    await pilot.press("escape")
    assert box.value == ""
    await pilot.press("escape")
    assert app.focused is app.query_one("#search-hits")
    await pilot.press("5")
    assert app.query_one("#tabs").active == "maintenance"


async def search_opens_hit_in_its_pane(pilot, app):
    app.pane("search").strategy = "grep"
    await pilot.press("slash")
    await pilot.press(*"PgBouncer", "enter")
    await settle(pilot, app)
    pane = app.pane("search")
    assert any(h.id == "decisions/postgres-16-in-production" for h in pane.hits)
    hits = app.query_one("#search-hits")
    assert app.focused is app.query_one("#search-input")  # Enter searched; the box keeps the focus
    await pilot.press("down")  # ↓ moves into the hits
    assert app.focused is hits
    hits.highlighted = next(i for i, h in enumerate(pane.hits) if h.source == "store")
    await pilot.press("enter")
    await settle(pilot, app)
    assert app.query_one("#tabs").active == "index"
    assert index(app).current == "decisions/postgres-16-in-production"


async def detail_shows_an_outside_update_of_the_entry_on_screen(pilot, app):
    from memsearch_tui.engine.store.store import Change

    entry_id = "projects/web/alpha-dashboard"
    index(app).select_entry(entry_id)
    await settle(pilot, app)
    Store(index(app).ctx.mem.store.root).update(entry_id, Change(title="Alpha dashboard (renamed by the CLI)"))
    app.refresh_panes()
    await settle(pilot, app)
    assert "renamed by the CLI" in shown(app.query_one("#entry-meta"))
    assert index(app).current == entry_id


async def unexpected_error_shows_modal_not_crash(pilot, app):
    pane = index(app)
    pane.select_entry("projects/web/alpha-dashboard")

    def boom(*_a, **_k):
        raise RuntimeError("disk on fire")

    pane.ctx.mem.store.seen = boom  # a fake: the engine failing in a way it never should
    await pilot.press("E")  # the edit action reads the entry: RuntimeError
    await until(pilot, lambda: isinstance(app.screen, ErrorModal), "the error modal")
    await pilot.press("escape")
    await pilot.press("2")
    await settle(pilot, app)
    assert app.query_one("#tabs").active == "journal"
    assert app.is_running


READING_WALK = (
    follow_related_link,
    markdown_list_items_are_not_stretched,
    detail_follows_the_cursor_after_a_filter_then_escape_clears_and_leaves_it,
    clearing_the_index_filter_by_backspace_keeps_expanded_categories_even_after_a_reload,
    filter_as_you_type,
    big_category_loads_in_batches,
    motion_keys_work_in_every_list,
    explain_key_shows_why_the_highlighted_hit_ranks_there,
    escape_leaves_the_search_box_and_digits_switch_panes,
    search_opens_hit_in_its_pane,
    detail_shows_an_outside_update_of_the_entry_on_screen,
    unexpected_error_shows_modal_not_crash,
)


def test_the_reading_walk(drive):
    """The steps of ``READING_WALK`` in order, on one app (a failure names its step in the
    traceback)."""

    async def flow(pilot, app):
        for step in READING_WALK:
            await _fresh(pilot, app)
            await step(pilot, app)

    drive(flow)
