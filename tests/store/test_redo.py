"""Redo: the most recently undone operation comes back byte for byte, moves stay moves,
a new change ends the redo chain, and a change made since the undo is never overwritten."""

from __future__ import annotations

import json

import pytest

from memsearch_tui.engine.core.errors import Conflict, NotFound
from memsearch_tui.engine.curator import split, trash
from memsearch_tui.engine.history import oplog, undo
from memsearch_tui.engine.store.store import Change, Store
from tests.conftest import tree_bytes


def test_undo_then_redo_gives_back_the_same_bytes(store: Store) -> None:
    store.add("projects/web", "Deploy", "Deploy with the blue-green script.\n")
    store.update("projects/web/deploy", Change(body="Deploy with the canary script.\n"))
    after = tree_bytes(store.root)
    undo.undo_last(store.root)
    undone = tree_bytes(store.root)
    assert undone != after
    rec = undo.redo_last(store.root)
    assert not rec.undone
    assert tree_bytes(store.root) == after
    undo.undo_last(store.root)  # and it can be undone again
    assert tree_bytes(store.root) == undone


def test_redo_walks_forward_in_the_order_undone(store: Store) -> None:
    store.add("notes", "One", "first\n")
    states = [tree_bytes(store.root)]
    store.add("notes", "Two", "second\n")
    states.append(tree_bytes(store.root))
    store.add("notes", "Three", "third\n")
    states.append(tree_bytes(store.root))
    undo.undo_last(store.root)
    undo.undo_last(store.root)
    assert tree_bytes(store.root) == states[0]
    assert "Two" in undo.redoable(store.root).summary
    undo.redo_last(store.root)
    assert tree_bytes(store.root) == states[1]
    undo.redo_last(store.root)
    assert tree_bytes(store.root) == states[2]
    with pytest.raises(NotFound, match="nothing to redo"):
        undo.redo_last(store.root)


def test_a_new_change_ends_the_redo_chain(store: Store) -> None:
    store.add("notes", "One", "first\n")
    store.add("notes", "Two", "second\n")
    undo.undo_last(store.root)
    assert undo.redoable(store.root) is not None
    store.add("notes", "Other", "a new change after the undo\n")
    assert undo.redoable(store.root) is None
    with pytest.raises(NotFound):
        undo.redo_last(store.root)
    # undoing the new change does not bring back the older undone one out of order
    undo.undo_last(store.root)
    assert "Other" in undo.redo_pending(store.root).summary


def test_redo_refuses_a_change_made_since_the_undo(store: Store) -> None:
    store.add("notes", "Plan", "the plan\n")
    store.update("notes/plan", Change(body="the plan, revised\n"))
    undo.undo_last(store.root)
    path = store.root / "notes" / "plan.md"
    edited = path.read_bytes().replace(b"the plan", b"hand-edited plan")
    path.write_bytes(edited)
    with pytest.raises(Conflict, match="changed since the undo"):
        undo.redo_last(store.root)
    assert path.read_bytes() == edited


def test_redo_of_a_trash_is_a_move_and_keeps_the_entry(store: Store) -> None:
    store.add("notes", "Old", "an entry that goes to the trash\n")
    trash.trash(store, "notes/old")
    after = tree_bytes(store.root)
    undo.undo_last(store.root)
    assert (store.root / "notes" / "old.md").exists()
    undo.redo_last(store.root)
    assert tree_bytes(store.root) == after
    assert not (store.root / "notes" / "old.md").exists()


def test_redo_of_a_split_and_its_undo_again(store: Store) -> None:
    for i in range(4):
        store.add("notes", f"Note {i}", f"body {i}\n", tags=["api" if i % 2 else "ui"])
    before = tree_bytes(store.root)
    split.apply(store, "notes", by="tag")
    after = tree_bytes(store.root)
    undo.undo_last(store.root)
    assert tree_bytes(store.root) == before
    undo.redo_last(store.root)
    assert tree_bytes(store.root) == after
    undo.undo_last(store.root)
    assert tree_bytes(store.root) == before


def _big_index(store: Store, n: int) -> None:
    folder = store.root / "inbox"
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"note-{i}.md").write_text(
            f"---\ntitle: A fairly long title for note number {i}\nstatus: active\n---\nbody {i}\n", encoding="utf-8"
        )
    store.rebuild_index()


def test_redo_of_an_add_to_a_big_category_uses_a_kept_difference(store: Store) -> None:
    _big_index(store, 600)
    index = store.root / "inbox" / "INDEX.md"
    assert index.stat().st_size > oplog.PATCH_MIN_BYTES
    store.add("inbox", "Added", "an add into a big category\n")
    after = tree_bytes(store.root)
    undo.undo_last(store.root)
    rec = next(r for r in oplog.records(store.root) if r.undone)
    kept = next(f for f in rec.files if f["path"].endswith("inbox/INDEX.md"))
    assert "redo" in kept  # a forward difference, not a 40 KB copy
    undo.redo_last(store.root)
    assert tree_bytes(store.root) == after


def test_records_written_before_redo_existed_are_not_redone(store: Store) -> None:
    store.add("notes", "One", "first\n")
    undo.undo_last(store.root)
    log = store.root / ".memsearch-tui" / "oplog"
    newest = max(log.glob("*.json"))
    data = json.loads(newest.read_text(encoding="utf-8"))
    data.pop("undo_mark")  # an undo by an older version kept no order
    newest.write_text(json.dumps(data), encoding="utf-8")
    assert undo.redoable(store.root) is None


def test_history_marks_the_redo_target(store: Store) -> None:
    store.add("notes", "One", "first\n")
    undo.undo_last(store.root)
    rows = undo.history(store.root)
    assert [r["redoable"] for r in rows if r["kind"] != "init"] == [True]
    undo.redo_last(store.root)
    assert not any(r["redoable"] for r in undo.history(store.root))


def test_undo_and_redo_without_a_store_write_nothing(tmp_path) -> None:
    root = tmp_path / "memory"
    for step in (undo.undo_last, undo.redo_last):
        with pytest.raises(NotFound, match="no operation log"):
            step(root)
    assert not root.exists()
