"""Random operation sequences on two devices, synced at random moments, then twice each.

After that the two trees must be identical, every text either device ever wrote must still
be somewhere (current, a kept version, or a trash), every INDEX.md consistent with its
entries, and no file may hold a conflict marker. The counts are printed (``-s``) for the
closing note; the seeds are fixed, so a failure replays exactly.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.curator import trash, versions
from memsearch_tui.engine.store.store import Change, Store
from memsearch_tui.engine.store.trash_index import list_trash
from memsearch_tui.engine.sync import run
from tests.sync.conftest import Devices, all_text, synced_files

SEQUENCES = 12
STEPS = 14
TOTALS = {"sequences": 0, "operations": 0, "syncs": 0, "conflicts": 0, "lost": 0}


def _step(rng: random.Random, store: Store, dev: str, n: int, written: list[str]) -> None:
    marker = f"mark{dev}{n:03d}"
    entries = [s.id for s in store.list()]
    op = rng.choice(["add", "add", "update", "update", "trash", "restore"])
    try:
        if op == "add" or not entries:
            title = rng.choice(["Alpha launch", "Beta plan", "Gamma notes", "Deploy steps", "On call"])
            versions.add_entry(store, rng.choice(["notes", "projects/web"]), title, f"{marker} first text of {title}.")
        elif op == "update":
            eid = rng.choice(entries)
            versions.update_entry(store, eid, Change(body=f"{marker} replaced text, number {rng.randint(1, 99)}."))
        elif op == "trash":
            trash.trash(store, rng.choice(entries), "random")
            return
        else:
            items = list_trash(store.root)
            if not items:
                return
            trash.restore(store, rng.choice(items).key)
            return
    except MemsearchError:
        return  # a refusal (duplicate, taken name) writes nothing: nothing to remember
    written.append(marker)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(SEQUENCES))
def test_random_sequences_on_two_devices_converge_and_lose_nothing(devices: Devices, seed: int) -> None:
    rng = random.Random(seed)
    written: list[str] = []
    for n in range(STEPS):
        dev, store = rng.choice([("a", devices.a), ("b", devices.b)])
        _step(rng, store, dev, n, written)
        TOTALS["operations"] += 1
        if rng.random() < 0.2:
            report = run.sync(store.root)
            TOTALS["syncs"] += 1
            TOTALS["conflicts"] += len(report.conflicts)
    for _ in range(2):
        for store in (devices.a, devices.b):
            TOTALS["conflicts"] += len(run.sync(store.root).conflicts)
            TOTALS["syncs"] += 1
    a, b = synced_files(devices.a.root), synced_files(devices.b.root)
    assert a == b
    text = all_text(devices.a.root) + all_text(devices.b.root)
    lost = [m for m in written if m not in text]
    TOTALS["lost"] += len(lost)
    assert lost == []
    assert "<<<<<<<" not in text and ">>>>>>>" not in text
    for store in (devices.a, devices.b):
        assert store.check_index() == [], store.root
    TOTALS["sequences"] += 1
    if seed == SEQUENCES - 1:
        print(f"\nsync random sequences: {TOTALS}")


def test_every_kept_conflict_is_listed_on_both_devices(devices: Devices, tmp_path: Path) -> None:
    eid = versions.add_entry(devices.a, "notes", "Deploy steps", "Deploy with the blue pipeline.")["entry"]["id"]
    devices.sync_all()
    versions.update_entry(devices.a, eid, Change(body="Deploy with the green pipeline, never the blue one."))
    versions.update_entry(devices.b, eid, Change(body="Deploy by hand on Fridays only."))
    devices.sync_all()
    assert [c["id"] for c in versions.conflicts(devices.a)] == [c["id"] for c in versions.conflicts(devices.b)] == [eid]
