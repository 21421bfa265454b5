"""Where the MCP server's memory grows: tracemalloc snapshots diffed over time (off by default).

A server that runs for days must stay flat at a constant store size; when its RSS climbs,
this says which lines of code hold the growth. ``MEMSEARCH_TUI_MCP_HEAP=FILE`` (or
``FILE,SECONDS``: 5 s to 1 h, default 60) makes the server trace its allocations (8 frames
each); after SECONDS of warm-up a first snapshot is the baseline, and every SECONDS after
that FILE is rewritten (atomically) with the allocation sites that grew most since the
baseline, largest first. Tracing slows every allocation, so it is a debugging aid for
``benchmarks/soak.py``, never on in normal use; unset, nothing here runs or is imported
by the request path.
"""

from __future__ import annotations

import os
import threading
import time
import tracemalloc
from pathlib import Path

from memsearch_tui.engine.api.files import atomic_write_text

HEAP_ENV = "MEMSEARCH_TUI_MCP_HEAP"
DEFAULT_SECONDS = 60.0
FRAMES = 8
TOP = 25


def settings(value: str | None = None) -> tuple[Path, float] | None:
    """(report file, interval) from ``$MEMSEARCH_TUI_MCP_HEAP``; None when unset or empty."""
    raw = (os.environ.get(HEAP_ENV, "") if value is None else value).strip()
    if not raw:
        return None
    path, _, seconds = raw.partition(",")
    try:
        every = float(seconds) if seconds else DEFAULT_SECONDS
    except ValueError:
        every = DEFAULT_SECONDS
    return Path(path).expanduser(), min(3600.0, max(5.0, every))


def start(value: str | None = None) -> threading.Thread | None:
    """Start tracing and the reporting thread when the variable asks for it."""
    wanted = settings(value)
    if wanted is None:
        return None
    tracemalloc.start(FRAMES)
    thread = threading.Thread(target=_watch, args=wanted, name="memsearch-heap", daemon=True)
    thread.start()
    return thread


def _watch(path: Path, every: float) -> None:
    time.sleep(every)
    base = _snapshot()
    started = time.monotonic()
    while True:
        time.sleep(every)
        try:
            atomic_write_text(path, report(base, _snapshot(), time.monotonic() - started))
        except OSError:
            return  # the report file cannot be written: stop tracing quietly (a debug aid)


def _snapshot() -> tracemalloc.Snapshot:
    """The live allocations (unfiltered: filtering a million traces in Python held the GIL
    for seconds; :func:`report` leaves tracemalloc's own out of what it prints)."""
    return tracemalloc.take_snapshot()


def report(base: tracemalloc.Snapshot, now: tracemalloc.Snapshot, seconds: float) -> str:
    """The allocation sites (by traceback) that grew most from ``base`` to ``now``, as text."""
    diffs = now.compare_to(base, "traceback")
    grown = sum(d.size_diff for d in diffs)
    traced, peak = tracemalloc.get_traced_memory()
    lines = [
        f"heap growth over {seconds:.0f} s since the baseline: {grown / 1e6:+.2f} MB "
        f"(traced now {traced / 1e6:.1f} MB, peak {peak / 1e6:.1f} MB)",
        "",
    ]
    shown = 0
    for d in sorted(diffs, key=lambda d: d.size_diff, reverse=True):
        if d.size_diff <= 0 or shown >= TOP:
            break
        if any(frame.filename == tracemalloc.__file__ for frame in d.traceback):
            continue
        shown += 1
        lines.append(f"{d.size_diff / 1e3:+10.1f} kB  {d.count_diff:+7d} blocks  (now {d.size / 1e3:.1f} kB)")
        lines += [f"      {frame.filename}:{frame.lineno}" for frame in reversed(d.traceback)]
    return "\n".join(lines) + "\n"
