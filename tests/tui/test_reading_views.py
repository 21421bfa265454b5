"""Reading views: notes + proposal history, transcripts, trash preview, search titles and
filter, maintenance task detail, conflict badges, progress of a lifecycle apply."""

from __future__ import annotations

import asyncio
import shutil

from memsearch_tui.demo import DEMO_TODAY, TRANSCRIPT_DAY
from memsearch_tui.tui.app import MemsearchApp
from memsearch_tui.tui.screens.task_detail import TaskDetailScreen
from memsearch_tui.tui.screens.transcript import TranscriptScreen
from tests.helpers import SNAPSHOT_SIZES, make_app, settle, shown, until
from tests.tui.home_demo import home_demo, option_texts  # noqa: F401 (fixture)

SIZE = SNAPSHOT_SIZES["120x36"]


def _app(demo) -> MemsearchApp:
    root, project = demo
    return make_app((root, project), remember_theme=False)


def _pick(lst, fragment: str) -> None:
    lst.highlighted = next(i for i, t in enumerate(option_texts(lst)) if fragment in t)


def test_notes_render_files_and_proposal_history(home_demo):  # noqa: F811
    async def flow():
        app = _app(home_demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("7")
            await settle(pilot)
            lst = app.query_one("#notes-list")
            texts = option_texts(lst)
            assert any("PROJECT.md  proposal waiting" in t for t in texts)
            assert [
                t.split()[0] for t in texts if t.split() and t.split()[0] in ("pending", "accepted", "rejected")
            ] == [
                "pending",
                "accepted",
                "rejected",
            ]
            _pick(lst, "PROJECT.md")
            await pilot.pause(0.1)
            doc = app.query_one("#notes-doc")
            assert "Postgres 16 in production" in doc.source  # the file, rendered as Markdown
            assert app.query_one("#notes-diff-scroll").display  # the proposal beside it
            assert "Move auth to the shared gateway" in shown(app.query_one("#notes-diff"))
            _pick(lst, "rejected")
            await pilot.pause(0.1)
            head = shown(app.query_one("#notes-head"))
            assert "rejected 2026-" in head and "seen once; not a preference" in head
            assert "Likes long explanations" in shown(app.query_one("#notes-diff"))
            assert app.errors == []

    asyncio.run(flow())


def test_transcript_opens_as_a_conversation_at_the_anchored_turn(home_demo):  # noqa: F811
    _, project = home_demo
    day = project / ".memsearch" / "memory" / f"{(DEMO_TODAY.toordinal() - TRANSCRIPT_DAY)}"
    from datetime import date

    day = project / ".memsearch" / "memory" / f"{date.fromordinal(DEMO_TODAY.toordinal() - TRANSCRIPT_DAY)}.md"
    second_turn = next(n for n, line in enumerate(day.read_text().splitlines(), 1) if "turn:2" in line)

    async def flow():
        app = _app(home_demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("2")
            await settle(pilot)
            app.query_one("#pane-journal").open_at(day, second_turn)
            await pilot.pause(0.1)
            assert "~/transcripts/" in shown(app.query_one("#journal-detail"))
            await pilot.press("o")
            await until(pilot, lambda: isinstance(app.screen, TranscriptScreen), "the transcript")
            screen = app.screen
            roles = [w.classes for w in screen.query(".turn")]
            assert {"user", "assistant", "tool"} <= set().union(*roles)
            anchored = list(screen.query(".turn.anchor"))
            assert anchored and "So what do we do" in shown(anchored[0])
            assert "this journal turn" in shown(anchored[0])
            assert all("The nightly ETL paged" not in shown(w) for w in anchored)
            await pilot.press("p")  # previous user turn
            await pilot.press("escape")
            assert app.errors == []

    asyncio.run(flow())


def test_trash_preview_search_titles_and_filter(home_demo):  # noqa: F811
    async def flow():
        app = _app(home_demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("4")
            await settle(pilot)
            preview = shown(app.query_one("#trash-preview"))
            assert "Find large files" in preview
            assert "find . -type f -size +50M" in app.query_one("#trash-preview-body").source  # drawn as Markdown
            assert "R restores it" in shown(app.query_one("#trash-preview-keys"))

            await pilot.press("6")
            await settle(pilot)
            app.query_one("#pane-search").strategy = "grep"
            await pilot.press(*"ECharts", "enter")
            await settle(pilot)
            hits = option_texts(app.query_one("#search-hits"))
            assert any(t.startswith("Alpha dashboard") and "projects/web/alpha-dashboard" in t for t in hits), hits
            assert any("journal" in t for t in hits)
            await pilot.press("ctrl+f")  # all → store
            await settle(pilot)
            store_only = option_texts(app.query_one("#search-hits"))
            assert store_only and all("  store" in t for t in store_only)
            assert "in: store" in shown(app.query_one("#search-source"))
            box = app.query_one("#search-input")
            box.value = "in:notes Context"
            box.focus()
            await pilot.press("enter")
            await settle(pilot)
            scoped = option_texts(app.query_one("#search-hits"))
            assert scoped and all("notes/inbox/" in t for t in scoped), scoped
            assert app.errors == []

    asyncio.run(flow())


def test_maintenance_task_detail_shows_full_error_and_fix(home_demo):  # noqa: F811
    """A due task whose provider cannot run says so, in its row and its detail (the row said
    "due" while doctor said the native provider's CLI was missing): no agent CLI is on the
    tests' PATH (``tests/tui/conftest.py``)."""
    assert shutil.which("claude") is None

    async def flow():
        app = _app(home_demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("5")
            await settle(pilot)
            table = app.query_one("#tasks")
            assert "cannot run" in shown(table.get_row("claude-code.project_review")[1])  # its status
            assert "cannot run" not in shown(table.get_row("claude-code.user_profile")[1])  # disabled
            table.focus()
            keys = [str(k.value) for k in table.rows]
            table.move_cursor(row=keys.index("claude-code.user_profile"))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TaskDetailScreen), "the task detail")
            await until(pilot, lambda: app.screen.fixes is not None, "doctor")
            text = shown(app.screen.query_one("#task-detail-body"))
            assert "native provider: `claude` not found on PATH" in text  # the whole error
            assert "2026-11-28 08:00:00" in text  # its time
            assert "memsearch-tui maintenance enable user_profile --platform claude-code --provider native" in text
            await pilot.press("escape")
            await pilot.pause(0.1)
            table.move_cursor(row=keys.index("claude-code.project_review"))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TaskDetailScreen), "the task detail")
            await until(pilot, lambda: app.screen.fixes is not None, "doctor")
            fixes = app.screen.fixes
            assert fixes and all(f[1].startswith("claude-code.project_review") for f in fixes)
            text = shown(app.screen.query_one("#task-detail-body"))
            assert "cannot run" in text and "native provider needs `claude` on PATH" in text
            assert "fix: install claude, or configure [llm.providers.NAME]" in text  # doctor's fix
            assert ("fix:" in text) == any(f[2] for f in fixes)
            await pilot.press("escape")
            await pilot.pause(0.1)
            app.query_one("#proposals").focus()
            await pilot.press("t")  # from anywhere in the pane: the highlighted task's detail
            await until(pilot, lambda: isinstance(app.screen, TaskDetailScreen), "t opens the detail")
            await pilot.press("escape")
            row = table.get_row("claude-code.user_profile")  # task, status, next: the disabled task says how
            assert "off" in shown(row[1]) and "t: how to enable" in shown(row[2])
            assert app.errors == []

    asyncio.run(flow())


