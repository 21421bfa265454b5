"""Bad input on disk or on the command line: a clear error naming file and problem, nothing changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import InvalidInput, MemsearchError, Refused
from memsearch_tui.engine.store.store import Change, Store
from tests.conftest import tree_bytes


def _write(store: Store, rel: str, data: bytes) -> Path:
    path = store.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    "data, message",
    [
        (b"---\ntitle: [unclosed\n---\nbody\n", "malformed YAML frontmatter"),
        (b"no frontmatter at all\n", "no frontmatter"),
        (b"---\ntitle: x\n\xff\xfe bad\n---\n", "not valid UTF-8"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary file"),
        (b"", "empty file"),
        (b"---\ntitle: a\ntitle: b\n---\nbody\n", "duplicate key 'title'"),
        (b"---\ntitle: never closed\nbody\n", "never closed"),
        (b"---\n- a\n- b\n---\nbody\n", "must be a mapping"),
    ],
)
def test_broken_entry_files_get_clear_errors(store: Store, data: bytes, message: str) -> None:
    path = _write(store, "notes/broken.md", data)
    with pytest.raises(InvalidInput, match=message) as info:
        store.get("notes/broken")
    assert str(path) in info.value.message


def test_broken_files_are_reported_by_index_check_and_not_rewritten(store: Store) -> None:
    path = _write(store, "notes/broken.md", b"---\ntitle: [x\n---\n")
    problems = store.check_index()
    assert {"kind": "invalid_entry", "file": "notes/broken.md"}.items() <= problems[0].items()
    store.rebuild_index()
    assert path.read_bytes() == b"---\ntitle: [x\n---\n"


def test_a_file_name_that_is_not_utf8_is_left_alone(store: Store) -> None:
    store.add("notes", "Good", "a good note body")
    bad = os.path.join(os.fsencode(store.root), b"notes", b"bad\xff.md")
    with open(bad, "wb") as fh:
        fh.write(b"---\ntitle: Bad\n---\n\nbody\n")
    os.mkdir(os.path.join(os.fsencode(store.root), b"odd\xfe"))
    assert [e.id for e in store.list("notes")] == ["notes/good"]
    store.check_index()
    store.rebuild_index()
    store.add("notes", "Later", "another body altogether")
    with open(bad, "rb") as fh:
        assert fh.read() == b"---\ntitle: Bad\n---\n\nbody\n"


def test_bom_and_crlf_files_are_read_and_kept(store: Store) -> None:
    raw = "\ufeff---\r\ntitle: Windows note\r\nstatus: active\r\n---\r\nline one\r\nline two\r\n".encode()
    path = _write(store, "win/note.md", raw)
    entry = store.get("win/note")
    assert entry.title == "Windows note" and entry.body == "line one\nline two\n"
    store.update("win/note", Change(tags=["w"]))
    data = path.read_bytes()
    assert data.startswith("\ufeff---\r\n".encode()) and data.endswith(b"line one\r\nline two\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_ten_megabyte_body_is_refused_before_any_write(store: Store) -> None:
    before = tree_bytes(store.root)
    with pytest.raises(Refused, match=r"10\.0 MB"):
        store.add("big", "Huge", "x" * 10_000_000)
    assert tree_bytes(store.root) == before


@pytest.mark.parametrize("bad_id", ["../escape", "a/../../b", "/abs/path", "a//b", ".hidden/x", "C:/win"])
def test_ids_that_escape_are_refused(store: Store, bad_id: str) -> None:
    with pytest.raises(Refused):
        store.get(bad_id)
    with pytest.raises(Refused):
        store.add(bad_id, "t", "b")


def test_symlink_out_of_the_root_is_refused(store: Store, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("---\ntitle: s\n---\nprivate\n")
    os.symlink(outside, store.root / "link")
    with pytest.raises(Refused, match="outside the memory root"):
        store.get("link/secret")
    with pytest.raises(Refused, match="outside the memory root"):
        store.add("link", "New", "would land outside")
    assert sorted(p.name for p in outside.iterdir()) == ["secret.md"]


def test_read_only_folder_fails_cleanly(store: Store, tmp_path: Path) -> None:
    """Even as root (CI), a write that the OS refuses rolls back and leaves files unchanged."""
    store.add("ro", "First", "first body text here")
    before = tree_bytes(store.root)
    import memsearch_tui.engine.core.atomic as atomic

    real = atomic.atomic_write_bytes

    def refuse_in_ro(path: Path, data: bytes, *, mode: int | None = None) -> None:
        if Path(path).parent.name == "ro":  # behave like a read-only folder
            raise PermissionError(13, "Permission denied", str(path))
        real(path, data, mode=mode)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("memsearch_tui.engine.history.txn.atomic_write_bytes", refuse_in_ro)
        with pytest.raises(PermissionError):
            store.add("ro", "Second", "second body text is different")
    assert tree_bytes(store.root) == before


def test_hand_broken_index_is_detected_and_fixed(store: Store) -> None:
    store.add("p", "One", "first body")
    store.add("p", "Two", "second body, different")
    index = store.root / "p" / "INDEX.md"
    text = index.read_text("utf-8")
    text = text.replace("| One | active |", "| One | archived |").replace("| Two |", "| Two | x |")
    text += "| Ghost | active | 2026-01-01 | [ghost.md](ghost.md) |\n"
    index.write_text(text, "utf-8")
    (store.root / "INDEX.md").write_text((store.root / "INDEX.md").read_text().replace("| 2 |", "| 7 |"))
    kinds = {p["kind"] for p in store.check_index()}
    assert {"wrong_status", "malformed", "orphan_row", "missing_row", "wrong_count"} <= kinds
    store.rebuild_index()
    assert store.check_index() == []


def test_store_errors_are_memsearch_errors_not_tracebacks(store: Store) -> None:
    with pytest.raises(MemsearchError, match="no entry 'nope'"):
        store.get("nope")


@pytest.mark.parametrize("category", ["notes/MEMORY.md", "a/archived", "x.md"])
def test_categories_that_look_like_files_are_refused(store: Store, category: str) -> None:
    with pytest.raises(Refused):
        store.add(category, "T", "b")


def test_agent_memory_folders_are_refused_as_root(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("x")
    with pytest.raises(Refused, match="memory/ folder"):
        Store(ws / "memory").init()
    journals = tmp_path / "j"
    journals.mkdir()
    (journals / "2025-01-02.md").write_text("- x\n")
    with pytest.raises(Refused, match="journals"):
        Store(journals).init()
    assert not (ws / "memory" / "INDEX.md").exists() and not (journals / "INDEX.md").exists()
