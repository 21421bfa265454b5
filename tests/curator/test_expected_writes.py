"""``expected=``: every write a face makes on something the user saw refuses when it changed.

Each test reads what a TUI pane would show (``Store.seen``, a trash preview, a lifecycle
plan with ``lifecycle.seen``), lets "an agent" change the file, then asks for the write
with the bytes the user saw: Conflict naming the file, and not one byte of the store
changed. The same call with fresh bytes (or without ``expected``, as the CLI calls it)
goes through, so the refusal is the check and not some other failure.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Conflict
from memsearch_tui.engine.core.paths import versions_dir
from memsearch_tui.engine.curator import lifecycle, trash, versions
from memsearch_tui.engine.curator.trash_preview import preview
from memsearch_tui.engine.review import store_proposals
from memsearch_tui.engine.store.store import Change, Store
from tests.curator.curator_helpers import files


def _agent_edits(store: Store, entry_id: str, line: str = "- added by an agent meanwhile\n") -> None:
    """A change made by another process while the TUI showed the entry (a plain write)."""
    path = store.path_of(entry_id)
    path.write_bytes(path.read_bytes() + line.encode())


def _refused(store: Store, call, name: str) -> None:
    """``call()`` raises Conflict naming ``name`` and the store is byte for byte unchanged."""
    before = files(store.root)
    with pytest.raises(Conflict, match=name):
        call()
    assert files(store.root) == before


def test_seen_returns_the_bytes_the_entry_was_parsed_from(store: Store) -> None:
    e = store.add("p", "Seen", "what the pane draws\n")
    entry, data = store.seen(e.id)
    assert data == e.path.read_bytes() and entry.body == "what the pane draws\n"


def test_restore_version_refuses_a_change_made_since_the_pane_drew_it(store: Store) -> None:
    e = store.add("p", "Shell", "Default shell is bash.\n")
    versions.update_entry(store, e.id, Change(body="Default shell is zsh.\n"))
    _, seen = store.seen(e.id)
    _agent_edits(store, e.id)
    _refused(store, lambda: versions.restore_version(store, e.id, 1, expected=seen), "p/shell.md")
    _, fresh = store.seen(e.id)
    assert versions.restore_version(store, e.id, 1, expected=fresh)["current"] == 3
    assert b"added by an agent meanwhile" in (versions_dir(store.root, e.id) / "v2.md").read_bytes()  # kept


def test_confirm_conflict_refuses_a_change_made_since(store: Store) -> None:
    e = store.add("p", "Lang", "Backend is written in Go.\n")
    versions.update_entry(store, e.id, Change(body="Backend is written in Rust.\n"))
    _, seen = store.seen(e.id)
    _agent_edits(store, e.id)
    _refused(store, lambda: versions.confirm(store, e.id, expected=seen), "p/lang.md")
    versions.confirm(store, e.id, expected=store.seen(e.id)[1])
    assert versions.conflicts(store) == []


def test_archive_refuses_a_change_made_since(store: Store) -> None:
    e = store.add("p", "Old", "an old note\n")
    _, seen = store.seen(e.id)
    _agent_edits(store, e.id)
    _refused(store, lambda: lifecycle.archive(store, e.id, expected=seen), "p/old.md")
    lifecycle.archive(store, e.id, expected=store.seen(e.id)[1])
    assert store.get("p/archived/old").status == "archived"


def test_trash_refuses_a_change_made_since(store: Store) -> None:
    e = store.add("p", "Doomed", "a note to trash\n")
    _, seen = store.seen(e.id)
    _agent_edits(store, e.id)
    _refused(store, lambda: trash.trash(store, e.id, expected=seen), "p/doomed.md")
    trash.trash(store, e.id, expected=store.seen(e.id)[1])
    assert [i.original_id for i in trash.list_trash(store.root)] == [e.id]


def test_trash_of_an_entry_gone_since_is_refused_too(store: Store) -> None:
    e = store.add("p", "Moved", "a note\n")
    _, seen = store.seen(e.id)
    e.path.unlink()  # an agent deleted it; a new file with that name would be someone else's
    e.path.write_bytes(seen.replace(b"a note", b"a different note"))
    _refused(store, lambda: trash.trash(store, e.id, expected=seen), "p/moved.md")


def _trashed(store: Store) -> tuple[str, Path, bytes]:
    e = store.add("p", "Gone", "a trashed note\n")
    trash.trash(store, e.id)
    [item] = trash.list_trash(store.root)
    seen = preview(item).raw
    assert seen is not None and seen == Path(item.path).read_bytes()
    return item.key, Path(item.path), seen


def test_trash_restore_refuses_a_trashed_file_changed_since_the_preview(store: Store) -> None:
    key, path, seen = _trashed(store)
    path.write_bytes(seen.replace(b"a trashed note", b"text nobody previewed"))
    _refused(store, lambda: trash.restore(store, key, expected=seen), path.name)
    fresh = path.read_bytes()
    assert trash.restore(store, key, expected=fresh)["restored"] == "p/gone"


def test_purge_refuses_a_trashed_file_changed_since_the_preview(store: Store) -> None:
    key, path, seen = _trashed(store)
    path.write_bytes(seen + b"\nadded later\n")
    [item] = trash.list_trash(store.root)
    _refused(store, lambda: trash.purge(store, [item], yes=True, expected={key: seen}), path.name)
    trash.purge(store, [item], yes=True, expected={key: path.read_bytes()})
    assert trash.list_trash(store.root) == []


def _old_store(store: Store, at) -> None:
    at("2026-01-10")
    store.add("projects", "Old", "An old note about the build.\n")
    store.add("projects", "Expiring", "Valid until spring.\n", expires=date(2026, 3, 1))
    at("2026-11-30")


def test_lifecycle_apply_refuses_a_plan_whose_entry_changed_since_it_was_shown(store: Store, at) -> None:
    _old_store(store, at)
    moves = lifecycle.plan(store)
    assert {m["id"] for m in moves} == {"projects/old", "projects/expiring"}
    seen = lifecycle.seen(store, moves)
    store.update("projects/old", Change(body="Updated today: still in use.\n"))  # no longer stale
    _refused(store, lambda: lifecycle.apply(store, moves, expected=seen), "projects/old.md")
    assert store.get("projects/expiring").status == "active"  # nothing of the plan was applied
    fresh = lifecycle.plan(store)
    done = lifecycle.apply(store, fresh, expected=lifecycle.seen(store, fresh))
    assert [m["id"] for m in done["applied"]] == ["projects/expiring"]
    assert store.get("projects/old").status == "active"


def test_lifecycle_apply_refuses_a_purge_whose_trash_file_changed(store: Store, at) -> None:
    at("2026-01-10")
    e = store.add("p", "Old trash", "trashed long ago\n")
    trash.trash(store, e.id)
    at("2026-11-30")
    moves = [m for m in lifecycle.plan(store) if m["action"] == "purge"]
    assert len(moves) == 1
    seen = lifecycle.seen(store, moves)
    [item] = trash.list_trash(store.root)
    Path(item.path).write_bytes(Path(item.path).read_bytes() + b"\nnote added in the trash\n")
    _refused(store, lambda: lifecycle.apply(store, moves, expected=seen), Path(item.path).name)


def test_store_proposal_accept_refuses_a_proposal_changed_since_it_was_shown(store: Store, at) -> None:
    _old_store(store, at)
    store_proposals.propose_lifecycle(store.root, [m for m in lifecycle.plan(store) if m["id"] == "projects/old"])
    [shown] = store_proposals.list_proposals(store.root, "pending")
    changed = {**shown, "payload": {"moves": lifecycle.plan(store)}}  # rewritten: one more move
    store_proposals._save(store.root, changed)
    _refused(store, lambda: store_proposals.accept(store, shown["id"], expected=shown), shown["id"])
    assert store_proposals.show(store.root, shown["id"])["status"] == "pending"
    store_proposals.accept(store, shown["id"], expected=changed)
    assert store.get("projects/archived/expiring").status == "archived"


def _edit_when_the_lock_is_asked_for(store: Store, monkeypatch: pytest.MonkeyPatch, entry_id: str) -> None:
    """An agent's write lands after the engine read the entry, before it takes the lock."""
    real = store.edit

    def edit(*args, **kwargs):
        _agent_edits(store, entry_id)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "edit", edit)


def test_trash_keeps_a_change_made_between_its_read_and_its_lock(store: Store, monkeypatch) -> None:
    e = store.add("p", "Raced", "a note\n")
    _edit_when_the_lock_is_asked_for(store, monkeypatch, e.id)
    trash.trash(store, e.id)  # the CLI's call: no expected, and still no lost update
    [item] = trash.list_trash(store.root)
    assert b"added by an agent meanwhile" in Path(item.path).read_bytes()


def test_confirm_keeps_a_change_made_between_its_read_and_its_lock(store: Store, monkeypatch) -> None:
    e = store.add("p", "Lang", "Backend is written in Go.\n")
    versions.update_entry(store, e.id, Change(body="Backend is written in Rust.\n"))
    _edit_when_the_lock_is_asked_for(store, monkeypatch, e.id)
    versions.confirm(store, e.id)
    assert b"added by an agent meanwhile" in e.path.read_bytes()
    assert versions.conflicts(store) == []
