"""Pilot flows: each pane's main actions, asserting what changed on disk."""

from __future__ import annotations

import asyncio
from pathlib import Path

from memsearch_tui.engine.curator import trash, versions
from memsearch_tui.engine.review import proposals
from memsearch_tui.engine.store.store import Store
from memsearch_tui.tui.app import MemsearchApp
from memsearch_tui.tui.modals import ConfirmModal, ErrorModal, TextEditModal
from memsearch_tui.tui.panes.index_pane import IndexPane

SIZE = (120, 40)


def shown(widget) -> str:
    """The text a Static currently shows (its rich renderable printed to a string)."""
    import io

    from rich.console import Console

    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(widget.content)
    return console.export_text()


def make_app(demo: tuple[Path, Path], **kw) -> MemsearchApp:
    root, project = demo
    kw.setdefault("watch_files", False)
    return MemsearchApp(root, project, **kw)


async def settle(pilot, app: MemsearchApp) -> None:
    """Wait until no worker is running and the screen has caught up."""
    for _ in range(200):
        await pilot.pause(0.02)
        busy = [w for w in app.workers if w.is_running and w.group != "watch"]
        if not busy:
            break
    await pilot.pause(0.05)


async def until(pilot, check, what: str, tries: int = 250) -> None:
    for _ in range(tries):
        if check():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"gave up waiting for {what}")


def test_restore_from_trash_then_undo(demo):
    root, _ = demo
    store = Store(root)
    item = next(i for i in trash.list_trash(root) if i.original_id == "decisions/old-logging-library")
    trashed_bytes = Path(item.path).read_bytes()

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("4")
            await settle(pilot, app)
            table = app.query_one("#trash-table")
            keys = [str(k.value) for k in table.rows]
            table.move_cursor(row=keys.index(item.key))
            await pilot.press("R")
            await settle(pilot, app)
            assert store.get("decisions/old-logging-library").status == "active"
            assert not Path(item.path).exists()
            await pilot.press("u")
            await settle(pilot, app)
            assert app.errors == []

    asyncio.run(flow())
    assert Path(item.path).read_bytes() == trashed_bytes
    assert not (root / "decisions" / "old-logging-library.md").exists()


def test_purge_asks_first(demo):
    root, _ = demo
    item = trash.list_trash(root)[0]

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("4")
            await settle(pilot, app)
            await pilot.press("P")
            await pilot.pause(0.1)
            assert isinstance(app.screen, ConfirmModal)
            await pilot.press("n")  # cancelled: nothing deleted
            await pilot.pause(0.1)
            assert Path(item.path).exists()
            await pilot.press("P")
            await pilot.pause(0.1)
            await pilot.press("y")
            await settle(pilot, app)

    asyncio.run(flow())
    assert not Path(item.path).exists()


def test_accept_proposal_and_undo(demo):
    root, project = demo
    prop = proposals.list_pending(project)[0]
    target = Path(prop.target)
    before = target.read_bytes()

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("5")
            await settle(pilot, app)
            await pilot.press("y")
            await settle(pilot, app)
            assert target.read_text(encoding="utf-8") == prop.content
            assert proposals.get(project, prop.id).status == "accepted"
            await pilot.press("u")
            await settle(pilot, app)

    asyncio.run(flow())
    assert target.read_bytes() == before


def test_reject_proposal(demo):
    _, project = demo
    prop = proposals.list_pending(project)[0]
    before = Path(prop.target).read_bytes()

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("5")
            await settle(pilot, app)
            await pilot.press("x")
            await settle(pilot, app)
            assert "No pending proposals" in shown(app.query_one("#proposal-head"))

    asyncio.run(flow())
    assert proposals.get(project, prop.id).status == "rejected"
    assert Path(prop.target).read_bytes() == before


