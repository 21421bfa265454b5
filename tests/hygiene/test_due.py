"""The weekly hygiene due task: off until ``hygiene_every_days`` is set in config.md, then
handed by the hook to a background process that files proposals and notes what it found."""

from __future__ import annotations

import fcntl
import json
import time

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.hygiene.run import LAST, LOCK, background
from memsearch_tui.engine.upkeep.store_upkeep import upkeep

from .conftest import World


def _dup(world: World) -> None:
    world.entry(
        "ops/db-a", "Staging database is refreshed from a production snapshot every night at two.", updated="2026-11-01"
    )
    world.entry("ops/db-b", "Every night at two the staging database is refreshed from a production snapshot.")


def _last(world: World, wait_s: float = 120.0) -> dict:
    path = world.root / ".memsearch-tui" / LAST
    end = time.monotonic() + wait_s  # a bound on waiting for the child, not a speed check
    while not path.is_file() and time.monotonic() < end:
        time.sleep(0.2)
    return json.loads(path.read_text())


def test_off_by_default_no_row_and_no_pass(world: World) -> None:
    _dup(world)
    rows = upkeep(world.root, world.project)
    assert [r["task"] for r in rows] == ["lifecycle", "split"]
    assert not (world.root / ".memsearch-tui" / LAST).exists()
    with Memory(world.root, world.project) as mem:
        assert mem.proposals.list() == ()


def test_enabled_the_hook_hands_it_off_and_the_pass_files_proposals(world: World) -> None:
    _dup(world)
    upkeep(world.root, world.project)  # off: remembered
    config = world.root / "config.md"
    config.write_text(config.read_text().replace("hygiene_every_days: 0", "hygiene_every_days: 7"))
    (row,) = [r for r in upkeep(world.root, world.project) if r["task"] == "hygiene"]
    assert row["result"] == "queued"
    last = _last(world)
    assert last["result"] == "done" and last["counts"]["duplicate"] == 1
    with Memory(world.root, world.project) as mem:
        assert [p.id for p in mem.proposals.list()] == last["proposals"]
        assert mem.proposals.list()[0].kind == "merge"
    (again,) = [r for r in upkeep(world.root, world.project) if r["task"] == "hygiene"]
    assert again["result"] == "skip" and "next after 7 days" in again["reason"]


def test_a_second_pass_while_one_runs_steps_aside(world: World) -> None:
    (world.root / ".memsearch-tui").mkdir(exist_ok=True)
    with open(world.root / ".memsearch-tui" / LOCK, "a+b") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert background(world.root, world.project)["result"] == "skip"
    assert not (world.root / ".memsearch-tui" / LAST).exists()
