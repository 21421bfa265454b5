"""INDEX.md tables, hand-written descriptions, rollback, the write lock, undo."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsearch_tui.engine.core.errors import Conflict, LockTimeout, NotFound
from memsearch_tui.engine.core.locking import root_lock
from memsearch_tui.engine.history import oplog, undo
from memsearch_tui.engine.store import index_md as im
from memsearch_tui.engine.store.store import Change, Store
from tests.conftest import tree_bytes


def test_descriptions_written_by_hand_survive_rebuilds(store: Store) -> None:
    store.add("projects", "Alpha", "alpha body text")
    store.add("people", "Bob", "bob likes tea")
    root_index = store.root / "INDEX.md"
    root_index.write_text(
        root_index.read_text().replace(
            "| [projects](projects/INDEX.md) |  |", "| [projects](projects/INDEX.md) | Work we ship \\| and run |"
        )
    )
    people = store.root / "people" / "INDEX.md"
    time.sleep(0.01)
    people.write_text(people.read_text().replace("# people\n\n", "# people\n\nColleagues and their preferences.\n\n"))
    store.add("projects", "Beta", "beta body text, another")
    store.rebuild_index()
    assert "| [projects](projects/INDEX.md) | Work we ship \\| and run | 2 |" in root_index.read_text()
    assert "Colleagues and their preferences." in (store.root / "projects/../people/INDEX.md").read_text()
    assert "| [people](people/INDEX.md) | Colleagues and their preferences. | 1 |" in root_index.read_text()
    assert store.check_index() == []


names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30).filter(
    lambda s: s.strip() == s and s.strip()
)


@settings(max_examples=100, deadline=None)
@given(
    rows=st.lists(st.tuples(names, names, st.sampled_from(["active", "archived", "expired"])), max_size=6),
    subs=st.lists(st.tuples(names, st.text(max_size=40), st.integers(0, 9999)), max_size=4),
)
def test_index_tables_round_trip(rows: list, subs: list) -> None:
    entries = [im.EntryRow(t, s, "2026-11-30", f"{f}.md") for t, f, s in rows]
    cats = [im.CategoryRow(n, " ".join(d.split()), c, "2026-11-30") for n, d, c in subs]
    text = im.render_category("cat", "A description.", entries, cats)
    parsed = im.parse(text)
    assert parsed.problems == []
    assert parsed.entries == entries
    assert parsed.categories == cats
    assert parsed.description == "A description."


def test_failed_index_update_rolls_back_the_entry(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store.add("p", "Kept", "kept body")
    before = tree_bytes(store.root)

    def explode(self, txn, category):  # the index step fails after the entry was written
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("memsearch_tui.engine.store.index_files.IndexWriter.write_chain", explode)
    with pytest.raises(OSError):
        store.add("p", "Lost", "this write must be undone")
    assert tree_bytes(store.root) == before
    assert not (store.root / "p" / "lost.md").exists()


def test_a_change_that_cannot_be_logged_is_rolled_back(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store.add("p", "Kept", "kept body")
    before = tree_bytes(store.root)

    def full(*args, **kwargs):  # the undo log cannot be written: the change must not stay
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(oplog, "append", full)
    with pytest.raises(OSError):
        store.add("p", "Unlogged", "a change nobody could undo")
    assert tree_bytes(store.root) == before


def _hold_lock(root: str, ready, release) -> None:
    with root_lock(Path(root)):
        ready.set()
        release.wait(10)


def test_second_process_waits_then_reports_the_lock(store: Store) -> None:
    ctx = multiprocessing.get_context("spawn")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(store.root), ready, release))
    holder.start()
    try:
        assert ready.wait(20)
        with pytest.raises(LockTimeout, match="holds the write lock"), root_lock(store.root, timeout=0.2):
            pass
    finally:
        release.set()
        holder.join(10)
    with root_lock(store.root, timeout=1):  # free again once the holder is gone
        pass


def test_undo_restores_files_byte_for_byte(store: Store) -> None:
    store.add("a", "First", "first body")
    before = tree_bytes(store.root)
    entry = store.add("a/new/deeper", "Second", "second body")
    store.update(entry.id, Change(body="changed body"))
    undo.undo_last(store.root)
    undo.undo_last(store.root)
    assert tree_bytes(store.root) == before
    assert not (store.root / "a" / "new").exists()
    assert [r.undone for r in oplog.records(store.root)][:2] == [True, True]


def test_undo_refuses_when_a_file_changed_since(store: Store) -> None:
    entry = store.add("a", "First", "first body")
    assert entry.path is not None
    entry.path.write_text(entry.path.read_text() + "\nhand edit\n")
    with pytest.raises(Conflict, match="changed since"):
        undo.undo_last(store.root)
    assert "hand edit" in entry.path.read_text()


def test_undo_with_empty_log_says_so(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="nothing to undo"):
        undo.undo_last(tmp_path)


def test_catalog_notices_changes_made_by_other_tools(store: Store) -> None:
    entry = store.add("a", "Title", "body")
    assert entry.path is not None
    entry.path.write_text(entry.path.read_text().replace("status: active", "status: expired"))
    os.utime(entry.path, ns=(1, 1))
    assert [r.status for r in store.list("a")] == ["expired"]


def test_description_paragraphs_and_bom_survive(store: Store) -> None:
    store.add("b", "One", "first body here")
    own = store.root / "b" / "INDEX.md"
    own.write_text("\ufeff" + own.read_text().replace("# b\n\n", "# b\n\nPara one.\n\nPara two.\n\n"), encoding="utf-8")
    store.add("b", "Two", "second body, something else")
    store.add("a", "Three", "third body in another category")
    store.add("b", "Four", "fourth body, still different")
    assert "Para one.\n\nPara two." in own.read_text(encoding="utf-8")
    assert "| [b](b/INDEX.md) | Para one. Para two. | 3 |" in (store.root / "INDEX.md").read_text()


def test_symlinked_entry_pointing_outside_is_never_read(store: Store, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("---\ntitle: launch codes\n---\nthe launch codes are 0000\n")
    (store.root / "p").mkdir()
    os.symlink(outside, store.root / "p" / "leak.md")
    rows = store.list("p")
    assert rows[0].error and "outside the memory root" in rows[0].error and rows[0].title == "leak"
    store.rebuild_index()
    assert "launch codes" not in (store.root / "p" / "INDEX.md").read_text()
    assert any(p["kind"] == "invalid_entry" for p in store.check_index())


def test_damaged_catalog_is_rebuilt_not_fatal(store: Store) -> None:
    store.add("p", "One", "first body")
    store.list()
    cache = store.root / ".memsearch-tui" / "catalog.sqlite3"
    data = bytearray(cache.read_bytes())
    data[100:4096] = os.urandom(3996)
    cache.write_bytes(bytes(data))
    assert [r.id for r in store.list()] == ["p/one"]
    assert store.add("p", "Two", "second body").id == "p/two"


def test_entry_in_the_root_is_reported(store: Store) -> None:
    (store.root / "stray.md").write_text("---\ntitle: Stray\n---\nbody\n")
    assert any(p["kind"] == "outside_category" and p["file"] == "stray.md" for p in store.check_index())


def test_temp_files_of_killed_writers_are_swept_by_fix(store: Store) -> None:
    store.add("p", "One", "first body")
    junk = store.root / "p" / ".INDEX.md.abc12345.tmp"
    junk.write_text("half")
    store.rebuild_index()
    assert not junk.exists()


def test_edit_refuses_when_the_file_changed_meanwhile(store: Store) -> None:
    entry = store.add("p", "One", "first body")
    assert entry.path is not None
    original = entry.path.read_bytes()
    store.update(entry.id, Change(body="a hook changed it"))
    with pytest.raises(Conflict, match="changed on disk"):
        store.replace_raw(entry.id, original.replace(b"first", b"edited"), expected=original)
    assert store.get(entry.id).body == "a hook changed it\n"


def test_oplog_keeps_only_the_newest_operations_and_their_bytes(store: Store) -> None:
    for i in range(12):
        store.add("p", f"Entry {i}", f"body number {i} with its own words {i * 31}")
    assert oplog.prune(store.root, keep=5) > 0
    recs = oplog.records(store.root)
    assert len(recs) == 5
    used = {d for r in recs for f in r.files for d in (f["before"], f["after"])}
    blobs = {p.name for p in (store.root / ".memsearch-tui" / "blobs").iterdir()}
    assert blobs <= used
    undo.undo_last(store.root)
    assert not (store.root / "p" / "entry-11.md").exists()
