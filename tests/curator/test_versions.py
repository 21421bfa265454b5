"""Conflict detection on add/update, kept versions, diffs, restore and conflict confirmation."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.core.errors import NotFound, Refused
from memsearch_tui.engine.curator import versions
from memsearch_tui.engine.history import undo
from memsearch_tui.engine.store.store import Change, Store
from tests.curator.curator_helpers import files


@pytest.mark.parametrize(
    "old,new,kind",
    [
        ("Use PostgreSQL 14 for storage.", "Use PostgreSQL 14 for storage. Backups run nightly.", "extends"),
        ("Use PostgreSQL 14 for storage.", "Use PostgreSQL 15 for storage.", "conflict"),
        ("Deploy on Fridays.", "Do not deploy on Fridays.", "conflict"),
        ("Prefer tabs for indentation.", "Prefer spaces for indentation.", "conflict"),
        ("The build uses webpack and babel.", "The bulid uses webpak and babel.", "same"),  # typos only
        ("Run tests before commits.", "run tests before commits!", "same"),
        ("用户偏好深色主题。", "用户偏好浅色主题。", "conflict"),
        ("用户偏好深色主题。", "用户偏好深色主题。字体要大。", "extends"),
        ("", "Anything at all.", "extends"),
    ],
)
def test_classify(old: str, new: str, kind: str) -> None:
    assert versions.classify(old, new)["kind"] == kind


def test_same_title_add_keeps_both_versions(store: Store, at) -> None:
    at("2026-11-01")
    e = store.add("tools", "Database", "We use PostgreSQL 14 for storage.\n", tags=["db"])
    old_bytes = e.path.read_bytes()
    at("2026-11-30")
    r = versions.add_entry(store, "tools", "Database", "We use MySQL 8 for storage.\n", tags=["mysql"])
    assert r["action"] == "conflict"
    assert r["conflict"]["message"] == "conflict detected, both versions kept, current v2"
    assert (r["conflict"]["previous"], r["conflict"]["current"]) == ("tools/database@v1", "tools/database@v2")
    kept = store.root / ".versions/tools/database/v1.md"
    assert kept.read_bytes() == old_bytes
    cur = store.get("tools/database")
    assert cur.version == 2 and cur.tags == ["db", "mysql"]
    assert cur.meta["conflict"] == {"previous": 1, "detected": cur.updated}
    assert cur.body.endswith(
        "## Version history\n\n- v1 (2026-11-01): We use PostgreSQL 14 for storage.\n"
        "- v2 (2026-11-30): conflict with v1 (add): We use MySQL 8 for storage.\n"
    )
    assert store.check_index() == []
    assert versions.versioned_ids(store) == ["tools/database"]


def test_add_same_topic_by_tags_and_similar_title(store: Store) -> None:
    store.add("tools", "Database setup", "We use PostgreSQL 14.\n", tags=["db", "postgres"])
    r = versions.add_entry(store, "tools", "Database set-up", "We use SQLite.\n", tags=["db", "postgres"])
    assert r["action"] == "conflict" and r["entry"]["id"] == "tools/database-setup"
    r = versions.add_entry(store, "tools", "Editor", "We use SQLite.\n", tags=["db", "postgres"])
    assert r["action"] == "added"


def test_add_same_topic_extension_updates_and_duplicate_refused(store: Store) -> None:
    store.add("tools", "CI", "CI runs on GitHub Actions.\n")
    r = versions.add_entry(store, "tools", "CI", "CI runs on GitHub Actions. Caches pip downloads.\n")
    assert r["action"] == "updated" and store.get("tools/ci").version == 1
    with pytest.raises(Refused) as exc:
        versions.add_entry(store, "tools", "ci", "CI runs on GitHub Actions. Caches pip downloads.\n")
    assert exc.value.code == "duplicate" and "tools/ci" in exc.value.message


def test_update_conflict_and_plain_update(store: Store) -> None:
    e = store.add("p", "Port", "The dev server listens on 3000.\n")
    r = versions.update_entry(store, e.id, Change(body="The dev server listens on 3000 and 3001.\n"))
    assert r["action"] == "updated" and store.get(e.id).version == 1
    r = versions.update_entry(store, e.id, Change(body="The dev server listens on 8080.\n", title="Dev port"))
    assert r["action"] == "conflict"
    cur = store.get(e.id)
    assert cur.title == "Dev port" and cur.version == 2
    r = versions.update_entry(store, e.id, Change(body="The dev server listens on 8080. Use HTTPS.\n"))
    assert r["action"] == "updated"
    assert "## Version history" in store.get(e.id).body  # history survives plain updates
    r = versions.update_entry(store, e.id, Change(tags=["net"]))
    assert r["action"] == "updated"


def test_versions_diff_restore(store: Store) -> None:
    e = store.add("p", "Shell", "Default shell is bash.\n")
    versions.update_entry(store, e.id, Change(body="Default shell is zsh.\n"))
    versions.update_entry(store, e.id, Change(body="Default shell is fish.\n"))
    rows = versions.list_versions(store, e.id)
    assert [(r["version"], r["current"], r["kept"]) for r in rows] == [
        (1, False, True),
        (2, False, True),
        (3, True, True),
    ]
    d = versions.diff(store, e.id)
    assert (d["a"], d["b"]) == (2, 3)
    assert "-Default shell is zsh.\n+Default shell is fish." in d["unified"]
    assert (
        d["hunks"][0]["header"].startswith("@@")
        and {"op": "+", "text": "Default shell is fish."} in d["hunks"][0]["lines"]
    )
    assert "bash" in versions.diff(store, e.id, 1, 3)["unified"]
    r = versions.restore_version(store, e.id, 1)
    assert r["current"] == 4
    cur = store.get(e.id)
    assert cur.body.startswith("Default shell is bash.\n") and "- v4 (2026-11-30): restored v1" in cur.body
    assert "conflict" not in cur.meta
    assert versions.diff(store, e.id, 1, 4)["same"]
    with pytest.raises(NotFound):
        versions.diff(store, e.id, 9, 4)
    with pytest.raises(Refused):
        versions.restore_version(store, e.id, 4)
    with pytest.raises(Refused):
        versions.diff(store, store.add("p", "One", "single version\n").id)


def test_conflicts_list_and_confirm(store: Store) -> None:
    e = store.add("p", "Lang", "Backend is written in Go.\n")
    assert versions.conflicts(store) == []
    versions.update_entry(store, e.id, Change(body="Backend is written in Rust.\n"))
    [c] = versions.conflicts(store)
    assert (c["id"], c["version"], c["previous"]) == (e.id, 2, 1)
    versions.confirm(store, e.id)
    assert versions.conflicts(store) == []
    with pytest.raises(Refused):
        versions.confirm(store, e.id)


def test_conflict_and_restore_undo_byte_exact(store: Store) -> None:
    e = store.add("p", "Lang", "Backend is written in Go.\n")
    s0 = files(store.root)
    versions.update_entry(store, e.id, Change(body="Backend is written in Rust.\n"))
    s1 = files(store.root)
    versions.restore_version(store, e.id, 1)
    undo.undo_last(store.root)
    assert files(store.root) == s1
    undo.undo_last(store.root)
    assert files(store.root) == s0


def test_conflicting_text_still_checked_for_secrets(store: Store) -> None:
    e = store.add("p", "Keys", "The deploy key lives in the vault.\n")
    with pytest.raises(Refused):
        versions.update_entry(store, e.id, Change(body="key: AKIAIOSFODNN7EXAMPLE is used.\n"))
    assert store.get(e.id).version == 1 and not (store.root / ".versions").exists()


def test_hand_written_entry_updates_and_keeps_exact_old_bytes(store: Store) -> None:
    path = store.root / "p/hand.md"
    path.parent.mkdir(parents=True)
    raw = b"---\ntitle: Hand\ntags: [a, b]\nupdated: 2026-01-01\n---\nWritten by hand: port 22.\n"
    path.write_bytes(raw)
    r = versions.update_entry(store, "p/hand", Change(body="Written by hand: port 2222.\n"))
    assert r["action"] == "conflict"
    assert (store.root / ".versions/p/hand/v1.md").read_bytes() == raw


def test_conflicts_read_only_the_files_the_catalog_marks(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 100k entries reading every file took seconds of the app's start-up (its badges):
    the catalog marks the files holding a conflict, and only those are read."""
    for i in range(30):
        store.add("p", f"Note {i}" if i % 2 else f"笔记 {i}", f"Body {i}.\n")
    e = store.add("p", "Lang", "Backend is written in Go.\n")
    versions.update_entry(store, e.id, Change(body="Backend is written in Rust.\n"))
    by_hand = store.root / "p" / "synced.md"  # a conflict mark that arrived by sync, not by this process
    by_hand.write_text(
        "---\ntitle: 同步的\nversion: 3\nconflict:\n  previous: 2\n  detected: '2026-11-29'\n---\n后端用 Go 写。\n",
        encoding="utf-8",
    )
    read: list[str] = []
    real = versions.read_capped

    def counting(path, *a, **kw):  # a spy: the files conflicts() reads
        read.append(path.name)
        return real(path, *a, **kw)

    monkeypatch.setattr(versions, "read_capped", counting)
    assert [c["id"] for c in versions.conflicts(store)] == [e.id, "p/synced"]
    assert sorted(read) == ["lang.md", "synced.md"]
    versions.confirm(store, e.id)
    read.clear()
    assert [c["id"] for c in versions.conflicts(store)] == ["p/synced"]
    assert read == ["synced.md"]
