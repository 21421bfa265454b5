"""The TUI never overwrites, moves or restores a change it did not see.

Each flow lets the pane draw a file, changes that file behind the app's back (as an agent,
a hook or the CLI would), then presses the key: the write is refused with a notification
naming the file, the file keeps the outside change byte for byte, and after the reload
that follows, the same key does the job (the pane stays usable).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.curator import trash
from memsearch_tui.engine.store.store import Store
from memsearch_tui.tui.modals import ConfirmModal, OverwriteModal
from memsearch_tui.tui.panes.index.pane import IndexPane
from tests.helpers import settle, told, until

pytestmark = pytest.mark.slow  # each flow starts the whole app

OUTSIDE = b"\n- added by an agent after the pane drew this\n"


def _change_behind_the_apps_back(path: Path) -> bytes:
    data = path.read_bytes() + OUTSIDE
    path.write_bytes(data)
    return data


def _refusal(app, path: Path) -> str:
    """The notification that refused a write on ``path`` (AssertionError if none did)."""
    notes = [f"{n.title}: {n.message}" for n in told(app)]
    found = [n for n in notes if "changed" in n and path.name in n]
    assert found, notes
    return found[-1]


async def _confirm(pilot, app, key: str, what: str, modal: type = ConfirmModal, yes: str = "y") -> None:
    await pilot.press(key)
    await until(pilot, lambda: isinstance(app.screen, modal), what)
    await pilot.press(yes)
    await settle(pilot, app)


@pytest.mark.parametrize(("key", "word"), [("A", "archive"), ("d", "trash")])
def test_index_archive_and_trash_refuse_an_entry_changed_since_it_was_shown(demo, drive, key, word):
    root, _ = demo
    entry_id = "people/dana-platform-team"
    path = root / f"{entry_id}.md"

    async def flow(pilot, app):
        app.query_one(IndexPane).select_entry(entry_id)
        await settle(pilot, app)
        theirs = _change_behind_the_apps_back(path)
        await _confirm(pilot, app, key, f"the {word} question")
        assert word in _refusal(app, path)
        assert path.read_bytes() == theirs  # not moved, not rewritten
        assert app.errors == []
        await settle(pilot, app)  # the reload after the refusal shows the file as it is now
        app.query_one(IndexPane).select_entry(entry_id)
        await settle(pilot, app)
        await _confirm(pilot, app, key, f"the {word} question again")

    drive(flow)
    assert not path.exists()  # the second press, on what was shown, went through
    if word == "trash":
        [item] = [i for i in trash.list_trash(root) if i.original_id == entry_id]
        assert OUTSIDE in Path(item.path).read_bytes()
    else:
        assert OUTSIDE in (root / "people/archived/dana-platform-team.md").read_bytes()


def test_version_restore_refuses_an_entry_changed_since_the_pane_drew_it(demo, drive):
    root, _ = demo
    entry_id = "decisions/postgres-16-in-production"
    path = root / f"{entry_id}.md"

    async def pick_oldest(pilot, app):
        vl = app.query_one("#version-list")
        vl.focus()
        await pilot.press("G")  # oldest: v1 (the list is newest first)
        await settle(pilot, app)

    async def flow(pilot, app):
        await pilot.press("3")
        await settle(pilot, app)
        await pick_oldest(pilot, app)
        theirs = _change_behind_the_apps_back(path)
        await _confirm(pilot, app, "R", "the restore question")
        assert "restore" in _refusal(app, path)
        assert path.read_bytes() == theirs
        assert Store(root).get(entry_id).version == 3
        await settle(pilot, app)
        await pick_oldest(pilot, app)
        await _confirm(pilot, app, "R", "the restore question again")
        assert app.errors == []

    drive(flow)
    entry = Store(root).get(entry_id)
    assert entry.version == 4 and "Postgres 16 with logical replication" in entry.body
    kept = root / ".versions" / entry_id / "v3.md"
    assert OUTSIDE in kept.read_bytes()  # the outside change is kept as a version, not lost


def test_trash_restore_refuses_a_trashed_file_changed_since_the_preview(demo, drive):
    root, _ = demo
    item = next(i for i in trash.list_trash(root) if i.original_id == "decisions/old-logging-library")
    path = Path(item.path)

    async def select(pilot, app):
        table = app.query_one("#trash-table")
        keys = [str(k.value) for k in table.rows]
        table.move_cursor(row=keys.index(item.key))
        await settle(pilot, app)

    async def flow(pilot, app):
        await pilot.press("4")
        await settle(pilot, app)
        await select(pilot, app)
        theirs = _change_behind_the_apps_back(path)
        await pilot.press("R")
        await settle(pilot, app)
        assert "restore" in _refusal(app, path)
        assert path.read_bytes() == theirs
        assert not (root / "decisions/old-logging-library.md").exists()
        await select(pilot, app)  # the preview now shows the changed file
        await pilot.press("R")
        await settle(pilot, app)
        assert app.errors == []

    drive(flow)
    assert not path.exists()
    assert OUTSIDE in (root / "decisions/old-logging-library.md").read_bytes()


def test_lifecycle_plan_apply_refuses_when_a_planned_entry_changed_since_it_was_shown(demo, drive):
    root, _ = demo
    entry_id = "projects/data/pipelines/parquet-schema-rules"
    path = root / f"{entry_id}.md"

    async def plan_and_apply(pilot, app):
        await pilot.press("p")
        await settle(pilot, app)
        assert entry_id in str(app.query_one("#plan-table").get_row_at(0)[1])
        await _confirm(pilot, app, "a", "the apply question")

    async def flow(pilot, app):
        await pilot.press("4")
        await settle(pilot, app)
        await pilot.press("p")
        await settle(pilot, app)
        theirs = _change_behind_the_apps_back(path)
        await _confirm(pilot, app, "a", "the apply question")
        assert "plan" in _refusal(app, path)
        assert path.read_bytes() == theirs
        await settle(pilot, app)
        await plan_and_apply(pilot, app)  # the recomputed plan, on the file as it is now
        assert app.errors == []

    drive(flow)
    assert not path.exists()
    assert OUTSIDE in (root / "projects/data/pipelines/archived/parquet-schema-rules.md").read_bytes()


def test_overwrite_on_accept_only_overwrites_what_the_diff_showed(demo, drive):
    from memsearch_tui.engine.review import proposals

    _, project = demo
    prop = proposals.list_pending(project)[0]
    target = Path(prop.target)

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        theirs = _change_behind_the_apps_back(target)  # the diff on screen does not show this
        await _confirm(pilot, app, "y", "the overwrite question", OverwriteModal, "o")  # the target changed: asks first
        assert "accept" in _refusal(app, target)
        assert target.read_bytes() == theirs
        assert proposals.get(project, prop.id).status == "pending"
        await settle(pilot, app)  # the reload redraws the diff against the file as it is now
        await _confirm(pilot, app, "y", "the overwrite question again", OverwriteModal, "o")
        assert app.errors == []

    drive(flow)
    assert target.read_text(encoding="utf-8") == prop.content
    assert proposals.get(project, prop.id).status == "accepted"
