"""``sync``: two devices, one bare remote; merging is ours, every merge is undoable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import MemsearchError, Refused
from memsearch_tui.engine.curator import trash, versions
from memsearch_tui.engine.history.undo import undo_last
from memsearch_tui.engine.store.store import Change, Store
from memsearch_tui.engine.sync import run
from memsearch_tui.engine.sync.git import GitError
from tests.sync.conftest import Devices, make_remote, synced_files


def _add(store: Store, title: str, body: str, category: str = "notes") -> str:
    return versions.add_entry(store, category, title, body)["entry"]["id"]


def test_an_entry_added_on_one_device_reaches_the_other(devices: Devices) -> None:
    eid = _add(devices.a, "Alpha launch", "We ship alpha on Friday.")
    devices.sync_all()
    assert devices.b.get(eid).body.startswith("We ship alpha on Friday.")
    assert synced_files(devices.a.root) == synced_files(devices.b.root)
    assert devices.b.check_index() == []


def test_an_entry_edited_on_both_devices_keeps_both_texts_as_a_conflict(devices: Devices) -> None:
    eid = _add(devices.a, "Alpha launch", "We ship alpha on Friday.")
    devices.sync_all()
    versions.update_entry(devices.a, eid, Change(body="We ship alpha on Monday instead."))
    versions.update_entry(devices.b, eid, Change(body="We ship alpha on Thursday, not Friday."))
    devices.sync_all()
    assert synced_files(devices.a.root) == synced_files(devices.b.root)
    text = "\n".join(synced_files(devices.a.root)[p].decode() for p in synced_files(devices.a.root))
    for said in ("Monday instead", "Thursday, not Friday", "on Friday."):
        assert said in text
    assert "<<<<<<<" not in text and ">>>>>>>" not in text
    listed = [c["id"] for c in versions.conflicts(devices.a)]
    assert eid in listed
    assert "## Version history" in devices.a.get(eid).body


def test_changes_to_different_fields_merge_without_a_conflict(devices: Devices) -> None:
    eid = _add(devices.a, "Alpha launch", "We ship alpha on Friday.")
    devices.sync_all()
    devices.a.update(eid, Change(tags=["release"]))
    devices.b.update(eid, Change(importance=0.9))
    devices.sync_all()
    merged = devices.b.get(eid)
    assert merged.tags == ["release"] and merged.importance == 0.9
    assert versions.conflicts(devices.b) == []


def test_a_delete_against_an_edit_keeps_the_edit_and_says_so(devices: Devices) -> None:
    eid = _add(devices.a, "Alpha launch", "We ship alpha on Friday.")
    devices.sync_all()
    trash.trash(devices.a, eid, "obsolete")
    versions.update_entry(devices.b, eid, Change(body="We ship alpha on Friday, with the new banner."))
    run.sync(devices.a.root)
    report = run.sync(devices.b.root)
    assert any("the edit is kept" in n for n in report.notes)
    run.sync(devices.a.root)
    assert "new banner" in devices.a.get(eid).body


def test_an_entry_trashed_on_one_device_lands_in_the_others_trash(devices: Devices) -> None:
    eid = _add(devices.a, "Alpha launch", "We ship alpha on Friday.")
    devices.sync_all()
    trash.trash(devices.a, eid, "obsolete")
    devices.sync_all()
    with pytest.raises(MemsearchError):
        devices.b.get(eid)
    trashed = [p for p in (devices.b.root / ".trash").rglob("*.md") if p.name != "INDEX.md"]
    assert trashed and "We ship alpha on Friday." in trashed[0].read_text()
    assert "removed on laptop (sync)" in trashed[0].read_text()


def test_a_move_on_one_device_carries_the_other_devices_edit(devices: Devices) -> None:
    eid = _add(devices.a, "Alpha launch", "We ship alpha on Friday, then we iterate on the beta.")
    devices.sync_all()
    from memsearch_tui.engine.curator.lifecycle import archive, archive_target

    archive(devices.a, eid)
    moved = archive_target(eid)
    versions.update_entry(
        devices.b, eid, Change(body="We ship alpha on Friday, then we iterate on the beta and the docs.")
    )
    devices.sync_all()
    assert "iterate on the beta and the docs" in devices.a.get(moved).body
    with pytest.raises(MemsearchError):
        devices.a.get(eid)


def test_undo_after_sync_restores_the_local_state_exactly(devices: Devices) -> None:
    _add(devices.a, "Alpha launch", "We ship alpha on Friday.")
    _add(devices.b, "Beta plan", "Beta opens in March for ten teams.")
    run.sync(devices.a.root)
    before = synced_files(devices.b.root)
    report = run.sync(devices.b.root)
    assert report.received == 1 and report.changed
    undo_last(devices.b.root)
    assert synced_files(devices.b.root) == before


def test_sync_without_init_and_with_an_unreachable_remote_say_what_to_do(tmp_path: Path) -> None:
    s = Store(tmp_path / "m")
    s.init()
    with pytest.raises(Refused, match="sync init"):
        run.sync(s.root)
    run.init(s.root, device="laptop")
    subprocess.run(["git", "-C", str(s.root), "remote", "add", "origin", str(tmp_path / "nowhere.git")], check=True)
    state = run.st.load(s.root)
    assert state is not None
    state.remote = str(tmp_path / "nowhere.git")
    run.st.save(s.root, state)
    _add(s, "Alpha launch", "We ship alpha on Friday.")
    with pytest.raises(GitError, match="committed locally"):
        run.sync(s.root)
    log = subprocess.run(["git", "-C", str(s.root), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert "laptop: add to notes: Alpha launch" in log


def test_a_remote_that_is_not_a_store_is_refused_and_nothing_merged(tmp_path: Path) -> None:
    other = tmp_path / "other"
    subprocess.run(["git", "init", "-q", "-b", "main", str(other)], check=True)
    (other / "README.md").write_text("not memory\n")
    subprocess.run(["git", "-C", str(other), "add", "."], check=True)
    subprocess.run(
        ["git", "-C", str(other), "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-qm", "x"], check=True
    )
    s = Store(tmp_path / "m")
    s.init()
    before = synced_files(s.root)
    with pytest.raises(Refused, match="not a memory store"):
        run.init(s.root, remote=str(other), device="laptop")
    assert synced_files(s.root) == before  # no .gitignore, no sync.json left behind
    assert not (s.root / ".git").exists() and run.st.load(s.root) is None


def test_a_hand_made_git_merge_in_progress_or_markers_are_refused(devices: Devices) -> None:
    eid = _add(devices.a, "Alpha launch", "We ship alpha on Friday.")
    path = devices.a.path_of(eid)
    path.write_text(path.read_text() + "<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n")
    with pytest.raises(Refused, match="conflict markers"):
        run.sync(devices.a.root)
    gitdir = devices.a.root / ".git"
    (gitdir / "MERGE_HEAD").write_text("0" * 40 + "\n")
    with pytest.raises(Refused, match="merge --abort"):
        run.sync(devices.a.root)


def test_a_sync_killed_while_merging_is_finished_by_the_next_one(devices: Devices) -> None:
    _add(devices.a, "Alpha launch", "We ship alpha on Friday.")
    _add(devices.a, "Gamma notes", "Gamma ships after the beta, in April.")
    run.sync(devices.a.root)
    eid_b = _add(devices.b, "Beta plan", "Beta opens in March for ten teams.")
    code = "import sys; from memsearch_tui.engine.sync import run; run.sync(sys.argv[1])"
    env = {**os.environ, run.CRASH_ENV: "sync:after-first-write", "PYTHONPATH": os.getcwd()}
    done = subprocess.run([sys.executable, "-c", code, str(devices.b.root)], env=env, capture_output=True)
    assert done.returncode == -9
    assert run.status(devices.b.root).interrupted
    report = run.sync(devices.b.root)
    assert any("interrupted" in n for n in report.notes)
    run.sync(devices.a.root)
    assert synced_files(devices.a.root) == synced_files(devices.b.root)
    assert devices.a.get(eid_b).title == "Beta plan"
    assert devices.b.check_index() == []


def test_init_clones_into_a_missing_root_and_names_the_device(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    a = Store(tmp_path / "a")
    a.init()
    _add(a, "Alpha launch", "We ship alpha on Friday.")
    run.init(a.root, remote=str(remote), device="laptop")
    report = run.init(tmp_path / "new" / "b", remote=str(remote), device="desktop")
    assert "cloned" in report.message
    b = Store(tmp_path / "new" / "b")
    assert b.get("notes/alpha-launch").title == "Alpha launch"
    assert (b.root / ".gitignore").read_text().count("/.trash/") == 1
    assert run.status(b.root).device == "desktop"


def test_a_bad_device_name_is_refused(tmp_path: Path) -> None:
    s = Store(tmp_path / "m")
    s.init()
    with pytest.raises(MemsearchError, match="device name"):
        run.init(s.root, device="lap top; rm -rf /")
