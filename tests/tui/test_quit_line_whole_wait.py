"""The "stopping the vector build" line comes whenever the wait after the screen went is long,
wherever the wait is: also after ``run`` returned (the build's thread ending its batch,
Milvus Lite's teardown, the interpreter's exit), not only in the searcher's release.

Trial s20 #5 (10,000 days): the release rarely passed 0.5 s, so five quits of six left the
terminal blank for 1.2-2.6 s and said nothing (the teardown after ``run``, 0.7-0.9 s, is
past where Python threads run). Here a process does what ``run_app`` does around ``run``:
the release ends at once, then a thread (the teardown) holds the exit 3 s.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from memsearch_tui.tui.closing import STOPPING

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import asyncio, threading, time
from memsearch_tui.tui import closing

async def released():
    return None

asyncio.run(closing.close_saying(released(), building={building}, shown=False))
getattr(closing, "say_until_exit", lambda: None)()  # what run_app does once run returns
threading.Thread(target=time.sleep, args=(3.0,)).start()  # the teardown after run: the exit waits
"""


def _quit(building: bool) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(building=building)],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=True,
    )
    return done.stderr


def test_a_long_exit_after_a_fast_release_says_the_line_once():
    said = _quit(building=True)
    assert said.count(STOPPING) == 1, said


def test_no_line_when_no_build_was_stopping():
    assert STOPPING not in _quit(building=False)
