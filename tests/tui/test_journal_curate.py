"""Pilot: ``d`` forgets the selected journal turn, ``x`` redacts text in it; both land in
the trash and ``u`` undoes them."""

from __future__ import annotations

import asyncio
from pathlib import Path

from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.store.trash_index import list_trash
from memsearch_tui.tui.modals import UndoModal
from memsearch_tui.tui.panes.journal_pane import AskModal
from tests.helpers import SIZE, make_app, settle, told, until

DAY = """# 2026-12-01

## Session 10:00

### 10:00 ETL
<!-- session:abc turn:1 transcript:/tmp/abc.jsonl -->
- looked at the failed run, token sk-live-123

### 10:30
<!-- session:abc turn:2 transcript:/tmp/abc.jsonl -->
- rewrote the ETL retry loop
"""


def _setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    root, project = tmp_path / "memory", tmp_path / "proj"
    Store(root).init()
    (project / ".git").mkdir(parents=True)
    day = project / ".memsearch" / "memory" / "2026-12-01.md"
    day.parent.mkdir(parents=True)
    day.write_text(DAY, encoding="utf-8")
    return root, project, day


async def _select_turn(pilot, app, day: Path, line: int) -> None:
    await settle(pilot, app)
    await pilot.press("2")
    await settle(pilot, app)
    app.query_one("#pane-journal").open_at(day, line)
    await pilot.pause(0.05)


def test_d_forgets_the_turn_and_u_undoes_it(tmp_path):
    root, project, day = _setup(tmp_path)

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await _select_turn(pilot, app, day, 6)
            await pilot.press("d")
            await pilot.pause(0.05)
            assert isinstance(app.screen, AskModal)
            await pilot.press("enter")  # an empty reason is not accepted
            assert isinstance(app.screen, AskModal)
            await pilot.press(*"leaked token", "enter")
            await until(pilot, lambda: "sk-live" not in day.read_text(encoding="utf-8"), "the forget")
            await settle(pilot, app)
            assert "rewrote the ETL retry loop" in day.read_text(encoding="utf-8")
            [item] = list_trash(root)
            assert item.reason == "leaked token" and item.original_id == "journal/2026-12-01"
            await pilot.press("u")  # the undo history; u there undoes the newest change
            await until(pilot, lambda: isinstance(app.screen, UndoModal), "the undo history")
            await settle(pilot, app)
            await pilot.press("u")
            await until(pilot, lambda: day.read_text(encoding="utf-8") == DAY, "the undo")
            assert list_trash(root) == []

    asyncio.run(flow())


def test_x_redacts_text_in_the_turn_and_escape_cancels(tmp_path):
    root, project, day = _setup(tmp_path)

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await _select_turn(pilot, app, day, 6)
            await pilot.press("x")
            await pilot.pause(0.05)
            await pilot.press("escape")
            await pilot.pause(0.05)
            assert not isinstance(app.screen, AskModal) and day.read_text(encoding="utf-8") == DAY
            await pilot.press("x")
            await pilot.pause(0.05)
            await pilot.press(*"sk-live-123", "tab", *"secret", "enter")
            await until(pilot, lambda: "[redacted]" in day.read_text(encoding="utf-8"), "the redaction")
            assert day.read_text(encoding="utf-8") == DAY.replace("sk-live-123", "[redacted]")
            assert "sk-live-123" in Path(list_trash(root)[0].path).read_text(encoding="utf-8")

    asyncio.run(flow())


def test_d_refuses_when_a_hook_appended_to_the_day_since_the_tree_drew_it(tmp_path):
    root, project, day = _setup(tmp_path)
    appended = DAY + "\n### 11:00\n<!-- session:abc turn:3 transcript:/tmp/abc.jsonl -->\n- a hook wrote this\n"

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await _select_turn(pilot, app, day, 6)
            day.write_text(appended, encoding="utf-8")  # behind the app's back
            await pilot.press("d")
            await until(pilot, lambda: isinstance(app.screen, AskModal), "the reason question")
            await pilot.press(*"leaked token", "enter")
            await settle(pilot, app)
            notes = [f"{n.title}: {n.message}" for n in told(app)]
            assert any("changed" in n and day.name in n for n in notes), notes
            assert day.read_text(encoding="utf-8") == appended and list_trash(root) == []
            await settle(pilot, app)  # the reload re-reads the day
            await _select_turn(pilot, app, day, 6)
            await pilot.press("d")
            await until(pilot, lambda: isinstance(app.screen, AskModal), "the reason question again")
            await pilot.press(*"leaked token", "enter")
            await until(pilot, lambda: "sk-live" not in day.read_text(encoding="utf-8"), "the forget")
            assert "a hook wrote this" in day.read_text(encoding="utf-8")
            assert app.errors == []

    asyncio.run(flow())