def test_edit_then_accept_proposal(demo):
    _, project = demo
    prop = proposals.list_pending(project)[0]

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("5")
            await settle(pilot, app)
            await pilot.press("e")
            await pilot.pause(0.1)
            assert isinstance(app.screen, TextEditModal)
            area = app.screen.query_one("#editor")
            area.text = area.text + "\n## Added by hand\n- reviewed in the TUI\n"
            await pilot.press("ctrl+s")
            await settle(pilot, app)

    asyncio.run(flow())
    text = Path(prop.target).read_text(encoding="utf-8")
    assert "## Added by hand" in text and "## Next steps" in text
    assert proposals.get(project, prop.id).status == "accepted"


def test_changed_target_needs_confirmation(demo):
    _, project = demo
    prop = proposals.list_pending(project)[0]
    Path(prop.target).write_text("# edited by hand meanwhile\n", encoding="utf-8")

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("5")
            await settle(pilot, app)
            assert "changed since" in shown(app.query_one("#proposal-head"))
            await pilot.press("y")
            await pilot.pause(0.1)
            assert isinstance(app.screen, ConfirmModal)
            await pilot.press("n")
            await pilot.pause(0.1)

    asyncio.run(flow())
    assert Path(prop.target).read_text(encoding="utf-8") == "# edited by hand meanwhile\n"
    assert proposals.get(project, prop.id).status == "pending"


def test_follow_related_link(demo):
    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            pane = app.query_one(IndexPane)
            assert pane.select_entry("projects/web/alpha-dashboard")
            await pilot.pause(0.1)
            await pilot.press("r")
            await pilot.press("enter")
            await pilot.pause(0.1)
            assert pane.current == "projects/web/deploy-checklist"
            assert app.query_one("#index-tree").cursor_node.data.key == "projects/web/deploy-checklist"
            assert "Deploy checklist" in shown(app.query_one("#entry-meta"))

    asyncio.run(flow())


def test_restore_version_and_confirm_conflict(demo):
    root, _ = demo
    store = Store(root)
    entry_id = "decisions/postgres-16-in-production"
    assert store.get(entry_id).version == 3

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("3")
            await settle(pilot, app)
            vl = app.query_one("#version-list")
            vl.focus()
            vl.highlighted = vl.option_count - 1  # oldest: v1
            await pilot.pause(0.1)
            assert "v0" not in shown(app.query_one("#versions-head"))
            await pilot.press("R")
            await pilot.pause(0.1)
            await pilot.press("y")
            await settle(pilot, app)

    asyncio.run(flow())
    entry = store.get(entry_id)
    assert entry.version == 4
    assert "Postgres 16 with logical replication" in entry.body
    assert "conflict" not in entry.meta


def test_confirm_conflict(demo):
    root, _ = demo
    store = Store(root)

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("3")
            await settle(pilot, app)
            await pilot.press("c")
            await settle(pilot, app)

    asyncio.run(flow())
    assert versions.conflicts(store) == []
    assert store.get("decisions/postgres-16-in-production").version == 3


def test_edit_entry_in_place(demo):
    root, _ = demo
    entry_id = "preferences/editor-setup"

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            app.query_one(IndexPane).select_entry(entry_id)
            await pilot.press("E")
            await pilot.pause(0.1)
            area = app.screen.query_one("#editor")
            area.text = area.text.replace("Neovim", "Helix")
            await pilot.press("ctrl+s")
            await settle(pilot, app)

    asyncio.run(flow())
    assert "Helix with the LSP" in Store(root).get(entry_id).body


def test_trash_from_index_asks_and_moves(demo):
    root, _ = demo
    entry_id = "people/dana-platform-team"

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            app.query_one(IndexPane).select_entry(entry_id)
            await pilot.press("d")
            await pilot.pause(0.1)
            assert isinstance(app.screen, ConfirmModal)
            await pilot.press("y")
            await settle(pilot, app)

    asyncio.run(flow())
    assert not (root / f"{entry_id}.md").exists()
    assert any(i.original_id == entry_id for i in trash.list_trash(root))