def test_conflict_badge_in_the_index(home_demo):  # noqa: F811
    async def flow():
        app = _app(home_demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            tree = app.query_one("#index-tree")
            app.query_one("#pane-index").select_entry("decisions/postgres-16-in-production")
            await settle(pilot)

            def label() -> str:
                node = next(n for n in _nodes(tree) if n.data and n.data.key == "decisions/postgres-16-in-production")
                return str(node.label)

            await until(pilot, lambda: label().startswith("⚠ Postgres 16"), "the conflict badge")
            other = next(n for n in _nodes(tree) if n.data and n.data.key == "decisions/use-sqlite-for-the-local-cache")
            assert not str(other.label).startswith("⚠")
            from memsearch_tui.engine.curator import versions

            versions.confirm(app.ctx.mem.store, "decisions/postgres-16-in-production")
            app.refresh_panes()
            await settle(pilot)
            await until(pilot, lambda: not label().startswith("⚠"), "the badge to go")
            assert app.errors == []

    asyncio.run(flow())


def _nodes(tree):
    stack = [tree.root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def test_lifecycle_apply_reports_progress(home_demo, monkeypatch):  # noqa: F811
    from memsearch_tui.tui.widgets.work_progress import WorkProgress

    root, _ = home_demo
    seen: list[tuple[float, float | None]] = []
    original = WorkProgress.step

    def spy(self, done, total, what=None):
        seen.append((done, total))
        original(self, done, total, what)

    monkeypatch.setattr(WorkProgress, "step", spy)

    async def flow():
        app = _app(home_demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("4")
            await settle(pilot)
            await pilot.press("p")
            await until(pilot, lambda: app.query_one("#plan-table").row_count > 0, "the plan")
            moves = list(app.query_one("#pane-trash").moves)
            await pilot.press("a")  # apply the plan: it asks first
            await settle(pilot)
            await pilot.press("y")
            await until(pilot, lambda: not app.query_one("#pane-trash").moves, "the apply")
            await settle(pilot)
            assert not app.query_one("#trash-progress").display  # hidden again when done
            assert app.errors == []
            return moves

    moves = asyncio.run(flow())
    assert seen and seen[-1] == (len(moves), len(moves))
    archived = next(m.id for m in moves if m.action == "archive")
    assert not (root / f"{archived}.md").exists()
    category, _, name = archived.rpartition("/")
    assert (root / category / "archived" / f"{name}.md").exists()


def test_split_accept_and_import_report_progress(home_demo, monkeypatch, tmp_path):  # noqa: F811
    from memsearch_tui.engine.review import store_proposals
    from memsearch_tui.engine.store.store import Store
    from memsearch_tui.tui.screens.import_screen import ImportScreen
    from memsearch_tui.tui.widgets.work_progress import WorkProgress

    root, _ = home_demo
    prop = store_proposals.propose_split(Store(root), "notes/inbox", by="month")
    total = len(prop["payload"]["moves"])
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(3):
        (notes / f"n{i}.md").write_text(f"# Imported note {i}\n\nSomething distinct number {i * 7919}.\n")
    seen: list[tuple[float, float | None]] = []
    original = WorkProgress.step

    def spy(self, done, total, what=None):
        seen.append((done, total))
        original(self, done, total, what)

    monkeypatch.setattr(WorkProgress, "step", spy)

    async def flow():
        app = _app(home_demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("5")
            await settle(pilot)
            plist = app.query_one("#proposals")
            plist.highlighted = [o.id for o in plist.options].index(f"s:{prop['id']}")
            await pilot.press("y")
            await settle(pilot)
            assert (total, total) in seen
            assert not app.query_one("#maint-progress").display
            seen.clear()
            await pilot.press("I")
            await until(pilot, lambda: isinstance(app.screen, ImportScreen), "the import screen")
            app.screen.query_one("#import-path").value = str(notes)
            app.screen.query_one("#import-category").value = "notes/imported"
            app.screen.start()
            await settle(pilot)
            assert "3 imported into notes/imported" in shown(app.screen.query_one("#import-outcome"))
            assert (3, 3) in seen
            assert app.errors == []

    asyncio.run(flow())
    assert store_proposals.show(root, prop["id"])["status"] == "accepted"
    assert len([p for p in (root / "notes" / "imported").glob("*.md") if p.name != "INDEX.md"]) == 3


def test_a_slow_first_meaning_search_says_the_model_is_loading(home_demo, monkeypatch):  # noqa: F811
    """The first non-literal search of a session may load the embedding model (seconds):
    after half a second the pane says so with a pulsing bar, and hides it when done."""
    import time

    from memsearch_tui.engine.search.searcher import Searcher

    original = Searcher.search

    def slow(self, *a, **kw):  # the real search, after the delay a cold model load costs
        time.sleep(1.0)
        return original(self, *a, **kw)

    monkeypatch.setattr(Searcher, "search", slow)

    async def flow():
        app = _app(home_demo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("6")
            await settle(pilot)
            pane = app.query_one("#pane-search")
            pane.strategy = "index"
            pane.focus_query("ECharts")
            bar = app.query_one("#search-progress")
            await until(pilot, lambda: bar.display, "the model-loading line")
            assert "loading the embedding model" in shown(bar.query_one("Label"))
            await settle(pilot)
            assert not bar.display
            assert option_texts(app.query_one("#search-hits"))
            assert app.errors == []

    asyncio.run(flow())
