"""Per-key latency of the app (issue 21, item 6): every key from press to done, median of N.

    python benchmarks/tui_keys.py [--runs 7]      (also: python benchmarks/tui_bench.py --keys)

Seeds the demo memory in a temp dir and drives the real app headless (Pilot, 120x40).
"Done" is: the key's own result is on screen (a modal mounted and its list drawn, a pane's
data applied) and no worker but the file watcher runs, then one more refresh. The
``floor`` row is that same wait with no key pressed: what the measurement itself costs on
this machine (subtract it to compare with a real terminal). Prints a Markdown table and
the load average before and after (the machine is shared: quote both).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_MS = 300
WAIT_LIMIT = 20.0  # seconds: a key whose result never shows is a bug, not a slow key


async def idle(pilot: Any, app: Any) -> None:
    """No worker but the watcher, animations done, one refresh."""
    while any(w.is_running and w.group != "watch" for w in app.workers):
        await pilot.pause(0.002)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def timed(pilot: Any, app: Any, keys: tuple[str, ...], until: Callable[[], bool] | None = None) -> float:
    t = time.perf_counter()
    if keys:
        await pilot.press(*keys)
    while until is not None and not until():
        if time.perf_counter() - t > WAIT_LIMIT:
            raise SystemExit(f"{keys}: what the key should show never came ({WAIT_LIMIT:.0f} s)")
        await pilot.pause(0.002)
    await idle(pilot, app)
    return (time.perf_counter() - t) * 1000


def actions(app: Any) -> list[tuple[str, tuple[str, ...], Callable[[], bool] | None, tuple[str, ...]]]:
    """(name, keys, done-when, keys that undo the state afterwards)."""
    from memsearch_tui.tui.modals import HelpScreen, UndoModal

    def modal(cls: type, drawn: str | None = None) -> Callable[[], bool]:
        def check() -> bool:
            s = app.screen
            return isinstance(s, cls) and (drawn is None or bool(getattr(s, drawn)))

        return check

    steps: list[tuple[str, tuple[str, ...], Callable[[], bool] | None, tuple[str, ...]]] = [
        ("floor (no key)", (), None, ()),
    ]
    for key, pid in (("2", "journal"), ("3", "versions"), ("4", "trash"), ("5", "maintenance"), ("6", "search"),
                     ("7", "notes"), ("0", "overview")):  # fmt: skip
        back = ("escape", "1") if pid == "search" else ("1",)  # 6 lands in the (empty) query box: Esc leaves it
        steps.append((f"{key} ({pid})", (key,), lambda p=pid: app.query_one("#tabs").active == p, back))
    steps += [
        ("j (Index tree)", ("j",), None, ("k",)),
        ("ctrl+t (theme)", ("ctrl+t",), None, ()),
        ("u (undo history)", ("u",), modal(UndoModal, "records"), ("escape",)),
        ("? (help)", ("question_mark",), modal(HelpScreen), ("escape",)),
        ("ctrl+p (palette)", ("ctrl+p",), lambda: app.screen.__class__.__name__ == "CommandPalette", ("escape",)),
        (
            "/ then a letter (search box)",
            ("slash", "e"),
            lambda: app.query_one("#search-input").value == "e",
            ("escape", "escape", "1"),
        ),  # fmt: skip
    ]
    return steps


async def run(root: Path, project: Path, runs: int) -> dict[str, list[float]]:
    from memsearch_tui.tui.app import MemsearchApp

    app = MemsearchApp(root, project, watch_files=False, remember_theme=False)
    out: dict[str, list[float]] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await idle(pilot, app)
        for pid in ("journal", "versions", "trash", "maintenance", "search", "notes", "overview", "index"):
            app.action_switch_pane(pid)  # first visits (each pane's first load) are not what is timed
            await idle(pilot, app)
        for name, keys, until, back in actions(app):
            print(f"timing {name}…", file=sys.stderr, flush=True)
            for _ in range(runs):
                out.setdefault(name, []).append(await timed(pilot, app, keys, until))
                if back:
                    await pilot.press(*back)
                    await idle(pilot, app)
    return out


def table(results: dict[str, list[float]], runs: int, load: tuple[tuple[float, ...], tuple[float, ...]]) -> str:
    lines = [
        f"median of {runs} presses each, demo memory, 120x40 headless; load average "
        f"{' '.join(f'{x:.2f}' for x in load[0])} before, {' '.join(f'{x:.2f}' for x in load[1])} after "
        f"on {os.cpu_count()} cores\n",
        "| key (action) | median | min | max | ≤ 300 ms |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, xs in results.items():
        med = statistics.median(xs)
        lines.append(
            f"| {name} | {med:.0f} ms | {min(xs):.0f} ms | {max(xs):.0f} ms | {'yes' if med <= TARGET_MS else 'no'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="tui-keys-"))
    os.environ.setdefault("MEMSEARCH_TUI_CONFIG_DIR", str(tmp / "config"))
    from memsearch_tui.demo import DEMO_NOW, seed

    os.environ.setdefault("MEMSEARCH_TUI_NOW", DEMO_NOW)
    root, project, _notes = seed(tmp / "demo")
    before = os.getloadavg()
    results = asyncio.run(run(root, project, args.runs))
    print(table(results, args.runs, (before, os.getloadavg())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
