"""Issue 38, items 2 and 3: the search data dir is full. A write reports exactly what
happened: the change is done and logged, and only the derived index is "deferred"; it is
never reported as a failure. Search falls back to a literal scan of the files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsearch_tui.engine.curator import lifecycle, trash
from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.review import store_proposals
from memsearch_tui.engine.store.store import Store
from tests.conftest import tree_bytes
from tests.faults import cli, fill, one_clear_line, tmpfs
from tests.journals.conftest import DAY


@pytest.fixture
def full_data(proj: Path, monkeypatch: pytest.MonkeyPatch):
    root = proj / "memory"
    with tmpfs(proj / "data-disk") as disk:
        data = disk / "data"
        monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(data))
        store = Store(root)
        monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-01-10T12:00:00Z")
        store.add("old", "Stale", "trashed long ago, purged by the plan\n")
        trash.trash(store, "old/stale")
        monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-30T12:00:00Z")
        store.add("notes", "Deploys", "we deploy with the blue-green script\n")
        built = cli(root, "--project", str(proj), "--json", "search", "-s", "index", "Postgres")
        assert built.returncode == 0 and json.loads(built.stdout)["data"]["hits"], built.stderr[-2000:]
        fill(disk)
        yield root


def _done(root: Path, proj: Path, *args: str, logged: bool = True) -> dict:
    seqs = [(r.seq, r.undone) for r in oplog.records(root)]
    proc = cli(root, "--project", str(proj), "--json", *args)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert proc.returncode == 0 and out["ok"], out  # applied, so reported as done
    if logged:
        assert [(r.seq, r.undone) for r in oplog.records(root)] != seqs  # and logged (undoable)
    return out["data"]


def test_forget_with_a_full_data_dir_is_done_and_says_the_index_is_deferred(full_data, proj) -> None:
    data = _done(full_data, proj, "journal", "forget", DAY, "--session", "s1", "--turn", "t1", "--reason", "x")
    assert "flaky login" not in (proj / ".memsearch" / "memory" / f"{DAY}.md").read_text(encoding="utf-8")
    assert "deferred" in json.dumps(data["index"]), data["index"]
    proc = cli(
        full_data, "--project", str(proj), "journal", "forget", DAY, "--session", "s1", "--turn", "t2", "-r", "x"
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert "forgot" in proc.stdout and "keyword deferred" in proc.stdout and "disk is full" in proc.stdout


def test_redact_with_a_full_data_dir_is_done(full_data, proj) -> None:
    data = _done(full_data, proj, "journal", "redact", DAY, "--pattern", "hunter2-staging", "--reason", "x")
    assert "hunter2" not in (proj / ".memsearch" / "memory" / f"{DAY}.md").read_text(encoding="utf-8")
    assert "deferred" in json.dumps(data), data


def test_accept_with_a_full_data_dir_is_done(full_data, proj) -> None:
    store = Store(full_data)
    moves = [m for m in lifecycle.plan(store) if m["action"] == "purge"]
    assert moves
    prop = store_proposals.propose_lifecycle(full_data, moves)
    data = _done(full_data, proj, "proposals", "accept", prop["id"])  # the purge is logged, not undoable
    assert data["proposal"]["status"] == "accepted", data
    assert not trash.list_trash(full_data)


def test_trash_and_undo_with_a_full_data_dir_are_done(full_data, proj) -> None:
    _done(full_data, proj, "trash", "notes/deploys")
    assert not (full_data / "notes" / "deploys.md").exists()
    _done(full_data, proj, "undo")
    assert (full_data / "notes" / "deploys.md").exists()


def test_search_falls_back_when_the_data_dir_cannot_be_written(full_data, proj) -> None:
    (full_data / "notes" / "deploys.md").write_text("---\ntitle: Deploys\n---\nblue-green canary rollout\n")
    proc = cli(full_data, "--project", str(proj), "--json", "search", "-s", "index", "canary")
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert proc.returncode == 0 and out["ok"], out
    assert [h["id"] for h in out["data"]["hits"]][:1] == ["notes/deploys"], out


def test_vectors_index_force_on_a_full_data_dir_fails_in_one_line(full_data, proj) -> None:
    """A forced rebuild writes nothing but derived data, all of it in the full data dir:
    it fails, in one line naming the disk problem (and the ``--json`` envelope), no traceback."""
    before = tree_bytes(full_data)
    proc = cli(full_data, "--project", str(proj), "vectors", "index", "--force")
    assert proc.returncode == 1
    line = one_clear_line(proc)
    assert "No space left on device" in line or "disk is full" in line, line
    assert str(full_data.parent / "data-disk") in line  # names where: the data dir
    proc = cli(full_data, "--project", str(proj), "--json", "vectors", "index", "--force")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert out["ok"] is False and out["error"]["code"] == "io", out
    assert tree_bytes(full_data) == before  # the store is untouched
    proc = cli(full_data, "--project", str(proj), "--json", "search", "-s", "index", "blue-green")
    assert proc.returncode == 0 and json.loads(proc.stdout)["data"]["hits"], proc.stderr[-2000:]
