"""The Maintenance pane shows a hygiene merge as the kept entry's body before and after,
and says the other entry goes to the trash (issue 35)."""

from __future__ import annotations

import pytest
from rich.console import Console

from memsearch_tui.engine.api import Memory
from tests.helpers import settle

pytestmark = pytest.mark.slow  # starts the whole app


def _plain(renderable) -> str:
    console = Console(record=True, width=200, color_system=None)
    console.print(renderable)
    return console.export_text()


def _entry(root, entry_id: str, body: str, updated: str) -> None:
    path = root / f"{entry_id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"---\ntitle: {entry_id}\nstatus: active\ncreated: 2026-10-01\nupdated: {updated}\n"
        f"version: 1\ntags: []\nrelated: []\n---\n{body}\n",
        encoding="utf-8",
    )


async def _preview(pilot, app, option_id: str):
    """The Maintenance pane with ``option_id`` highlighted: (its head, its unified diff) as text."""
    await pilot.press("5")
    await settle(pilot, app)
    plist = app.query_one("#proposals")
    diff = app.query_one("#proposal-diff")
    diff.mode = "unified"
    plist.highlighted = [o.id for o in plist.options].index(option_id)
    await pilot.pause()
    return _plain(app.query_one("#proposal-head").content), _plain(diff.content)


def test_a_merge_shows_the_body_it_writes_and_the_trash_note(demo, drive):
    root, project = demo
    _entry(
        root,
        "ops/db-a",
        "Staging database is refreshed from a production snapshot every night at two.\nIt takes 20 minutes.",
        "2026-11-01",
    )
    _entry(
        root,
        "ops/db-b",
        "Every night at two the staging database is refreshed from a production snapshot.",
        "2026-11-20",
    )
    with Memory(root, project) as mem:
        (merge,) = [f for f in mem.hygiene.propose(["duplicate"]).findings if f.ids == ("ops/db-a", "ops/db-b")]

    async def flow(pilot, app):
        head, diff = await _preview(pilot, app, f"s:{merge.proposal}")
        assert "It takes 20 minutes." in diff and "merged into ops/db-b" in head

    drive(flow)


def test_a_condensed_index_names_the_topic_file_it_creates(demo, drive):
    import os
    from pathlib import Path

    root, project = demo
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(Path(project).resolve()))
    index = Path(os.environ["HOME"]) / ".claude" / "projects" / slug / "memory" / "MEMORY.md"
    index.parent.mkdir(parents=True)
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    lines = [f"- [笔记 {n}](note-{n}.md) — deploy note {n}\n" for n in range(1, 231)]
    lines[219] = f"- [CI](ci.md) — the bot's token is {key}\n"  # in the tail that moves
    index.write_text("".join(lines), "utf-8")
    with Memory(root, project) as mem:
        (f,) = mem.hygiene.propose(["over-long"]).findings

    async def flow(pilot, app):
        head, diff = await _preview(pilot, app, f"p:{f.proposal}")
        assert "+ creates memory-overflow.md beside it" in head and "- [笔记 230](note-230.md)" in diff
        assert key not in diff and "[redacted: GitHub token]" in diff  # shown masked

    drive(flow)


def test_the_header_counts_every_pending_proposal_the_list_shows(demo, drive):
    """Trial of s12, problem 9: the header counted only PROJECT.md/USER.md rewrites while the
    list also held the store proposals (a hygiene merge here)."""
    root, project = demo
    _entry(root, "ops/db-a", "The staging database is refreshed nightly 每晚刷新.", "2026-11-01")
    _entry(root, "ops/db-b", "The staging database is refreshed nightly 每晚刷新 at two.", "2026-11-20")
    with Memory(root, project) as mem:
        assert any(f.proposal for f in mem.hygiene.propose(["duplicate"]).findings)

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        ids = [o.id for o in app.query_one("#proposals").options if o.id]
        assert any(i.startswith("s:") for i in ids)
        n = len(ids)
        status = _plain(app.query_one("#maint-status").content)
        assert f"· {n} pending proposal{'s' if n != 1 else ''}" in status, (ids, status)

    drive(flow)
