"""A pane's first key pressed around the moment the app makes its other panes ahead (issue 37 item 5).

    python benchmarks/tui_keys_ahead.py [--root R --project P] [--key 0] [--runs 4]
        [--offsets 1.8,2.0,2.05,2.1,2.2,2.4,2.8] [--old-src DIR]

About ``PANES_AHEAD_DELAY`` (2 s) after its mount the app makes the panes not shown yet, while
idle (``MemsearchApp.make_panes_ahead``). A key pressed just then waited for all seven (the
Overview's first visit at 10,000 journal days was bimodal: ~200–320 or ~460–520 ms). This
bench presses one pane key (``--key``, the Overview's ``0`` by default: the last pane the chain
makes, so the chain has not made it yet) once per fresh process, ``offset`` seconds after the
app's ``on_mount``, and times it as ``tui_keys.py --first`` does: the key handed to the app as
a terminal's input thread does, "data shown" = the first frame after the pane's first
``apply``, "all its draws" = the first frame after its last ``apply`` (the Overview draws three
times: quick, forecast, conflicts); the last frame before ``QUIET`` s of nothing is in
``--json`` only (the panes made ahead after the key draw frames too). Each process
also notes which panes were made between the key and the data shown (the work the key waited
behind) and the UI thread's CPU from the key to the data shown (what a loaded machine's wall
times hide: the work the key waited for). With ``--old-src``, every run is made with that tree's app too, the two alternated
(its modules first on ``sys.path``): quote the two side by side, not alone (a loaded machine).
Seeds the demo memory in a temp dir unless ``--root``/``--project`` name a memory.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = os.environ.get("TUI_KEYS_SRC")  # the tree whose app a child process drives
sys.path.insert(0, str(HERE))
import tui_keys  # noqa: E402  (puts this tree first on sys.path)

if SRC:
    sys.path.insert(0, SRC)  # before this tree: that tree's memsearch_tui is imported

PIDS = {"2": "journal", "3": "versions", "4": "trash", "5": "maintenance", "6": "search", "7": "notes", "0": "overview"}


async def once(root: Path, project: Path, key: str, offset: float) -> dict[str, Any]:
    """One fresh app: ``key`` sent ``offset`` s after its ``on_mount``; its times and the panes made."""
    from textual.widgets import Input

    from memsearch_tui.tui.app import MemsearchApp
    from memsearch_tui.tui.panes.base import Pane

    Input._toggle_cursor = lambda self: None  # type: ignore[method-assign]  # no blink frames
    marks: dict[str, float] = {}
    made: list[tuple[float, str]] = []
    applied: list[float] = []  # when the key's pane applied an answer (its first draw and the follow-ups)
    real_mount, real_made, real_apply = MemsearchApp.on_mount, MemsearchApp._made, Pane._apply_guarded

    def on_mount(self: Any) -> None:
        marks["mount"] = time.perf_counter()
        real_mount(self)

    def _made(self: Any, pid: str) -> Any:
        pane = real_made(self, pid)
        made.append((time.perf_counter(), pid))
        return pane

    pid = PIDS[key]

    def _apply_guarded(self: Any, data: Any) -> None:
        real_apply(self, data)
        if self.pane_id == pid:
            applied.append(time.perf_counter())

    MemsearchApp.on_mount = on_mount  # type: ignore[method-assign]
    MemsearchApp._made = _made  # type: ignore[method-assign]
    Pane._apply_guarded = _apply_guarded  # type: ignore[method-assign]
    app = MemsearchApp(root, project, watch_files=False, remember_theme=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        frames = tui_keys.Frames(app)
        at = marks["mount"] + offset
        late = time.perf_counter() - at
        while time.perf_counter() < at:
            await asyncio.sleep(min(0.005, max(at - time.perf_counter(), 0)))
        check, cpu = tui_keys.shows_data(app, pid), [0.0]

        def seen() -> bool:  # called by the frame hook on the UI thread: its CPU when the data shows
            if check():
                cpu[0] = time.thread_time()
                return True
            return False

        frames.seen = seen
        c = time.thread_time()
        t = time.perf_counter()
        tui_keys.send(app, key)
        await tui_keys.settle(app, frames, t, lambda: app.query_one("#tabs").active == pid)
        shown = frames.seen_at or t
        last = frames.last(t, underline=False) or t
        complete = frames.first(applied[-1]) if applied else None
        await app.action_quit()
    return {
        "data shown": (shown - t) * 1000,
        "last frame": (last - t) * 1000,  # panes made ahead after the key's work count too (their frames)
        "all drawn": ((complete or last) - t) * 1000,  # the frame after the key's pane's last answer
        "ui cpu": (cpu[0] - c) * 1000 if cpu[0] else None,  # the UI thread's CPU, key to data shown
        "late": max(late, 0) * 1000,  # the first frame came after the offset: the key was sent late
        "made before": [p for w, p in made if w < t and p != "index"],
        "made while waited": [p for w, p in made if t <= w <= shown and p != pid],
    }


def run_child(src: Path, args: argparse.Namespace, offset: float) -> dict[str, Any]:
    out = Path(tempfile.mkdtemp(prefix="tui-keys-ahead-")) / "once.json"
    cmd = [sys.executable, __file__, "--once", str(offset), "--json", str(out), "--key", args.key]
    cmd += ["--root", str(args.root), "--project", str(args.project)]
    env = {**os.environ, "TUI_KEYS_SRC": str(src), "PYTHONPATH": str(src)}
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env, cwd=src)
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    out.unlink()
    out.parent.rmdir()
    return result


def table(results: dict[str, dict[float, list[dict[str, Any]]]], key: str) -> str:
    trees = list(results)
    head = "| offset after mount | " + " | ".join(
        f"{t}: data shown, median (max) | {t}: all its draws, median (max) | {t}: UI-thread CPU to data shown, median "
        f"| {t}: panes made while the key waited"
        for t in trees
    )
    lines = [head + " |", "| --- |" + " --- | --- | --- | --- |" * len(trees)]
    for offset in results[trees[0]]:
        cells = [f"{offset:.2f} s"]
        for t in trees:
            rs = results[t][offset]
            shown, last = [r["data shown"] for r in rs], [r["all drawn"] for r in rs]
            waited = [len(r["made while waited"]) for r in rs]
            cells += [
                f"{statistics.median(shown):.0f} ({max(shown):.0f}) ms",
                f"{statistics.median(last):.0f} ({max(last):.0f}) ms",
                f"{statistics.median([r['ui cpu'] or 0 for r in rs]):.0f} ms",
                " ".join(str(n) for n in waited),
            ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path)
    ap.add_argument("--project", type=Path)
    ap.add_argument("--key", default="0", choices=sorted(PIDS))
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--offsets", default="1.8,2.0,2.05,2.1,2.2,2.4,2.8", help="seconds after on_mount")
    ap.add_argument("--old-src", type=Path, help="another checkout's root, run beside this one")
    ap.add_argument("--json", type=Path, help="every run's numbers here")
    ap.add_argument("--once", type=float, help=argparse.SUPPRESS)  # a child: one run at this offset
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="tui-keys-ahead-"))
    os.environ.setdefault("MEMSEARCH_TUI_CONFIG_DIR", str(tmp / "config"))
    if args.root is None or args.project is None:
        from memsearch_tui.demo import DEMO_NOW, seed

        os.environ.setdefault("MEMSEARCH_TUI_NOW", DEMO_NOW)
        args.root, args.project, _notes = seed(tmp / "demo")
    if args.once is not None:
        result = asyncio.run(once(args.root, args.project, args.key, args.once))
        args.json.write_text(json.dumps(result), encoding="utf-8")
        return 0
    trees = {"this tree": HERE.parent}
    if args.old_src:
        trees = {"old": args.old_src.resolve(), **trees}
    offsets = [float(x) for x in args.offsets.split(",")]
    results: dict[str, dict[float, list[dict[str, Any]]]] = {t: {o: [] for o in offsets} for t in trees}
    before = os.getloadavg()
    for r in range(args.runs):
        for offset in offsets:
            for name, src in trees.items():
                print(f"run {r + 1}/{args.runs} offset {offset} {name}…", file=sys.stderr, flush=True)
                results[name][offset].append(run_child(src, args, offset))
    load = (before, os.getloadavg())
    print(
        f"key {args.key} ({PIDS[args.key]}), its first visit, {args.runs} fresh processes per cell, "
        f"{args.root}; load average {' '.join(f'{x:.2f}' for x in load[0])} before, "
        f"{' '.join(f'{x:.2f}' for x in load[1])} after on {os.cpu_count()} cores\n"
    )
    print(table(results, args.key))
    if args.json:
        args.json.write_text(json.dumps({t: {str(o): v for o, v in r.items()} for t, r in results.items()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
