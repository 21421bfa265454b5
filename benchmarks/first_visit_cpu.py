"""First visits of the Maintenance (5) and Notes (7) keys, wall and CPU (issue 37 item 5).

    python benchmarks/first_visit_cpu.py ROOT PROJECT      → one JSON line

One fresh app (as ``tui_keys.py --first --only "5,7"``: the keys pressed in order once the
start-up workers are done, each key's frames timed by ``tui_keys.Frames``): for each key,
``shown`` (key → the first frame after the pane's first ``apply``, tui_keys' "data shown"),
``last`` (its last frame) and ``cpu_shown``: the process's CPU seconds (every thread) from
the key to that frame. On a loaded machine the wall times follow the load; the CPU is the
steadier number. Run it alternately against two trees (``PYTHONPATH``) and compare medians.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import tui_keys

KEYS = (("5", "maintenance"), ("7", "notes"))


async def visits(root: Path, project: Path) -> dict[str, dict[str, float]]:
    from textual.widgets import Input

    from memsearch_tui.tui.app import MemsearchApp

    Input._toggle_cursor = lambda self: None  # type: ignore[method-assign]  # no blink
    app = MemsearchApp(root, project, watch_files=False, remember_theme=False)
    out: dict[str, dict[str, float]] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        while any(w.is_running and w.group != "watch" for w in app.workers):
            await pilot.pause(0.01)
        await pilot.wait_for_scheduled_animations()
        frames = tui_keys.Frames(app)
        for key, pid in KEYS:
            check = tui_keys.shows_data(app, pid)
            cpu_at: dict[str, float] = {}

            def seen(check: Any = check, cpu_at: dict[str, float] = cpu_at) -> bool:
                ok = bool(check())
                if ok and "t" not in cpu_at:
                    cpu_at["t"] = time.process_time()
                return ok

            step = tui_keys.Step(pid, (key,), lambda p=pid: app.query_one("#tabs").active == p, ("1",), seen=seen)
            start = time.process_time()
            await tui_keys.timed(app, frames, step)
            out[pid] = {
                "shown": step.seen_times[0],
                "last": step.times[0],
                "cpu_shown": (cpu_at["t"] - start) * 1000,
            }
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(visits(Path(sys.argv[1]), Path(sys.argv[2])))))
