"""CPU to the app's first frame at 100k entries, beside a bare Textual app (issue 37 item 5).

    python benchmarks/first_frame_cpu.py CORPUS [--runs 5] [--old-src DIR]

``CORPUS`` is a folder with ``memory/`` and ``project/`` (``tui_bench.py --keep DIR`` makes
``DIR/c100000``). Each run starts fresh processes in turn: the bare app (Header, Static,
Footer), this tree's app and, with ``--old-src``, the app from another checkout (a
``git worktree add`` of the base commit; its modules compiled first, as ``PYTHONDONTWRITEBYTECODE``
would make it compile them at every start). Each process stops at the first frame as
``tui_bench.py`` measures it; each app's modules come from its own tree (``PYTHONPATH``) (the Index's tree filled, then ``pilot.pause(0)``) and reports
its CPU (user + sys of every thread), the UI thread's CPU, and the wall time. On a loaded
machine the wall means little; CPU and its ratio to the bare app's are what hold.
Prints the medians, the median of each run's ratio to the bare app of the same run
("paired"), and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

PY = sys.executable

PROBE = textwrap.dedent(r"""
    import time; T0 = time.perf_counter(); C0 = time.process_time()
    import asyncio, json, sys
    from pathlib import Path

    def mark():
        return {"wall": time.perf_counter() - T0, "cpu": time.process_time() - C0, "ui": time.thread_time()}

    async def main():
        if sys.argv[1] == "bare":
            from textual.app import App
            from textual.widgets import Footer, Header, Static

            class Bare(App):
                def compose(self):
                    yield Header(); yield Static("hello"); yield Footer()

            async with Bare().run_test(size=(120, 40)) as pilot:
                await pilot.pause(0)
                return mark()
        from memsearch_tui.tui.app import MemsearchApp
        app = MemsearchApp(Path(sys.argv[1]), Path(sys.argv[2]), watch_files=False, remember_theme=False)
        async with app.run_test(size=(120, 40)) as pilot:
            tree = app.query_one("#index-tree")
            while not tree.root.children:
                await pilot.pause(0.002)
            await pilot.pause(0)
            return mark()

    print(json.dumps(asyncio.run(main())))
""")


def probe(args: list[str], src: Path | None) -> dict[str, float]:
    env = {**os.environ, "MEMSEARCH_TUI_CONFIG_DIR": tempfile.mkdtemp(prefix="first-frame-conf-")}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    out = subprocess.run([PY, "-c", PROBE, *args], capture_output=True, text=True, env=env, timeout=600, cwd="/")
    if out.returncode != 0:
        raise SystemExit(f"probe failed ({src or 'this tree'}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path, help="a folder with memory/ and project/")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--old-src", type=Path, help="another checkout's root, measured beside this one")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent.parent
    trees = {"this tree": here}
    if args.old_src:
        trees = {f"old ({args.old_src})": args.old_src.resolve(), **trees}
    for src in trees.values():
        subprocess.run([PY, "-m", "compileall", "-q", str(src / "memsearch_tui")], check=True, capture_output=True)
    app_args = [str(args.corpus / "memory"), str(args.corpus / "project")]
    load = os.getloadavg()
    runs: dict[str, list[dict[str, float]]] = {"bare Textual app": [], **{k: [] for k in trees}}
    for _ in range(args.runs):
        runs["bare Textual app"].append(probe(["bare"], None))
        for label, src in trees.items():
            runs[label].append(probe(app_args, src))
    bare = statistics.median(r["cpu"] for r in runs["bare Textual app"])
    print(f"median of {args.runs} fresh processes each, 120x40 headless, to the first frame\n")
    # each run's ratio to the bare app started just before it: on a loaded machine the load
    # moves between runs more than between the processes of one run
    paired = {
        label: statistics.median(r["cpu"] / b["cpu"] for r, b in zip(rs, runs["bare Textual app"], strict=True))
        for label, rs in runs.items()
    }
    print("| app | CPU | vs bare | vs bare, paired | UI thread CPU | wall |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, rs in runs.items():
        cpu = statistics.median(r["cpu"] for r in rs)
        ui = statistics.median(r["ui"] for r in rs)
        wall = statistics.median(r["wall"] for r in rs)
        print(
            f"| {label} | {cpu * 1000:.0f} ms | {cpu / bare:.2f}× | {paired[label]:.2f}× | {ui * 1000:.0f} ms | "
            f"{wall * 1000:.0f} ms |"
        )
    after = os.getloadavg()
    print(
        f"\nload average before {' '.join(f'{x:.1f}' for x in load)}, after {' '.join(f'{x:.1f}' for x in after)} "
        f"({os.cpu_count()} cores shared); the UI thread's CPU counts from the interpreter's start"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
