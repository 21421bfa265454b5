"""Random operation sequences on two devices, synced at random moments, then twice each.

Operations: add, update, trash, restore, archive, move to another category, undo (of
whatever was last: an add, an update, a sync), a hand edit saved while a sync waits on
its fetch, and a sync SIGKILLed half-way then recovered by the next one. After the
closing syncs the two trees must be identical, every text either device wrote must still
be somewhere a person can reach it (current, a kept version, or a trash: the undo log
does not count), every INDEX.md consistent with its entries, and no file may hold a
conflict marker. A text the person undid themselves is not expected back; a text an undone
*sync* brought is. The counts are printed (``-s``) for the closing note; the seeds are
fixed, so a failure replays exactly.

The seeds: eight of the first sixteen. Counting what each sequence did (every operation
with its outcome, each undo by the kind it undid, each sync by kind, crash point, whether
the kill landed and whether it kept a conflict), the sixteen reached 28 distinct events and
these eight reach all 28 (any four of the right ones did) and 100 of the 121 consecutive
pairs, at half the cost (session 15).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.curator import trash, versions
from memsearch_tui.engine.curator.lifecycle import archive
from memsearch_tui.engine.curator.relocate import relocate
from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.history.undo import undo_last
from memsearch_tui.engine.store.store import Change, Store
from memsearch_tui.engine.store.trash_index import list_trash
from memsearch_tui.engine.sync import run
from tests.sync.conftest import Devices, git, synced_files
from tests.sync.test_sync_no_loss import write_during_fetch

SEEDS = (3, 4, 5, 6, 7, 11, 13, 15)
STEPS = 18
OPS = ["add", "add", "update", "update", "trash", "restore", "archive", "move", "undo"]
TOTALS = dict.fromkeys(
    [
        "sequences",
        "operations",
        *OPS[1:],
        "syncs",
        "fetch_writes",
        "kills",
        "conflicts",
        "texts",
        "undone_own",
        "undone_syncs",
        "lost",
    ],
    0,
)
CRASH_POINTS = ("sync:after-first-write", "sync:before-commit")


def kept_text(root: Path) -> str:
    """Every text a person can reach under root: entries, versions, config, the trash (not
    ``.git``, not the state folder's undo log)."""
    skip = {".git", ".memsearch-tui"}
    return "\n".join(
        p.read_text("utf-8", "replace")
        for p in root.rglob("*")
        if p.is_file() and not skip & set(p.relative_to(root).parts)
    )


def _undo(store: Store, written: list[str]) -> None:
    """Undo the newest operation; a text the person undid themselves leaves the expectation
    (they asked for it gone), one an undone sync brought does not."""
    rec = undo_last(store.root)
    TOTALS["undo"] += 1
    if rec.kind == "sync":
        TOTALS["undone_syncs"] += 1
        return
    for f in rec.files:
        after = oplog.after_bytes(store.root, f) or b""
        before = oplog.blob(store.root, f["before"]) or b""
        for m in [m for m in written if m.encode() in after and m.encode() not in before]:
            if m not in kept_text(store.root):
                written.remove(m)
                TOTALS["undone_own"] += 1


def _move(store: Store, eid: str) -> None:
    category = "notes" if not eid.startswith("notes/") else "projects/web"
    with store.edit("move", f"move {eid} to {category}") as ed:
        relocate(store, ed, {eid: ed.free_id(f"{category}/{eid.rsplit('/', 1)[-1]}")})


def _step(rng: random.Random, store: Store, dev: str, n: int, written: list[str]) -> None:
    marker = f"mark{dev}{n:03d}"
    entries = [s.id for s in store.list() if "/archived/" not in f"/{s.id}"]
    op = rng.choice(OPS)
    try:
        if op == "undo":
            _undo(store, written)
            return
        if op in ("archive", "move") and entries:
            (archive if op == "archive" else _move)(store, rng.choice(entries))
            TOTALS[op] += 1
            return
        if op == "add" or not entries:
            title = rng.choice(["Alpha launch", "Beta plan", "Gamma notes", "Deploy steps", "On call"])
            versions.add_entry(store, rng.choice(["notes", "projects/web"]), title, f"{marker} first text of {title}.")
        elif op == "update":
            eid = rng.choice(entries)
            versions.update_entry(store, eid, Change(body=f"{marker} replaced text, number {rng.randint(1, 99)}."))
        elif op == "trash":
            trash.trash(store, rng.choice(entries), "random")
            TOTALS["trash"] += 1
            return
        else:
            items = list_trash(store.root)
            if not items:
                return
            trash.restore(store, rng.choice(items).key)
            TOTALS["restore"] += 1
            return
    except MemsearchError:
        return  # a refusal (duplicate, taken name, nothing to undo) writes nothing: nothing to remember
    TOTALS["add" if op == "add" or not entries else "update"] += 1
    written.append(marker)


def _sync(rng: random.Random, store: Store, dev: str, n: int, written: list[str]) -> int:
    """One sync of ``store``: plain, with a hand edit saved during its fetch, or killed
    half-way (the next sync recovers); the number of conflicts it reported."""
    kind = rng.choice(["plain", "plain", "plain", "fetch_write", "kill"])
    entries = [s.id for s in store.list()]
    if kind == "fetch_write" and entries:
        path = store.path_of(rng.choice(entries))
        marker = f"mark{dev}{n:03d}fetch"
        write_during_fetch(store, path, path.read_bytes() + f"\n{marker} saved during the fetch.\n".encode())
        written.append(marker)
        TOTALS["fetch_writes"] += 1
        try:
            return len(run.sync(store.root).conflicts)
        finally:
            git(store.root, "config", "--unset", "remote.origin.uploadpack")
            (store.root.parent / "fired").unlink(missing_ok=True)
    if kind == "kill":
        code = "import sys; from memsearch_tui.engine.sync import run; run.sync(sys.argv[1])"
        env = {**os.environ, run.CRASH_ENV: rng.choice(CRASH_POINTS), "PYTHONPATH": os.getcwd()}
        done = subprocess.run([sys.executable, "-c", code, str(store.root)], env=env, capture_output=True)
        assert done.returncode in (0, -9), done.stderr.decode()[-2000:]
        TOTALS["kills"] += done.returncode == -9
        return 0
    return len(run.sync(store.root).conflicts)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_random_sequences_on_two_devices_converge_and_lose_nothing(devices: Devices, seed: int) -> None:
    rng = random.Random(seed)
    written: list[str] = []
    for n in range(STEPS):
        dev, store = rng.choice([("a", devices.a), ("b", devices.b)])
        _step(rng, store, dev, n, written)
        TOTALS["operations"] += 1
        if rng.random() < 0.25:
            TOTALS["conflicts"] += _sync(rng, store, dev, n, written)
            TOTALS["syncs"] += 1
    for _ in range(2):
        for store in (devices.a, devices.b):
            TOTALS["conflicts"] += len(run.sync(store.root).conflicts)
            TOTALS["syncs"] += 1
    a, b = synced_files(devices.a.root), synced_files(devices.b.root)
    assert a == b
    text = kept_text(devices.a.root) + kept_text(devices.b.root)
    lost = [m for m in written if m not in text]
    TOTALS["texts"] += len(written)
    TOTALS["lost"] += len(lost)
    assert lost == []
    assert "<<<<<<<" not in text and ">>>>>>>" not in text
    for store in (devices.a, devices.b):
        assert store.check_index() == [], store.root
    TOTALS["sequences"] += 1
    if seed == SEEDS[-1]:
        print(f"\nsync random sequences: {TOTALS}")


def test_every_kept_conflict_is_listed_on_both_devices(devices: Devices, tmp_path: Path) -> None:
    eid = versions.add_entry(devices.a, "notes", "Deploy steps", "Deploy with the blue pipeline.")["entry"]["id"]
    devices.sync_all()
    versions.update_entry(devices.a, eid, Change(body="Deploy with the green pipeline, never the blue one."))
    versions.update_entry(devices.b, eid, Change(body="Deploy by hand on Fridays only."))
    devices.sync_all()
    assert [c["id"] for c in versions.conflicts(devices.a)] == [c["id"] for c in versions.conflicts(devices.b)] == [eid]
