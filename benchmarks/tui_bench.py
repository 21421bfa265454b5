"""TUI scale benchmark: first paint, expanding a 5k-entry category, journals, RSS.

    python benchmarks/tui_bench.py [--runs 5] [--big 100000] [--keep DIR]
    python benchmarks/tui_bench.py --keys [--runs 7]   (each key's latency: tui_keys.py)

Corpora come from the lead's generator (``benchmarks/gen_corpus.py``): 10k entries with a
5k-entry category and 365 journal days, and 100k entries. Each measurement runs in a fresh
Python process (imports included, as a user would wait for them) driving the real app
headless with Textual's Pilot at 120x40. Anchors, measured in the same run:

* first paint: a bare Textual app (Header + Static + Footer) painting its first frame;
* expand: a Textual ``Tree`` given all 5k leaves at once (what a naive pane would do).

Targets (issue 14): 10k first paint ≤ 1 s, 100k first paint ≤ 2 s, RSS ≤ 250 MB at 100k
(issue 6's expand 5k ≤ 300 ms still holds). The expand is timed twice: right after the first
paint, while the full model still loads in a worker (sharing the interpreter), and again
once it has loaded. Then every pane key's first visit (issue 37: each ≤ 300 ms at 100k), from
the key handed to the app (as a terminal's input thread does: no Pilot wait) to the first frame
that shows the pane's data (its first ``apply``; tui_keys.Frames notes each frame the app
writes), and to the end of the pane's load (the Overview: the catalog re-checked, conflicts);
the conflict-badge worker is finished before RSS is read (``ru_maxrss``: the peak over the
whole run, so a transient start-up peak counts). The bare app and the corpora are
probed in turn within each run (``--runs``), so a load that changes meanwhile weighs on both:
on a busy machine quote the ratios to the bare app. Prints Markdown tables (medians).

    python benchmarks/tui_bench.py --runs 5 --no-10k --keep DIR   (only the 100k corpus)
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

HERE = Path(__file__).resolve().parent
PY = sys.executable

PROBE = textwrap.dedent(r"""
    import time; T0 = time.perf_counter()
    import asyncio, json, resource, sys
    from pathlib import Path
    root, project, mode, BENCH = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    KEYS = json.loads(sys.argv[5])
    out = {}

    async def main():
        if mode == "anchor":
            from textual.app import App
            from textual.widgets import Footer, Header, Static, Tree
            class Bare(App):
                def compose(self):
                    yield Header(); yield Static("hello"); yield Footer()
            app = Bare()
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause(0)
                out["first_paint"] = time.perf_counter() - T0
                rows = [f"entry {i}" for i in range(5000)]
                tree = Tree("x")
                await app.mount(tree)
                t = time.perf_counter()
                for r in rows:
                    tree.root.add_leaf(r)
                tree.root.expand()
                await pilot.pause(0)
                out["expand"] = time.perf_counter() - t
            out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            return
        from memsearch_tui.tui.app import MemsearchApp
        from memsearch_tui.tui.panes.index.pane import IndexPane
        app = MemsearchApp(root, project, watch_files=False, remember_theme=False)
        async with app.run_test(size=(120, 40)) as pilot:
            pane = app.query_one(IndexPane)
            tree = app.query_one("#index-tree")
            while not tree.root.children and not pane.model.error:
                await pilot.pause(0.002)
            await pilot.pause(0)
            out["first_paint"] = time.perf_counter() - T0
            out["partial"] = pane.model.partial
            # expand the 5k category right away (before the full model lands, as a user would)
            big = "inbox"
            t = time.perf_counter()
            node = pane.tree.find_cat(big, expand=True)
            node.expand()
            pane.tree.populate(node)
            await pilot.pause(0)
            out["expand"] = time.perf_counter() - t
            out["rows_drawn"] = len(node.children)
            while pane.model.partial:  # the catalog re-checked against the disk, counts redrawn
                await pilot.pause(0.005)
            out["all_loaded"] = time.perf_counter() - T0
            # the same expand once the background load is over (a user a second later)
            await pilot.pause(0.05)
            node = pane.tree.find_cat(big, expand=True)
            node.remove_children()
            node.data.filled = False
            t = time.perf_counter()
            pane.tree.populate(node)
            node.expand()
            await pilot.pause(0)
            out["expand_idle"] = time.perf_counter() - t
            out["entries"] = pane.model.total
            out["big_category"] = big
            out["big_size"] = len(pane.model.rows(big))
            # every pane key, first visit: key to the first frame that shows the pane's data
            # (its first ``apply``), timed by the frames the app writes (tui_keys.Frames:
            # no Pilot wait, no tab-underline slide in the number); then its load's end
            sys.path.insert(0, BENCH)
            from tui_keys import Frames, send
            from memsearch_tui.tui.panes.base import Pane
            frames = Frames(app)
            tabs = app.query_one("#tabs")
            for key, pid in KEYS:
                # the pane is made by its key (a pane first shown is imported and mounted then):
                # looked up only once its tab is the active one, so the probe makes none itself
                def shown(pid=pid):
                    if tabs.active != pid:
                        return False
                    p = app.pane(pid)
                    loads = type(p).load is not Pane.load  # the Search pane has nothing to load
                    return p.is_mounted and (p._data is not None or not loads)
                frames.seen = shown
                frames.seen_at = None
                t = time.perf_counter()
                send(app, key)
                while frames.seen_at is None and time.perf_counter() - t < 300:
                    await asyncio.sleep(0.002)
                out[f"key {key}"] = (frames.seen_at or time.perf_counter()) - t
                while any(w.is_running and w.group == f"load-{pid}" for w in app.workers):
                    await asyncio.sleep(0.005)
                out[f"key {key} loaded"] = time.perf_counter() - t
                if pid == "search":
                    send(app, "escape")  # 6 lands in the query box: Esc leaves it
                await pilot.pause(0.05)
            out["days"] = len(app.query_one("#journal-tree").root.children)
            out["overview_lines"] = app.query_one("#overview-list").option_count
            # conflict badges (a worker after start-up): wait for it so RSS includes it
            while any(w.is_running and w.group == "badges" for w in app.workers):
                await pilot.pause(0.01)
        out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    asyncio.run(main())
    print(json.dumps(out))
