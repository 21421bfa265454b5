"""README's sync promises that had no test of their own: INDEX.md descriptions survive a
merge, ``config.md`` is merged key by key (the syncing device wins a key both changed),
``sync status`` counts uncommitted changes and waiting conflicts without the network."""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.curator import versions
from memsearch_tui.engine.curator.versions import Change
from memsearch_tui.engine.store.config import load_store_config
from memsearch_tui.engine.sync import run
from tests.sync.conftest import Devices, synced_files


def _set(root: Path, key: str, value: int) -> None:
    path = root / "config.md"
    lines = [f"{key}: {value}" if ln.startswith(f"{key}:") else ln for ln in path.read_text().splitlines()]
    path.write_text("\n".join(lines) + "\n")


def test_a_category_description_written_by_hand_survives_both_devices_syncing(devices: Devices) -> None:
    versions.add_entry(devices.a, "notes", "Alpha", "Alpha text.")
    devices.a.rebuild_index()
    index = devices.a.root / "notes" / "INDEX.md"
    index.write_text(index.read_text().replace("# notes\n", "# notes\n\nLaunch notes, kept by hand.\n", 1))
    devices.sync_all()
    versions.add_entry(devices.b, "notes", "Beta", "Beta text.")
    devices.sync_all()
    for root in (devices.a.root, devices.b.root):
        text = (root / "notes" / "INDEX.md").read_text()
        assert "Launch notes, kept by hand." in text and "beta.md" in text and "alpha.md" in text


def test_config_is_merged_key_by_key_and_the_syncing_device_wins_a_key_both_changed(devices: Devices) -> None:
    _set(devices.a.root, "archive_after_days", 60)
    _set(devices.b.root, "archive_after_days", 45)
    _set(devices.b.root, "trash_retention_days", 10)
    run.sync(devices.a.root)
    report = run.sync(devices.b.root)
    assert any("config.md" in n and "key by key" in n for n in report.notes)
    got = load_store_config(devices.b.root)
    assert (got.archive_after_days, got.trash_retention_days) == (45, 10)
    devices.sync_all()
    assert load_store_config(devices.a.root) == got
    assert synced_files(devices.a.root) == synced_files(devices.b.root)


def test_sync_status_counts_uncommitted_changes_and_waiting_conflicts_offline(devices: Devices) -> None:
    eid = versions.add_entry(devices.a, "notes", "Gamma", "Gamma text.")["entry"]["id"]
    assert run.status(devices.a.root).uncommitted >= 1
    devices.sync_all()
    assert run.status(devices.a.root).uncommitted == 0
    versions.update_entry(devices.a, eid, Change(body="Gamma on Monday."))
    versions.update_entry(devices.b, eid, Change(body="Gamma on Tuesday."))
    devices.sync_all()
    devices.remote.rename(devices.remote.with_name("gone.git"))  # status never asks the remote
    status = run.status(devices.a.root)
    assert status.conflicts == 1 and status.uncommitted == 0 and status.ahead == 0
