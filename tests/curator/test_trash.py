"""Trash by hand, the trash index, restore (collisions, recreated categories) and purge."""

from __future__ import annotations

import shutil

import pytest

from memsearch_tui.engine.core.errors import NotFound, Refused
from memsearch_tui.engine.curator import trash
from memsearch_tui.engine.history import undo
from memsearch_tui.engine.store import trash_index
from memsearch_tui.engine.store.store import Change, Store
from tests.curator.curator_helpers import files


def test_trash_moves_entry_and_records_row(store: Store) -> None:
    e = store.add("projects/web", "Alpha site", "The alpha site runs on port 8080.\n")
    r = trash.trash(store, e.id, "superseded by beta")
    assert r["key"] == "2026-11-30/projects/web/alpha-site"
    assert not e.path.exists()
    assert "alpha-site" not in (store.root / "projects/web/INDEX.md").read_text()
    index = (store.root / ".trash/INDEX.md").read_text()
    assert "| Title | Original id | Trashed | Reason | Purge after | File |" in index
    assert "| Alpha site | projects/web/alpha-site | 2026-11-30 | superseded by beta | 2026-12-30 |" in index
    [item] = trash.list_trash(store.root)
    assert (item.original_id, item.days_left, item.reason) == ("projects/web/alpha-site", 30, "superseded by beta")
    assert store.check_index() == [] and trash_index.check_trash_index(store.root) == []


def test_trash_warns_about_referrers(store: Store) -> None:
    a = store.add("p", "A", "first body\n")
    store.add("p", "B", "second body\n", related=[a.id])
    assert trash.trash(store, a.id)["referenced_by"] == ["p/b"]


def test_restore_to_recreated_category_active_and_updated(store: Store, at) -> None:
    at("2026-01-05")
    e = store.add("solo", "Lonely", "Only entry of its category.\n")
    at("2026-11-30")
    trash.trash(store, e.id)
    shutil.rmtree(store.root / "solo")  # the category is gone by the time we restore
    store.rebuild_index()
    r = trash.restore(store, "solo/lonely")
    assert r["restored"] == "solo/lonely" and not r["renamed"]
    got = store.get("solo/lonely")
    assert (got.status, got.updated.isoformat()) == ("active", "2026-11-30")
    assert not any(k in got.meta for k in trash.TRASH_KEYS)
    assert store.check_index() == [] and trash.list_trash(store.root) == []
    assert "_empty_" in (store.root / ".trash/INDEX.md").read_text()


def test_restore_name_clash_gets_suffix_and_related_fixed(store: Store) -> None:
    a = store.add("p", "Note", "old text of note\n")
    gone = store.add("p", "Gone", "will be purged\n")
    store.update(a.id, Change(related=[gone.id]))
    trash.trash(store, a.id)
    trash.trash(store, gone.id)
    trash.purge(store, trash.purge_candidates(store.root, everything=True)[1:], yes=True)  # purge the older: Note
    store.add("p", "Note", "a new note with the same title\n")
    trash.trash(store, "p/note")
    assert len(trash.list_trash(store.root)) == 2
    b = store.add("p", "Note", "third text, live\n")
    r = trash.restore(store, "p/note")  # newest trashed copy
    assert r["restored"] == "p/note-2" and r["renamed"]
    assert store.get(b.id).body == "third text, live\n"


def test_restore_archived_entry_by_either_id(store: Store) -> None:
    from memsearch_tui.engine.curator import lifecycle

    e = store.add("p", "Arch", "archived text\n")
    lifecycle.archive(store, e.id)
    trash.trash(store, "p/archived/arch")
    r = trash.restore(store, "p/arch")
    assert r["restored"] == "p/arch" and store.get("p/arch").status == "active"
    assert "archived" not in store.get("p/arch").meta


def test_restore_unknown_and_unsafe(store: Store) -> None:
    with pytest.raises(NotFound):
        trash.restore(store, "p/nothing")
    with pytest.raises(Refused):
        trash.restore(store, "../etc/passwd")


def test_purge_needs_yes_and_respects_dates(store: Store, at) -> None:
    at("2026-10-01")
    old = store.add("p", "Old", "old trashed text\n")
    trash.trash(store, old.id)
    at("2026-11-30")
    new = store.add("p", "New", "new trashed text\n")
    trash.trash(store, new.id)
    due = trash.purge_candidates(store.root)
    assert [i.original_id for i in due] == ["p/old"]
    assert [i.original_id for i in trash.purge_candidates(store.root, older_than=0)] == ["p/new", "p/old"]
    before = files(store.root)
    with pytest.raises(Refused) as exc:
        trash.purge(store, due, yes=False)
    assert "2026-10-01/p/old" in exc.value.message and exc.value.code == "confirm"
    assert files(store.root) == before
    trash.purge(store, due, yes=True)
    assert [i.original_id for i in trash.list_trash(store.root)] == ["p/new"]
    assert not (store.root / ".trash/2026-10-01").exists()


def test_trash_and_restore_undo_byte_exact(store: Store) -> None:
    e = store.add("p", "X", "x body text\n")
    s0 = files(store.root)
    trash.trash(store, e.id, "r")
    s1 = files(store.root)
    trash.restore(store, e.id)
    undo.undo_last(store.root)
    assert files(store.root) == s1
    undo.undo_last(store.root)
    assert files(store.root) == s0


def test_trash_index_rebuilt_after_loss(store: Store) -> None:
    e = store.add("p", "X", "x body text\n")
    trash.trash(store, e.id, "because")
    (store.root / ".trash/INDEX.md").write_text("garbage")
    assert trash_index.check_trash_index(store.root)
    assert trash_index.rebuild_trash_index(store.root)
    assert trash_index.check_trash_index(store.root) == []
    assert "because" in (store.root / ".trash/INDEX.md").read_text()


def test_kept_versions_travel_with_trash_and_restore(store: Store) -> None:
    from memsearch_tui.engine.curator import versions

    e = store.add("p", "Db", "We use PostgreSQL 14.\n")
    versions.update_entry(store, e.id, Change(body="We use SQLite.\n"))
    assert (store.root / ".versions/p/db/v1.md").is_file()
    trash.trash(store, e.id)
    assert (store.root / ".trash/2026-11-30/p/db.versions/v1.md").is_file()
    assert not (store.root / ".versions/p/db").exists()
    assert [i.original_id for i in trash.list_trash(store.root)] == ["p/db"]  # the versions folder is no item
    trash.restore(store, e.id)
    assert versions.diff(store, e.id)["unified"].count("PostgreSQL") == 1
    trash.trash(store, e.id)
    trash.purge(store, trash.purge_candidates(store.root, everything=True), yes=True)
    assert not (store.root / ".trash/2026-11-30").exists()
