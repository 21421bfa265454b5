"""Category split/merge with reference rewriting, one-way import, and crash-safe undo."""

from __future__ import annotations

import hashlib

import pytest

from memsearch_tui.engine.core.errors import Conflict, InvalidInput, NotFound, Refused
from memsearch_tui.engine.curator import importer, lifecycle, split, trash
from memsearch_tui.engine.history import oplog, undo
from memsearch_tui.engine.store.store import Change, Store
from tests.curator.curator_helpers import bodies, files


def _big(store: Store, at) -> None:
    for i, (day, tag) in enumerate(
        [("2024-03-01", "api"), ("2024-07-09", "ui"), ("2025-01-02", "api"), ("2025-01-20", "ops"), ("2026-02-02", "")]
    ):
        at(day)
        store.add("notes", f"Note {i}", f"Note {i} about {tag or 'nothing'} and more.\n", tags=[tag] if tag else [])
    at("2026-11-30")
    store.add(
        "other",
        "Pointer",
        "See [note 0](../notes/note-0.md) and [[notes/note-1]].\n",
        related=["notes/note-0", "notes/note-3"],
    )
    store.update("notes/note-2", Change(body="Links to [note 3](note-3.md) and [out](../other/pointer.md).\n"))


@pytest.mark.parametrize(
    "by,groups",
    [
        ("year", {"2024": 2, "2025": 2, "2026": 1}),
        ("month", {"2024-03": 1, "2024-07": 1, "2025-01": 2, "2026-02": 1}),
        ("tag", {"api": 2, "ops": 1, "ui": 1, "untagged": 1}),
        ("status", {"active": 5}),
    ],
)
def test_split_plan_groups(store: Store, at, by: str, groups: dict) -> None:
    _big(store, at)
    p = split.plan(store, "notes", by)
    assert p["groups"] == groups and p["entries"] == 5 and not p["over_threshold"]


def test_split_apply_rewrites_references_and_merge_restores(store: Store, at) -> None:
    _big(store, at)
    before_bodies = {s.id: store.get(s.id).body for s in store.list()}
    r = split.apply(store, "notes", "year")
    assert r["moves"]["notes/note-0"] == "notes/2024/note-0"
    ptr = store.get("other/pointer")
    assert ptr.related == ["notes/2024/note-0", "notes/2025/note-3"]
    assert "[note 0](../notes/2024/note-0.md)" in ptr.body and "[[notes/2024/note-1]]" in ptr.body
    n2 = store.get("notes/2025/note-2")  # moved itself: its own relative links follow
    assert "[note 3](note-3.md)" in n2.body and "[out](../../other/pointer.md)" in n2.body
    assert store.check_index() == []
    assert "[2024](2024/INDEX.md)" in (store.root / "notes/INDEX.md").read_text()
    m = split.merge(store, "notes")
    assert m["moved"] == 5
    assert {s.id: store.get(s.id).body for s in store.list()} == before_bodies
    assert store.get("other/pointer").related == ["notes/note-0", "notes/note-3"]
    assert not (store.root / "notes/2024").exists()
    assert store.check_index() == []


def test_split_and_merge_undo_byte_exact(store: Store, at) -> None:
    _big(store, at)
    s0 = files(store.root)
    split.apply(store, "notes", "tag")
    s1 = files(store.root)
    split.merge(store, "notes")
    undo.undo_last(store.root)
    assert files(store.root) == s1
    undo.undo_last(store.root)
    assert files(store.root) == s0
    assert not (store.root / "notes/api").exists()


def test_split_errors(store: Store, at) -> None:
    _big(store, at)
    with pytest.raises(InvalidInput):
        split.plan(store, "notes", "colour")
    with pytest.raises(NotFound):
        split.plan(store, "nope")
    with pytest.raises(Refused):
        split.merge(store, "notes")  # no subcategories


def test_split_keeps_archived_entries_archived(store: Store, at) -> None:
    _big(store, at)
    lifecycle.archive(store, "notes/note-4")
    split.apply(store, "notes", "year")
    e = store.get("notes/2026/archived/note-4")
    assert e.status == "archived" and store.check_index() == []


# -- import ------------------------------------------------------------------------------
def _digest(folder) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(str(p).encode())
        if p.is_file():
            h.update(p.read_bytes())
            h.update(str(p.stat().st_mtime_ns).encode())
    return h.hexdigest()


