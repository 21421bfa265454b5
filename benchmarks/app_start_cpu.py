"""CPU of one Pilot app start, as the TUI tests pay it (issue 32: ~250 app starts in the suite).

    python benchmarks/app_start_cpu.py [--starts 20] [--demo DIR]

Seeds the demo memory once (``memsearch_tui.demo``), then in one process starts the app on it
with ``run_test`` ``--starts`` times, each until the Index's first frame and the first load
settled (no worker running), as ``tests.helpers.settle`` waits, then closes it. Prints the
CPU (user + sys) of the first start (imports included) and the median of the others (a
test in a warm xdist worker), with the load average: CPU, not wall, is the figure that
holds on a loaded machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def one_start(root: Path, project: Path) -> None:
    from memsearch_tui.tui.app import MemsearchApp

    app = MemsearchApp(root, project, watch_files=False, remember_theme=False, prepare_index=False)
    async with app.run_test(size=(120, 36)) as pilot:
        tree = app.query_one("#index-tree")
        while not tree.root.children:
            await pilot.pause(0.01)
        while any(w.is_running and w.group != "watch" for w in app.workers):
            await pilot.pause(0.02)
        await pilot.pause()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--starts", type=int, default=20)
    ap.add_argument("--demo", type=Path, help="seed the demo here (kept); default: a temp dir")
    args = ap.parse_args()
    base = args.demo or Path(tempfile.mkdtemp(prefix="app-start-"))
    if not (base / "memory").exists():
        subprocess.run([sys.executable, "-m", "memsearch_tui.demo", str(base)], check=True, capture_output=True)
    os.environ.setdefault("MEMSEARCH_TUI_CONFIG_DIR", tempfile.mkdtemp(prefix="app-start-conf-"))
    load = os.getloadavg()
    times = []
    for _ in range(args.starts):
        t = cpu()
        asyncio.run(one_start(base / "memory", base / "project"))
        times.append(cpu() - t)
    rest = times[1:] or times
    print(
        f"{args.starts} app starts on the demo: first {times[0] * 1000:.0f} ms CPU (imports included), "
        f"then median {statistics.median(rest) * 1000:.0f} ms CPU (min {min(rest) * 1000:.0f}, "
        f"max {max(rest) * 1000:.0f}); load average before {' '.join(f'{x:.1f}' for x in load)}, "
        f"after {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores shared)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
