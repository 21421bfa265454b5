"""Issue 38, item 2: a full disk under the store. Every command either works (reads) or
fails with one clear line (and the ``--json`` envelope), and a failed write leaves the
store exactly as it was: no half-written file, no log record, nothing left to recover."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsearch_tui.engine.curator import trash
from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.store.store import Store
from tests.conftest import tree_bytes
from tests.faults import cli, fill, one_clear_line, read_only_view, tmpfs


@pytest.fixture
def full(tmp_path: Path):
    with tmpfs(tmp_path / "disk") as disk:
        store = Store(disk / "memory")
        store.init()
        store.add("notes", "First", "the first note about deploys\n")
        store.add("notes", "Second", "the second note\n")
        store.add("old", "Gone", "a trashed note\n")
        trash.trash(store, "old/gone")
        fill(disk)
        yield store.root


WRITES = [
    ["add", "notes", "Third", "--body", "a third note"],
    ["update", "notes/first", "--body", "changed text"],
    ["trash", "notes/second"],
    ["trash", "restore", "old/gone"],
    ["index", "check", "--fix"],
    ["undo"],
]


@pytest.mark.parametrize("args", WRITES, ids=lambda a: " ".join(a[:2]))
def test_a_write_on_a_full_disk_fails_cleanly_and_changes_nothing(full: Path, args: list[str]) -> None:
    before, seqs = tree_bytes(full), [r.seq for r in oplog.records(full)]
    proc = cli(full, *args)
    if proc.returncode == 0:  # done in full (a rename or an unlink needs no free space)
        assert "Traceback" not in proc.stderr
        return
    line = one_clear_line(proc)
    assert "No space left on device" in line or "disk is full" in line, line
    assert tree_bytes(full) == before
    assert [r.seq for r in oplog.records(full)] == seqs
    assert not any((full / ".memsearch-tui" / "pending").iterdir())
    proc = cli(full, *args, "--json")
    out = json.loads(proc.stdout)
    assert out["ok"] is False and out["error"]["code"] in {"io", "disk_full"}, out
    assert tree_bytes(full) == before


@pytest.mark.parametrize("args", [["ls"], ["ls", "notes"], ["show", "notes/first"], ["index", "check"], ["doctor"]])
def test_reads_work_on_a_full_disk(full: Path, args: list[str]) -> None:
    (full / ".memsearch-tui" / "catalog.sqlite3").unlink()  # the cache must be rebuilt, in memory
    proc = cli(full, *args)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    if args[0] != "doctor":  # doctor may fail a check (no vectors yet): it still runs them all
        assert proc.returncode == 0, proc.stderr
    if args[0] == "ls":
        assert "notes/first" in proc.stdout


@pytest.fixture
def read_only(tmp_path: Path):
    store = Store(tmp_path / "rw" / "memory")
    store.init()
    store.add("notes", "First", "the first note about deploys\n")
    (store.root / ".memsearch-tui" / "catalog.sqlite3").unlink()  # nothing cached to read
    with read_only_view(store.root, tmp_path / "ro" / "memory") as view:
        yield view


@pytest.mark.parametrize(
    "args", [["ls"], ["show", "notes/first"], ["search", "deploys"], ["index", "check"], ["doctor"]], ids=str
)
def test_reads_work_on_a_read_only_store(read_only: Path, args: list[str], tmp_path: Path) -> None:
    proc = cli(read_only, *args, env={"MEMSEARCH_TUI_DATA_DIR": str(tmp_path / "data")})
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    if args[0] != "doctor":
        assert proc.returncode == 0, proc.stderr
        assert "first" in proc.stdout.lower() or args[0] == "index"


def test_a_write_on_a_read_only_store_fails_with_one_line(read_only: Path) -> None:
    proc = cli(read_only, "add", "notes", "Second", "--body", "x")
    assert "Read-only file system" in one_clear_line(proc)


@pytest.fixture
def unreadable(store: Store) -> Path:
    store.add("notes", "First", "the first note\n")
    store.add("notes", "Secret", "a note nobody may read\n")
    (store.root / "notes" / "secret.md").chmod(0)
    return store.root


@pytest.mark.parametrize(
    "args", [["ls", "notes"], ["ls"], ["index", "check"], ["add", "notes", "Third", "--body", "x"]]
)
def test_an_unreadable_entry_is_skipped_and_named(unreadable: Path, args: list[str]) -> None:
    proc = cli(unreadable, *args, obey_modes=True)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    text = proc.stdout + proc.stderr
    if args[0] == "index":
        assert proc.returncode == 1 and "secret.md" in text and "ermission denied" in text
    else:
        assert proc.returncode == 0, text
    if args[0] == "ls":
        assert "notes/first" in text and "notes/secret" in text and "invalid" in text
    if args[0] == "add":
        assert (unreadable / "notes" / "third.md").exists()