def test_filter_as_you_type(demo):
    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("f")
            await pilot.press(*"回复")
            tree = app.query_one("#index-tree")
            await until(pilot, lambda: "1 matches" in str(tree.root.label), "the filter")
            await pilot.press("enter")  # back to the tree, on the first match
            await pilot.pause(0.05)
            assert tree.cursor_node.data.key == "用户偏好/回复语言"
            assert app.query_one(IndexPane).current == "用户偏好/回复语言"

    asyncio.run(flow())


def test_big_category_loads_in_batches(demo):
    root, _ = demo
    store = Store(root)

    async def flow():
        app = make_app(demo)
        import memsearch_tui.tui.panes.index_pane as ip

        old, ip.BATCH = ip.BATCH, 25
        try:
            async with app.run_test(size=SIZE) as pilot:
                await settle(pilot, app)
                pane = app.query_one(IndexPane)
                node = pane._find_cat("notes/inbox", expand=True)
                node.expand()
                await pilot.pause(0.05)
                assert len(node.children) == 26  # 25 entries + "more"
                # the last entry is past the first batch: revealing it loads the batches it needs
                last = pane.model.entries_of["notes/inbox"][-1].id
                assert pane.select_entry(last)
                assert pane.current == last
        finally:
            ip.BATCH = old

    asyncio.run(flow())
    assert len(store.list("notes/inbox")) == 60


def test_search_opens_hit_in_its_pane(demo):
    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("slash")
            await pilot.press(*"PgBouncer", "enter")
            await settle(pilot, app)
            pane = app.query_one("#pane-search")
            pane.strategy = "grep"
            assert any(h.id == "decisions/postgres-16-in-production" for h in pane.hits)
            hits = app.query_one("#search-hits")
            hits.highlighted = next(i for i, h in enumerate(pane.hits) if h.source == "store")
            hits.focus()
            await pilot.press("enter")
            await settle(pilot, app)
            assert app.query_one("#tabs").active == "index"
            assert app.query_one(IndexPane).current == "decisions/postgres-16-in-production"

    asyncio.run(flow())


def test_unexpected_error_shows_modal_not_crash(demo):
    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            pane = app.query_one(IndexPane)
            pane.select_entry("projects/web/alpha-dashboard")

            def boom(*_a, **_k):
                raise RuntimeError("disk on fire")

            pane.ctx.store.get = boom  # a fake: the engine failing in a way it never should
            await pilot.press("E")  # the edit action reads the entry: RuntimeError
            await pilot.pause(0.1)
            assert isinstance(app.screen, ErrorModal)
            await pilot.press("escape")
            await pilot.press("2")
            await settle(pilot, app)
            assert app.query_one("#tabs").active == "journal"
            assert app.is_running

    asyncio.run(flow())


