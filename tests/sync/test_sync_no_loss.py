"""Ordinary sequences lose no text: a write during the fetch, a kill then a write, an undone
sync, an archive on one device against an edit on the other."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.curator import versions
from memsearch_tui.engine.curator.lifecycle import archive, archive_target
from memsearch_tui.engine.history.undo import undo_last
from memsearch_tui.engine.store.store import Change, Store
from memsearch_tui.engine.sync import run
from tests.sync.conftest import Devices, git, synced_files


def carried(store: Store) -> str:
    """Every text git carries from this device (entries, versions, config)."""
    return "\n".join(d.decode("utf-8", "replace") for d in synced_files(store.root).values())


def _add(store: Store, title: str, body: str) -> str:
    return versions.add_entry(store, "notes", title, body)["entry"]["id"]


def write_during_fetch(store: Store, path: Path, data: bytes) -> None:
    """The next fetch of ``store`` writes ``data`` to ``path`` (once) while git talks to the
    remote: git runs this wrapper in place of ``git-upload-pack`` (``remote.origin.uploadpack``),
    so the write lands exactly inside the fetch, as an editor's save would."""
    staged, flag = store.root.parent / "staged.md", store.root.parent / "fired"
    staged.write_bytes(data)
    script = store.root.parent / f"slow-upload-pack-{store.root.name}"
    script.write_text(
        f'#!/bin/sh\nif [ ! -e "{flag}" ]; then touch "{flag}"; cp "{staged}" "{path}"; fi\nexec git-upload-pack "$@"\n'
    )
    script.chmod(0o755)
    git(store.root, "config", "remote.origin.uploadpack", str(script))


def test_a_write_made_while_sync_waits_on_the_fetch_is_kept(devices: Devices) -> None:
    eid = _add(devices.a, "Deploy steps", "Deploy with the blue pipeline.")
    devices.sync_all()
    versions.update_entry(devices.a, eid, Change(body="Deploy with the green pipeline, never the blue one."))
    run.sync(devices.a.root)
    path = devices.b.path_of(eid)
    mine = path.read_bytes().replace(b"Deploy with the blue pipeline.", b"Deploy by hand on Fridays only.")
    write_during_fetch(devices.b, path, mine)
    run.sync(devices.b.root)
    assert (devices.b.root.parent / "fired").exists()
    devices.sync_all()
    for store in (devices.a, devices.b):
        text = carried(store)
        assert "Deploy by hand on Fridays only." in text and "green pipeline" in text


def test_recovery_after_a_killed_sync_keeps_what_was_written_since(devices: Devices) -> None:
    eid_a = _add(devices.a, "Alpha launch", "We ship alpha on Friday.")
    run.sync(devices.a.root)
    _add(devices.b, "Beta plan", "Beta opens in March for ten teams.")
    code = "import sys; from memsearch_tui.engine.sync import run; run.sync(sys.argv[1])"
    env = {**os.environ, run.CRASH_ENV: "sync:before-commit", "PYTHONPATH": os.getcwd()}
    done = subprocess.run([sys.executable, "-c", code, str(devices.b.root)], env=env, capture_output=True)
    assert done.returncode == -9 and run.status(devices.b.root).interrupted
    versions.update_entry(devices.b, eid_a, Change(body="We ship alpha on Friday, with the new banner."))
    eid_new = _add(devices.b, "Gamma notes", "Gamma ships after the beta, in April.")
    report = run.sync(devices.b.root)
    assert any("interrupted" in n and f"{eid_a}.md" in n for n in report.notes)
    assert "new banner" in devices.b.get(eid_a).body
    assert devices.b.get(eid_new).title == "Gamma notes"
    devices.sync_all()
    assert synced_files(devices.a.root) == synced_files(devices.b.root)
    assert "new banner" in devices.a.get(eid_a).body and devices.a.get(eid_new).title == "Gamma notes"


def test_undo_of_a_sync_keeps_the_other_devices_text_as_a_version(devices: Devices) -> None:
    eid = _add(devices.a, "Deploy steps", "Deploy with the blue pipeline.")
    devices.sync_all()
    versions.update_entry(devices.a, eid, Change(body="Deploy with the green pipeline, never the blue one."))
    run.sync(devices.a.root)
    run.sync(devices.b.root)
    undo_last(devices.b.root)
    assert "blue pipeline." in devices.b.get(eid).body
    report = run.sync(devices.b.root)
    assert any(eid in n and "kept as v" in n for n in report.notes)
    devices.sync_all()
    for store in (devices.a, devices.b):
        assert "green pipeline" in carried(store)
        listed = versions.list_versions(store, eid)
        assert all(v["kept"] for v in listed)
        kept = [v for v in listed if not v["current"]]
        assert any("green pipeline" in versions.version_text(store, eid, v["version"])[1] for v in kept)


def test_an_archive_on_one_device_keeps_the_versions_the_other_made(devices: Devices) -> None:
    eid = _add(devices.a, "Alpha launch", "We ship alpha on Friday to ten teams.")
    devices.sync_all()
    archive(devices.a, eid)
    moved = archive_target(eid)
    versions.update_entry(devices.b, eid, Change(body="We ship alpha on Monday to three teams."))
    assert (devices.b.root / ".versions" / f"{eid}").is_dir()
    devices.sync_all()
    for store in (devices.a, devices.b):
        listed = versions.list_versions(store, moved)
        assert len(listed) >= 2 and all(v["kept"] for v in listed), listed
        assert "on Friday to ten teams" in carried(store)
        assert not (store.root / ".versions" / eid).exists()


def test_an_entry_deleted_while_a_similar_version_was_added_is_not_moved_into_versions() -> None:
    from datetime import date

    from memsearch_tui.engine.sync import threeway

    x, v1 = b"---\ntitle: Deploy\n---\nfirst text of Deploy steps.\n", b"---\ntitle: On\n---\nfirst text of On call.\n"
    base = {"notes/deploy.md": x}
    ours = {"projects/deploy.md": x}
    theirs = {".versions/notes/on-call/v1.md": v1}
    merged = threeway.merge(
        base,
        ours,
        theirs,
        {"notes/deploy.md": "projects/deploy.md"},
        {"notes/deploy.md": ".versions/notes/on-call/v1.md"},  # git's guess: similar enough
        threeway.Sides("desktop", "laptop", date(2026, 12, 6)),
    )
    assert merged.files.get("projects/deploy.md") != v1
    assert merged.files[".versions/notes/on-call/v1.md"] == v1


def test_a_save_between_the_merge_plan_and_its_writes_is_merged_again_not_overwritten(
    devices: Devices, monkeypatch: pytest.MonkeyPatch
) -> None:
    eid = _add(devices.a, "Deploy steps", "Deploy with the blue pipeline.")
    devices.sync_all()
    versions.update_entry(devices.a, eid, Change(body="Deploy with the green pipeline, never the blue one."))
    run.sync(devices.a.root)
    path = devices.b.path_of(eid)
    mine = path.read_bytes().replace(b"Deploy with the blue pipeline.", b"Deploy by hand on Fridays only.")
    real_plan, saved = run._plan, []

    def plan_then_an_editor_saves(*args, **kw):  # an editor takes no lock: its save lands right after the plan
        out = real_plan(*args, **kw)
        if not saved:
            path.write_bytes(mine)
            saved.append(True)
        return out

    monkeypatch.setattr(run, "_plan", plan_then_an_editor_saves)
    run.sync(devices.b.root)
    assert saved
    devices.sync_all()
    for store in (devices.a, devices.b):
        text = carried(store)
        assert "Deploy by hand on Fridays only." in text and "green pipeline" in text