""")


def gen(out: Path, entries: int, days: int, big: int) -> Path:
    if not (out / "memory" / "INDEX.md").exists():
        subprocess.run(
            [
                PY,
                str(HERE / "gen_corpus.py"),
                "--entries",
                str(entries),
                "--days",
                str(days),
                "--big-category",
                str(big),
                str(out),
            ],
            check=True,
        )
    return out


def probe(corpus: Path | None, mode: str) -> dict:
    root = corpus / "memory" if corpus else Path("/nonexistent")
    project = corpus / "project" if corpus else Path("/nonexistent")
    env = {**os.environ, "MEMSEARCH_TUI_CONFIG_DIR": tempfile.mkdtemp(prefix="tui-bench-conf-")}
    res = subprocess.run(
        [PY, "-c", PROBE, str(root), str(project), mode, str(HERE), json.dumps(KEY_NAMES)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    if res.returncode != 0:
        raise SystemExit(f"probe failed ({mode}, {corpus}):\n{res.stderr[-3000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


KEY_NAMES = [("2", "journal"), ("3", "versions"), ("4", "trash"), ("5", "maintenance"), ("6", "search"),
             ("7", "notes"), ("0", "overview"), ("1", "index")]  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--big", type=int, default=100_000, help="entries of the large corpus (0 skips it)")
    ap.add_argument("--no-10k", action="store_true", help="only the large corpus (and the bare app)")
    ap.add_argument("--keep", type=Path, help="generate corpora here and keep them between runs")
    ap.add_argument("--keys", action="store_true", help="time every key on the demo instead (tui_keys.py)")
    args = ap.parse_args()
    if args.keys:
        sys.path.insert(0, str(HERE))
        from tui_keys import main as keys_main

        return keys_main(["--runs", str(args.runs)])
    base = args.keep or Path(tempfile.mkdtemp(prefix="tui-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    corpora = [] if args.no_10k else [("10k entries, 365 days", gen(base / "c10k", 10_000, 365, 5_000))]
    if args.big:
        corpora.append((f"{args.big // 1000}k entries, 30 days", gen(base / f"c{args.big}", args.big, 30, 5_000)))
    load_before = os.getloadavg()
    for _label, corpus in corpora:  # warm the catalog cache once (the first open after generation builds it)
        probe(corpus, "app")
    # interleaved (bare app, then each corpus, per run): a load that changes during the run
    # weighs on the anchor and the app alike, so the ratios hold
    anchor: list[dict] = []
    runs_of: dict[str, list[dict]] = {label: [] for label, _ in corpora}
    for _ in range(args.runs):
        anchor.append(probe(None, "anchor"))
        for label, corpus in corpora:
            runs_of[label].append(probe(corpus, "app"))
    rows = [(label, runs_of[label]) for label, _ in corpora]
    a_paint, a_expand = median(anchor, "first_paint"), median(anchor, "expand")
    print(f"median of {args.runs} fresh processes each; terminal 120x40 headless\n")
    print(
        "| corpus | first paint | vs bare Textual app | catalog re-checked | expand 5k category | "
        "vs naive 5k Tree | expand once loaded | RSS |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(
        f"| anchor: bare Textual app / naive Tree | {a_paint * 1000:.0f} ms | 1.00× | — | "
        f"{a_expand * 1000:.0f} ms | 1.00× | — | {median(anchor, 'rss_mb'):.0f} MB |"
    )
    for label, runs in rows:
        paint, expand = median(runs, "first_paint"), median(runs, "expand")
        rss = max(r["rss_mb"] for r in runs)
        print(
            f"| {label} ({runs[0]['entries']} entries; {runs[0]['big_size']} in {runs[0]['big_category']}, "
            f"{runs[0]['rows_drawn']} rows built) | {paint * 1000:.0f} ms | {paint / a_paint:.2f}× | "
            f"{median(runs, 'all_loaded') * 1000:.0f} ms | "
            f"{expand * 1000:.1f} ms | {expand / a_expand:.2f}× | {median(runs, 'expand_idle') * 1000:.1f} ms | "
            f"{rss:.0f} MB ({rss / median(anchor, 'rss_mb'):.1f}×) |"
        )
    print(
        "\nEach pane key, first visit (after the start-up check of the catalog): key to the first frame "
        "showing the pane's data / to the end of its load (the Overview: forecast and conflicts re-checked)\n"
    )
    print("| corpus | " + " | ".join(f"{k} {pid}" for k, pid in KEY_NAMES) + " |")
    print("| --- " * (len(KEY_NAMES) + 1) + "|")
    for label, runs in rows:
        cells = [
            f"{median(runs, f'key {k}') * 1000:.0f} / {median(runs, f'key {k} loaded') * 1000:.0f} ms"
            for k, _ in KEY_NAMES
        ]
        print(f"| {label} ({runs[0]['days']} days) | " + " | ".join(cells) + " |")
    print("\ntargets (issue 14): first paint ≤ 1000 ms (10k), ≤ 2000 ms (100k); RSS ≤ 250 MB (100k)")
    print("targets (issue 37): every pane key ≤ 300 ms, first paint ≤ 2× bare, RSS ≤ 150 MB (100k)")
    after = os.getloadavg()
    print(
        f"load average (1, 5, 15 min) before {' '.join(f'{x:.1f}' for x in load_before)}, "
        f"after {' '.join(f'{x:.1f}' for x in after)} (the {os.cpu_count()} cores are shared)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
