"""The INDEX.md splice (a write re-places only its own table lines) gives exactly the bytes
of a full render, falls back whenever it cannot prove the old table current, and undo of
an add into a big category (a reverse patch instead of kept copies) restores every byte."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Conflict, LockTimeout
from memsearch_tui.engine.core.locking import root_lock
from memsearch_tui.engine.curator import lifecycle, trash
from memsearch_tui.engine.history import oplog, undo
from memsearch_tui.engine.store import index_files
from memsearch_tui.engine.store.catalog import Catalog
from memsearch_tui.engine.store.index_files import IndexWriter
from memsearch_tui.engine.store.store import Change, Store
from tests.conftest import tree_bytes

ODD_TITLES = [
    "alpha",
    "Beta",
    "beta two",
    "Zulu",
    "a | pipe",
    "back\\slash",
    "用户偏好",
    "Émile",
    "ß straße",
    "[brackets] (parens)",
    "100% sure",
    "  ",
]


def _entry_file(path: Path, title: str, status: str = "active", updated: str = "2026-01-02") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"---\ntitle: '{title}'\nstatus: {status}\ncreated: 2026-01-01\nupdated: {updated}\n"
        f"version: 1\ntags: []\nrelated: []\n---\nBody of {path.stem} {title}\n",
        encoding="utf-8",
    )


def _big_category(store: Store, n: int, category: str = "inbox") -> None:
    """``n`` entries (odd titles among them, some archived) written as files, then indexed."""
    folder = store.root / category
    for i in range(n):
        title = f"{ODD_TITLES[i % len(ODD_TITLES)].strip() or 'blank'} note {i}"
        if i % 17 == 3:
            _entry_file(folder / "archived" / f"old-{i}.md", title, status="archived")
        else:
            _entry_file(folder / f"note-{i}.md", title, updated=f"2026-0{1 + i % 9}-1{i % 10}")
    (folder / "sub").mkdir(parents=True, exist_ok=True)
    _entry_file(folder / "sub" / "child.md", "A child entry")
    store.rebuild_index()


def _full_render(store: Store, category: str) -> str:
    """What a rebuild would write for ``category`` (every line rendered from the catalog)."""
    cat = Catalog(store.root).refresh()
    try:
        return IndexWriter(store.root, cat).render(category)
    finally:
        cat.close()


@pytest.fixture
def splices(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Records, per category render that may splice, whether the splice was taken."""
    taken: list[bool] = []
    original = IndexWriter._spliced_lines

    def spy(self: IndexWriter, category: str) -> list[str] | None:
        lines = original(self, category)
        taken.append(lines is not None)
        return lines

    monkeypatch.setattr(IndexWriter, "_spliced_lines", spy)
    return taken


def _index(store: Store, category: str = "inbox") -> str:
    return (store.root / category / "INDEX.md").read_text(encoding="utf-8")


def test_spliced_writes_equal_a_full_render(store: Store, splices: list[bool]) -> None:
    _big_category(store, 80)
    added = []
    for title in [
        "aaa first",
        "Zzz last",
        "middle Note",
        "a | pipe note 5b",
        "back\\slash 0",
        "用户 新",
        "ÉMILE again",
    ]:
        added.append(store.add("inbox", title, f"a distinct body for {title} with its own words").id)
        assert _index(store) == _full_render(store, "inbox")
    store.update(added[0], Change(title="now sorted near the end: yyy"))
    assert _index(store) == _full_render(store, "inbox")
    lifecycle.archive(store, added[1])
    assert _index(store) == _full_render(store, "inbox")
    trash.trash(store, added[2])
    assert _index(store) == _full_render(store, "inbox")
    store.add("inbox/sub", "Second child", "a child body that counts in the parent's table")
    assert _index(store) == _full_render(store, "inbox")
    assert _index(store, "inbox/sub") == _full_render(store, "inbox/sub")
    assert all(splices) and len(splices) >= 11  # every one of those writes spliced
    assert store.check_index() == []


