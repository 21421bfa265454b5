"""CPU per test, for cutting the suite on a loaded machine (issue 32 item 4).

Wall times mean little when seven people share two cores; CPU time does. Loaded as a pytest
plugin, this records for every test the user+sys time of the worker (``RUSAGE_SELF``) and of
the children it reaped (``RUSAGE_CHILDREN``: subprocesses, Milvus Lite), setup and teardown
included, and the wall time beside it (wall minus CPU at low load: the sleeps and waits).
Each xdist worker writes ``OUT.<worker>.json``; run as a script, it sums them.

    CPUPROF_OUT=/tmp/cpu PYTHONPATH=benchmarks .venv/bin/python -m pytest -n 2 -p no:randomly -p suite_cpu tests/search
    .venv/bin/python benchmarks/suite_cpu.py /tmp/cpu 30        # totals and the 30 costliest tests

A server started in a new session (``scripts/milvus_server.py``) is nobody's child: its CPU
is not counted, only the test's wait for it.

The wait (an estimate): the main thread's time on a CPU and waiting for one (its run queue
delay, ``/proc/thread-self/schedstat``) leave the time it slept; less what its threads and
children computed meanwhile (stretched by the main thread's run-queue factor), that is the
time the test waited for a sleep, a server or a disk: what more workers than cores can
fill. Summed, it says how many core-seconds an ``-n 2`` run leaves idle. Close at low load;
at a load of 15-20 a child's own run-queue delay differs from the guess by tens of seconds.
"""

from __future__ import annotations

import glob
import json
import os
import resource
import sys
import time
from collections.abc import Generator
from typing import Any

import pytest

_rows: list[tuple[str, float, float, float, float]] = []


def _cpu() -> tuple[float, float]:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def _main_thread() -> tuple[float, float]:
    """The main thread's seconds on a CPU and waiting in the run queue (0, 0 off Linux)."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as f:
            on, delay = f.read().split()[:2]
    except (OSError, ValueError):
        return 0.0, 0.0
    return int(on) / 1e9, int(delay) / 1e9


def _wait(wall: float, me: float, kids: float, on: float, delay: float) -> float:
    """Seconds the test slept on something other than this run's CPUs (see the docstring)."""
    if on <= 0:
        return 0.0
    slept = wall - on - delay
    others = max(0.0, me - on) + kids  # threads and children: they ran while the main thread slept
    return max(0.0, slept - others * (on + delay) / on)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, Any, None]:
    (s0, c0), w0, (on0, d0) = _cpu(), time.monotonic(), _main_thread()
    yield
    (s1, c1), w1, (on1, d1) = _cpu(), time.monotonic(), _main_thread()
    wait = _wait(w1 - w0, s1 - s0, c1 - c0, on1 - on0, d1 - d0)
    _rows.append((item.nodeid, round(s1 - s0, 2), round(c1 - c0, 2), round(w1 - w0, 2), round(wait, 2)))


def pytest_sessionfinish(session: pytest.Session) -> None:
    out, worker = os.environ.get("CPUPROF_OUT"), os.environ.get("PYTEST_XDIST_WORKER")
    if not out or (worker is None and not _rows):  # the xdist controller: its children are the workers
        return
    me, kids = _cpu()
    with open(f"{out}.{worker or 'main'}.json", "w", encoding="utf-8") as f:
        json.dump({"rows": _rows, "total_self": me, "total_children": kids}, f)


def main(prefix: str, top: int = 30) -> None:
    rows: list[list[Any]] = []
    total = 0.0
    for path in glob.glob(prefix + ".*.json"):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        rows += data["rows"]
        total += data["total_self"] + data["total_children"]
    rows = [[*r, 0.0] if len(r) == 4 else r for r in rows]  # files from before the wait column
    rows.sort(key=lambda r: -(r[1] + r[2]))
    waits = sum(r[4] for r in rows)
    print(
        f"{len(rows)} tests, workers' CPU {total:.0f} s (tests {sum(r[1] + r[2] for r in rows):.0f} s), waits {waits:.0f} s"
    )
    for nodeid, me, kids, wall, wait in rows[:top]:
        print(
            f"{me + kids:7.1f} s CPU ({me:5.1f} + children {kids:5.1f})  wall {wall:6.1f}  wait {wait:5.1f}  {nodeid}"
        )
    print("longest waits:")
    for nodeid, me, kids, wall, wait in sorted(rows, key=lambda r: -r[4])[:top]:
        print(f"{wait:7.1f} s wait  {me + kids:5.1f} s CPU  wall {wall:6.1f}  {nodeid}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30)
