"""The app's start and the cyclic collector (``tui/start_gc.py``, issue 37 item 5): what the
imports made is frozen, the start (imports included) to the first frame runs no full
collection and few young ones, and the process's own thresholds are back after the first
frame. Counted, not timed: the collections are what cost (~65 ms of CPU under load at 100k
entries, one of them a full pass over ~70,000 objects)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

import pytest

from memsearch_tui.tui import start_gc
from tests.helpers import settle

pytestmark = pytest.mark.slow

# a fresh process, as a user starts the app: collections from the process's start (asyncio's
# import and the app's) to its first frame (the Index's tree drawn), by generation; the
# frozen objects; the thresholds
START = """
import gc
runs = {0: 0, 1: 0, 2: 0}
counting = [True]
gc.callbacks.append(lambda phase, info: phase == "stop" and counting[0] and runs.__setitem__(
    info["generation"], runs[info["generation"]] + 1))
before = gc.get_threshold()

import asyncio, json, sys
from pathlib import Path
from memsearch_tui.tui.app import MemsearchApp

async def main():
    app = MemsearchApp(Path(sys.argv[1]), Path(sys.argv[2]), watch_files=False, remember_theme=False,
                       prepare_index=False)
    async with app.run_test(size=(120, 40)) as pilot:
        tree = app.query_one("#index-tree")
        while not tree.root.children:
            await pilot.pause(0.002)
        await pilot.pause(0)
        counting[0] = False
        frozen = gc.get_freeze_count()
        for _ in range(50):  # the thresholds come back once the first frame is drawn
            await pilot.pause(0.02)
            if gc.get_threshold() == before:
                break
        after = gc.get_threshold()
    print(json.dumps({"runs": runs, "frozen": frozen, "before": before, "after": after}))

asyncio.run(main())
"""


def test_the_start_to_the_first_frame_runs_no_full_collection(demo) -> None:
    root, project = demo
    out = subprocess.run(
        [sys.executable, "-c", START, str(root), str(project)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    runs = {int(k): v for k, v in seen["runs"].items()}
    assert runs[2] == 0, runs  # no pass over every object the process holds
    assert runs[0] + runs[1] <= 60, runs  # ~200 at 700 allocations a collection (~45 held: asyncio's import)
    assert seen["frozen"] > 10_000  # the imports' modules, classes and functions
    assert seen["after"] == seen["before"]


def test_the_thresholds_come_back_after_the_first_frame_and_a_second_app_freezes_nothing(drive) -> None:
    before = start_gc.thresholds()  # the tests' imports held them: what the first frame gives back
    frozen = []

    async def flow(pilot, app):
        frozen.append(gc.get_freeze_count())
        await settle(pilot, app)
        assert gc.get_threshold() == before

    drive(flow)
    drive(flow)  # the same process: its objects are not frozen again
    assert frozen[1] <= frozen[0]  # none frozen again (a frozen object can still die by its count)
    assert gc.get_threshold() == before


def test_an_app_ended_before_its_first_frame_gives_the_thresholds_back() -> None:
    start_gc.release()  # what the tests' import of the package held
    before = gc.get_threshold()
    start_gc.hold()
    assert gc.get_threshold()[0] == max(before[0], start_gc.START_THRESHOLD)
    start_gc.hold()  # a second app built meanwhile: the first one's saved thresholds stay
    start_gc.release()  # ``on_unmount``
    assert gc.get_threshold() == before
    start_gc.release()
    assert gc.get_threshold() == before


def test_a_process_that_turned_automatic_collection_off_keeps_it_off() -> None:
    start_gc.release()
    before = gc.get_threshold()
    try:
        gc.set_threshold(0, before[1], before[2])
        start_gc.hold()
        assert gc.get_threshold()[0] == 0
        start_gc.release()
        assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)