def test_live_refresh_after_outside_change(demo):
    root, _ = demo

    async def flow():
        app = make_app(demo, watch_files=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            pane = app.query_one(IndexPane)
            pane.select_entry("projects/web/alpha-dashboard")
            Store(root).add("projects/web", "Added by an agent", "Written while the app was open.\n")
            await until(
                pilot,
                lambda: "projects/web/added-by-an-agent" in pane.model.summaries,
                "the watcher to reload the index",
                tries=400,
            )
            assert pane.current == "projects/web/alpha-dashboard"  # selection kept

    asyncio.run(flow())


def test_store_proposal_accept_in_maintenance(demo):
    from memsearch_tui.engine.curator import lifecycle
    from memsearch_tui.engine.review import store_proposals

    root, _ = demo
    store = Store(root)
    moves = lifecycle.plan(store)
    assert [m["action"] for m in moves] == ["archive"]
    prop = store_proposals.propose_lifecycle(root, moves)
    entry_id = moves[0]["id"]

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("5")
            await settle(pilot, app)
            plist = app.query_one("#proposals")
            plist.highlighted = [o.id for o in plist.options].index(f"s:{prop['id']}")
            await pilot.pause(0.05)
            assert entry_id in str(app.query_one("#proposal-diff").content)
            await pilot.press("y")
            await settle(pilot, app)

    asyncio.run(flow())
    assert not (root / f"{entry_id}.md").exists()
    assert store.get(lifecycle.archive_target(entry_id)).status == "archived"
    assert store_proposals.show(root, prop["id"])["status"] == "accepted"


def test_viewing_an_entry_counts_as_activation(demo, monkeypatch):
    import memsearch_tui.tui.panes.index_pane as ip

    monkeypatch.setattr(ip, "ACTIVATION_DELAY", 0.05)
    root, _ = demo
    entry_id = "projects/cli/typer-quirks"
    assert "accessed" not in Store(root).get(entry_id).meta

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            app.query_one(IndexPane).select_entry(entry_id)
            await until(pilot, lambda: "accessed" in Store(root).get(entry_id).meta, "the access record")

    asyncio.run(flow())
    assert str(Store(root).get(entry_id).meta["accessed"]) == "2026-11-30"


def test_journal_turn_opens_its_transcript(demo, tmp_path):
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

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("2")
            await settle(pilot, app)
            app.query_one("#pane-journal").open_at(day, 6)
            await pilot.pause(0.05)
            assert "claude-code" in shown(app.query_one("#journal-detail"))
            await pilot.press("o")
            await pilot.pause(0.1)
            assert isinstance(app.screen, TranscriptScreen)  # tui2: a conversation, not raw JSONL
            assert "why did the ETL fail?" in shown(app.screen.query_one("#msg-0"))

    asyncio.run(flow())


def test_app_on_empty_folders_explains_instead_of_crashing(tmp_path):
    root, project = tmp_path / "nothing-here", tmp_path / "project"
    project.mkdir()

    async def flow():
        app = MemsearchApp(root, project, watch_files=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert "memsearch-tui" in str(app.query_one("#index-status").content)  # how to init
            from memsearch_tui.tui.screens.first_run import FirstRunScreen  # tui2: the welcome screen

            await until(pilot, lambda: isinstance(app.screen, FirstRunScreen), "the first-run screen")
            await pilot.press("escape")
            for key in "23456":
                await pilot.press(key)
                await settle(pilot, app)
            assert "no journals" in str(app.query_one("#journal-status").content)
            assert app.errors == []
            assert app.is_running

    asyncio.run(flow())
    assert not root.exists()  # looking never creates a store


def test_a_burst_of_changes_refreshes_once(demo):
    from memsearch_tui.tui.watch import FilesChanged

    root, _ = demo

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            pane = app.query_one(IndexPane)
            calls = []
            pane.reload = lambda: calls.append(1)  # count reloads (the reload itself is tested above)
            for i in range(20):
                app.post_message(FilesChanged({root / f"projects/note-{i}.md"}))
            await pilot.pause(0.6)
            assert calls == [1]

    asyncio.run(flow())


def test_viewing_a_restored_entry_keeps_undo_possible(demo, monkeypatch):
    import memsearch_tui.tui.panes.index_pane as ip

    monkeypatch.setattr(ip, "ACTIVATION_DELAY", 0.01)
    root, _ = demo
    item = next(i for i in trash.list_trash(root) if i.original_id == "decisions/old-logging-library")

    async def flow():
        app = make_app(demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            trash.restore(Store(root), item.key)
            app.refresh_panes()
            await settle(pilot, app)
            app.query_one(IndexPane).select_entry("decisions/old-logging-library")
            await pilot.pause(0.2)
            await settle(pilot, app)
            await pilot.press("u")
            await settle(pilot, app)

    asyncio.run(flow())
    assert Path(item.path).exists()  # the restore was undone: the access record did not block it
