"""Quiet conflicts: after a sync conflict, the versions listed are the versions kept, and
the history has one line per version."""

from __future__ import annotations

import re

from memsearch_tui.engine.curator import versions
from memsearch_tui.engine.curator.versions import split_history
from memsearch_tui.engine.store.store import Change
from tests.sync.conftest import Devices


def test_a_sync_conflict_of_two_local_conflicts_lists_only_kept_versions_once_each(devices: Devices) -> None:
    eid = versions.add_entry(devices.a, "notes", "Deploy steps", "Deploy with the blue pipeline.")["entry"]["id"]
    devices.sync_all()
    assert versions.update_entry(devices.a, eid, Change(body="Deploy with the green pipeline."))["action"] == "conflict"
    assert versions.update_entry(devices.b, eid, Change(body="Deploy by hand on Fridays."))["action"] == "conflict"
    devices.sync_all()
    for store in (devices.a, devices.b):
        listed = versions.list_versions(store, eid)
        assert all(v["kept"] for v in listed), listed
        for v in listed:
            if not v["current"]:
                versions.version_text(store, eid, v["version"])  # every listed version opens
        _, lines = split_history(store.get(eid).body)
        numbers = [m.group(1) for ln in lines if (m := re.match(r"- v(\d+) ", ln))]
        assert len(numbers) == len(set(numbers)), lines