def test_import_memory_md_claude_md_and_folder(store: Store, tmp_path) -> None:
    src = tmp_path / "agent"
    (src / "memory").mkdir(parents=True)
    (src / "MEMORY.md").write_text("# Memory\n\n## Build\nUse `make test`.\n\n## Style\nBlack, 100 columns.\n")
    (src / "CLAUDE.md").write_text(
        "# Project\nRules.\n\n## Memory\n- The API lives in api/\n- Deploys go through CI\n\n## Other\nx\n"
    )
    (src / "memory/MEMORY.md").write_text("- [User role](user_role.md) — who\n- [Testing](feedback_testing.md) — how\n")
    (src / "memory/user_role.md").write_text(
        "---\nname: User role\ndescription: the user is a data scientist\ntype: user\n---\nFocus on pandas answers.\n"
    )
    (src / "memory/feedback_testing.md").write_text(
        "---\nname: Testing\ntype: feedback\n---\nIntegration tests hit a real DB.\n"
    )
    before = _digest(src)
    r1 = importer.import_path(store, src / "MEMORY.md")
    assert r1["imported"] == ["imported/build", "imported/style"]
    assert store.get("imported/build").meta["source"].endswith("MEMORY.md#build")
    r2 = importer.import_path(store, src / "CLAUDE.md", "imported/claude")
    assert [store.get(i).body for i in r2["imported"]] == ["The API lives in api/\n", "Deploys go through CI\n"]
    r3 = importer.import_path(store, src / "memory", "imported/claude-code")
    assert sorted(r3["imported"]) == ["imported/claude-code/testing", "imported/claude-code/user-role"]
    role = store.get("imported/claude-code/user-role")
    assert role.tags == ["user"] and role.body.startswith("the user is a data scientist\n\nFocus on pandas")
    again = importer.import_path(store, src / "memory", "imported/claude-code")
    assert again["imported"] == [] and len(again["skipped"]) == 2
    assert importer.import_path(store, src / "MEMORY.md", "elsewhere")["imported"] == []  # same text: skipped
    assert _digest(src) == before  # the source is never written
    assert store.check_index() == []


def test_import_is_one_undoable_operation_and_refusals(store: Store, tmp_path) -> None:
    src = tmp_path / "MEMORY.md"
    src.write_text("- first remembered fact\n- second remembered fact\n- token=abcd1234abcd1234abcd1234 secret\n")
    s0 = files(store.root)
    r = importer.import_path(store, src)
    assert len(r["imported"]) == 2
    [skip] = r["skipped"]
    assert "abcd1234abcd1234" not in str(skip) and "secret" in skip["reason"]
    undo.undo_last(store.root)
    assert files(store.root) == s0
    with pytest.raises(NotFound):
        importer.import_path(store, tmp_path / "missing.md")
    with pytest.raises(Refused):
        importer.import_path(store, store.root / "INDEX.md")
    (tmp_path / "CLAUDE.md").write_text("# Rules\nno memory here\n")
    with pytest.raises(NotFound):
        importer.import_path(store, tmp_path / "CLAUDE.md")


# -- undo --------------------------------------------------------------------------------
def test_undo_refuses_changed_files_but_not_a_read(store: Store) -> None:
    e = store.add("p", "A", "alpha text body\n")
    store.update(e.id, Change(body="alpha text body, extended\n"))
    lifecycle.touch_accessed(store, e.id)  # reading since is fine
    undo.undo_last(store.root)
    assert store.get(e.id).body == "alpha text body\n"
    e.path.write_text(e.path.read_text() + "hand edit\n")
    with pytest.raises(Conflict) as exc:
        undo.undo_last(store.root)
    assert "changed since" in exc.value.message and str(e.path) in exc.value.message


def test_undo_list_and_empty(store: Store) -> None:
    with pytest.raises(NotFound):
        undo.undo_last(store.root)
    store.add("p", "A", "alpha text body\n")
    assert undo.history(store.root)[0]["kind"] == "add"
    undo.undo_last(store.root)
    assert undo.history(store.root)[0]["undone"] is True


def test_interrupted_undo_is_completed_by_marking(store: Store) -> None:
    e = store.add("p", "A", "alpha text body\n")
    trash.trash(store, e.id)
    rec = oplog.records(store.root)[0]
    # simulate an undo killed after restoring every file but before marking the record
    for f in rec.files:
        from pathlib import Path

        blob = store.root / ".memsearch-tui/blobs" / f["before"]
        p = Path(f["path"])
        if f["before"] == oplog.ABSENT:
            p.unlink()
        else:
            p.write_bytes(blob.read_bytes())
    assert undo.undo_last(store.root).undone
    assert store.get(e.id).body == "alpha text body\n"
    assert bodies(store.root) == ["alpha text body\n"]