def test_an_edited_index_is_rendered_in_full_and_keeps_the_description(store: Store, splices: list[bool]) -> None:
    _big_category(store, 40)
    store.add("inbox", "Before the edit", "first body of the edit test")
    path = store.root / "inbox" / "INDEX.md"
    time.sleep(0.01)
    path.write_text(
        path.read_text(encoding="utf-8").replace("# inbox\n\n", "# inbox\n\nThings to sort later.\n\n"),
        encoding="utf-8",
    )
    store.add("inbox", "After the edit", "second body of the edit test")
    assert splices == [True, False]
    assert "Things to sort later." in _index(store)
    assert _index(store) == _full_render(store, "inbox")


def test_a_hand_edited_entry_is_picked_up_not_spliced_over(store: Store, splices: list[bool]) -> None:
    _big_category(store, 40)
    store.add("inbox", "Warm", "warm body for the hand edit test")
    _entry_file(store.root / "inbox" / "note-1.md", "Renamed by hand")
    store.add("inbox", "Next", "next body for the hand edit test")
    assert splices == [True, False]
    assert "| Renamed by hand |" in _index(store)
    assert _index(store) == _full_render(store, "inbox")


def test_a_row_changed_without_its_index_write_forces_a_full_render(store: Store, splices: list[bool]) -> None:
    """A writer killed between its catalog update and its INDEX.md write leaves the catalog
    a generation ahead of the index: the next write must not splice over the missing row."""
    _big_category(store, 40)
    store.add("inbox", "Warm", "warm body for the crash test")
    crashed = store.root / "inbox" / "crashed.md"
    _entry_file(crashed, "Left by a crashed writer")
    other = Catalog(store.root)
    other.put(store.get("inbox/crashed"))
    other.close()
    store.add("inbox", "Next", "next body for the crash test")
    assert splices == [True, False]
    assert "| Left by a crashed writer |" in _index(store)
    assert _index(store) == _full_render(store, "inbox")


def test_a_lost_catalog_means_full_renders_again(store: Store, splices: list[bool]) -> None:
    _big_category(store, 30)
    Catalog(store.root).file.unlink()
    store.add("inbox", "After the cache went", "a body written after the catalog was deleted")
    store.add("inbox", "And another", "one more body after the catalog was deleted")
    assert splices == [False, True]
    assert _index(store) == _full_render(store, "inbox")


def test_entry_lines_are_found_only_in_a_rendered_table() -> None:
    from memsearch_tui.engine.store import index_md as im

    row = im.EntryRow("a | b", "active", "2026-01-01", "a-b.md")
    text = im.render_category("c", "## Entries", [row], [])
    assert im.entry_lines_of(text) == [im.entry_line(row)]
    assert im.entry_line_file(im.entry_line(row)) == "a-b.md"
    assert im.entry_lines_of(im.render_category("c", "", [], [])) == []
    assert im.entry_lines_of("# c\n\nno table here\n") is None


def test_undo_of_an_add_to_a_big_category_restores_every_byte(store: Store) -> None:
    _big_category(store, 500)
    assert (store.root / "inbox" / "INDEX.md").stat().st_size > oplog.PATCH_MIN_BYTES
    store.add("inbox", "Warm", "warm body before the undo test")
    before = tree_bytes(store.root)
    blobs = store.root / ".memsearch-tui" / "blobs"
    kept = set(p.name for p in blobs.iterdir())
    store.add("inbox", "To be undone", "this add is undone byte for byte")
    rec = oplog.records(store.root)[0]
    index_rec = next(f for f in rec.files if f["path"].endswith("inbox/INDEX.md"))
    assert "patch" in index_rec and len(index_rec["patch"]["middle"]) == 0
    new_blobs = set(p.name for p in blobs.iterdir()) - kept
    assert index_rec["before"] not in new_blobs and index_rec["after"] not in new_blobs
    undo.undo_last(store.root)
    assert tree_bytes(store.root) == before
    undo.undo_last(store.root)  # the one before it: its patch applies to the restored bytes
    assert "| Warm |" not in _index(store)
    assert store.check_index() == []


