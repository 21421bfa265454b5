"""Issue 38, item 2: a full disk under the store. Every command either works (reads) or
fails with one clear line (and the ``--json`` envelope), and a failed write leaves the
store exactly as it was: no half-written file, no log record, nothing left to recover."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memsearch_tui.engine.curator import trash
from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.store.store import Store
from tests.conftest import tree_bytes
from tests.faults import cli, fill, fill_leaving, one_clear_line, read_only_view, tmpfs

pytestmark = pytest.mark.xdist_group("full-disk")  # one worker makes the big category, once


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


# -- a rollback on a disk full to the last byte ---------------------------------------------
# An add to a category with a big INDEX.md (~54 KB: 120 rows of long English and Chinese
# titles): the entry is written, then the category's INDEX.md (a new ~14-page file while
# the old one is kept by the intent journal), then the root INDEX.md and the log. With a
# few pages free, one of those later writes fails; the rollback must then put the old
# INDEX.md back without any free page: it puts back the kept file itself (a hard link).
SLACKS = range(12, 21)


@pytest.fixture(scope="module")
def big_category(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Made once per worker (the module runs on one: ``xdist_group`` below), without fsync:
    its 120 adds are set-up, not what is tested (~1 s of CPU a worker)."""
    store = Store(tmp_path_factory.mktemp("big") / "memory")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("os.fsync", lambda fd: None)
        store.init()
        for i in range(120):
            store.add(
                "notes", f"Runbook step {i} for the blue green deploy of the orders service {'部署' * 20}", f"n {i}\n"
            )
    return store.root


def _copy_to(src: Path, disk: Path) -> Path:
    import shutil

    from tests.helpers import run_cli

    root = disk / "memory"
    shutil.copytree(src, root, symlinks=True)
    # its catalog as on any used store (in this process: set-up, not the command tested)
    assert run_cli("--memory-root", str(root), "ls").code == 0
    return root


@pytest.mark.parametrize("pages", SLACKS)
def test_a_write_whose_rollback_finds_no_free_space_still_leaves_nothing(
    big_category: Path, tmp_path: Path, pages: int
) -> None:
    from memsearch_tui.engine.core.atomic import find_temp_files

    with tmpfs(tmp_path / "disk", "8m") as disk:
        root = _copy_to(big_category, disk)
        before, seqs = tree_bytes(root), [r.seq for r in oplog.records(root)]
        fill_leaving(disk, pages)
        proc = cli(root, "add", "notes", "One more", "--body", "one more note 再来一条")
        if proc.returncode == 0:
            return  # it fitted
        line = one_clear_line(proc)
        assert "No space left on device" in line and str(root) in line, line  # names the file
        assert tree_bytes(root) == before  # rolled back at once, nothing half-written
        assert [r.seq for r in oplog.records(root)] == seqs
        assert not any((root / ".memsearch-tui" / "pending").iterdir())
        assert find_temp_files(root, skip="") == []


def test_a_rollback_that_cannot_finish_says_what_to_do_and_the_next_command_finishes_it(
    big_category: Path, tmp_path: Path
) -> None:
    """The intent journal on another file system (its kept copies cannot be linked back),
    and the old INDEX.md still held by a hard-link backup (``cp -al``, rsnapshot), so
    replacing it frees nothing: the rollback must write the old INDEX.md anew, and the
    full disk refuses that too."""
    with tmpfs(tmp_path / "disk", "8m") as disk:
        root = _copy_to(big_category, disk)
        before = tree_bytes(root)
        os.link(root / "notes" / "INDEX.md", disk / "INDEX.md.snapshot")
        pending = root / ".memsearch-tui" / "pending"
        pending.mkdir(parents=True, exist_ok=True)
        with tmpfs(pending, "4m"):
            unfinished = []
            for pages in SLACKS:  # the first free space that lets the INDEX.md through, not the root's
                if (disk / ".fill").exists():
                    (disk / ".fill").unlink()
                fill_leaving(disk, pages)
                proc = cli(root, "add", "notes", "One more", "--body", "one more note 再来一条")
                if proc.returncode and any(pending.iterdir()):
                    unfinished.append(one_clear_line(proc))
                    break
                assert tree_bytes(root) == before or proc.returncode == 0
                if proc.returncode == 0:
                    pytest.fail(f"the add fitted in {pages} pages before a rollback could fail")
            assert unfinished, "no free space made the rollback run out"
            line = unfinished[0]
            assert "the change was not applied" in line and "free some space, then run any memsearch-tui" in line
            assert tree_bytes(root) != before  # the old INDEX.md could not be written back yet
            (disk / ".fill").unlink()  # the user frees space
            proc = cli(root, "ls", "notes")
            assert proc.returncode == 0, proc.stderr
            assert tree_bytes(root) == before  # the next command put it back
            assert not any(pending.iterdir())