def test_undo_refuses_when_a_patched_index_changed_since(store: Store) -> None:
    _big_category(store, 500)
    store.add("inbox", "To be undone", "this add must not be undone over a hand edit")
    path = store.root / "inbox" / "INDEX.md"
    edited = path.read_text(encoding="utf-8").replace("# inbox\n\n", "# inbox\n\nHand-written words.\n\n")
    path.write_text(edited, encoding="utf-8")
    with pytest.raises(Conflict, match="changed since"):
        undo.undo_last(store.root)
    assert path.read_text(encoding="utf-8") == edited


def test_a_damaged_patch_is_refused_not_applied(store: Store) -> None:
    _big_category(store, 500)
    store.add("inbox", "To be undone", "an add whose kept difference gets damaged")
    log = store.root / ".memsearch-tui" / "oplog"
    newest = max(log.glob("*.json"))
    newest.write_text(newest.read_text(encoding="utf-8").replace('"middle": ""', '"middle": "41"'), encoding="utf-8")
    before = tree_bytes(store.root)
    with pytest.raises(Conflict, match="damaged"):
        undo.undo_last(store.root)
    assert tree_bytes(store.root) == before


def test_reverse_patch_round_trips() -> None:
    cases = [
        (b"", b"x"),
        (b"abc", b"abc"),
        (b"a" * 10000, b"a" * 10001),
        (b"x" * 9000 + b"1" + b"y" * 9000, b"x" * 9000 + b"22" + b"y" * 9000),
        (b"same start, other end", b"same start"),
        (b"ab", b"b"),
    ]
    for before, after in cases:
        p = oplog._reverse_patch(before, after)
        assert p is not None
        tail = after[len(after) - p["tail"] :]
        assert after[: p["head"]] + bytes.fromhex(p["middle"]) + tail == before


def test_the_write_lock_excludes_other_threads_and_is_reentrant(store: Store) -> None:
    held, release, failed = threading.Event(), threading.Event(), []

    def holder() -> None:
        with root_lock(store.root), root_lock(store.root):  # re-entrant in the holding thread
            held.set()
            release.wait(10)

    t = threading.Thread(target=holder)
    t.start()
    try:
        assert held.wait(10)
        try:
            with root_lock(store.root, timeout=0.1):
                pass
        except LockTimeout:
            failed.append(True)
    finally:
        release.set()
        t.join(10)
    assert failed == [True]
    with root_lock(store.root, timeout=1):
        pass


def test_the_log_keeps_the_bytes_written_not_a_later_hand_edit(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand edit between our write and the end of the operation is 'changed since' for undo."""
    entry = store.add("p", "Edited meanwhile", "the body we wrote")
    assert entry.path is not None
    original = index_files.IndexWriter.write_chain

    def edit_then_index(self: IndexWriter, txn, category: str) -> int:  # type: ignore[no-untyped-def]
        entry.path.write_text(entry.path.read_text(encoding="utf-8") + "hand edit\n", encoding="utf-8")
        return original(self, txn, category)

    monkeypatch.setattr(index_files.IndexWriter, "write_chain", edit_then_index)
    store.update(entry.id, Change(body="the body we wrote, changed"))
    monkeypatch.undo()
    with pytest.raises(Conflict, match="changed since"):
        undo.undo_last(store.root)
    assert store.get(entry.id).body.endswith("hand edit\n")


def test_a_rolled_back_add_leaves_no_row_in_the_catalog(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog is re-synced after the files are rolled back, not before."""
    store.add("p", "Kept", "kept body for the rollback test")

    def explode(self: IndexWriter, txn, category: str) -> int:  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(IndexWriter, "write_chain", explode)
    with pytest.raises(OSError):
        store.add("p", "Lost", "this write must be undone")
    monkeypatch.undo()
    cat = Catalog(store.root)
    assert "p/lost" not in cat.entries and "p/kept" in cat.entries
    cat.close()
    store.add("p", "Next", "the next add after a rollback")
    assert _index(store, "p") == _full_render(store, "p")
