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
once it has loaded. Also timed: the Overview pane (0) from key to
filled, with the conflict-badge worker finished before RSS is read. On a busy machine
quote the ratios to the bare app. Prints a Markdown table (medians of ``--runs``).
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
    root, project, mode = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
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
            t = time.perf_counter()
            await pilot.press("2")
            tree = app.query_one("#journal-tree")
            while not tree.root.children:
                await pilot.pause(0.005)
            out["journal"] = time.perf_counter() - t
            out["days"] = len(tree.root.children)
            # the Overview pane (0): stats, 30-day lifecycle forecast, conflicts, proposals
            t = time.perf_counter()
            await pilot.press("0")
            ov = app.query_one("#pane-overview")
            lst = app.query_one("#overview-list")
            while not lst.option_count:  # its first draw: everything but the slow reads
                await pilot.pause(0.005)
            await pilot.pause(0)
            out["overview_drawn"] = time.perf_counter() - t
            while not ov.loaded or any(w.is_running and w.group == "load-overview" for w in app.workers):
                await pilot.pause(0.005)
            await pilot.pause(0)
            out["overview"] = time.perf_counter() - t
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
        [PY, "-c", PROBE, str(root), str(project), mode], capture_output=True, text=True, env=env, timeout=600
    )
    if res.returncode != 0:
        raise SystemExit(f"probe failed ({mode}, {corpus}):\n{res.stderr[-3000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--big", type=int, default=100_000, help="entries of the large corpus (0 skips it)")
    ap.add_argument("--keep", type=Path, help="generate corpora here and keep them between runs")
    ap.add_argument("--keys", action="store_true", help="time every key on the demo instead (tui_keys.py)")
    args = ap.parse_args()
    if args.keys:
        sys.path.insert(0, str(HERE))
        from tui_keys import main as keys_main

        return keys_main(["--runs", str(args.runs)])
    base = args.keep or Path(tempfile.mkdtemp(prefix="tui-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    c10k = gen(base / "c10k", 10_000, 365, 5_000)
    corpora = [("10k entries, 365 days", c10k)]
    if args.big:
        corpora.append((f"{args.big // 1000}k entries, 30 days", gen(base / f"c{args.big}", args.big, 30, 5_000)))
    for corpus in (c10k,):  # warm the catalog cache once (the first open after generation builds it)
        probe(corpus, "app")
    anchor = [probe(None, "anchor") for _ in range(args.runs)]
    rows = []
    for label, corpus in corpora:
        probe(corpus, "app")
        runs = [probe(corpus, "app") for _ in range(args.runs)]
        rows.append((label, runs))
    a_paint, a_expand = median(anchor, "first_paint"), median(anchor, "expand")
    print(f"median of {args.runs} fresh processes each; terminal 120x40 headless\n")
    print(
        "| corpus | first paint | vs bare Textual app | all summaries loaded | expand 5k category | "
        "vs naive 5k Tree | expand once loaded | journal pane | overview drawn | overview complete | RSS |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print(
        f"| anchor: bare Textual app / naive Tree | {a_paint * 1000:.0f} ms | 1.00× | — | "
        f"{a_expand * 1000:.0f} ms | 1.00× | — | — | — | — | {median(anchor, 'rss_mb'):.0f} MB |"
    )
    for label, runs in rows:
        paint, expand = median(runs, "first_paint"), median(runs, "expand")
        print(
            f"| {label} ({runs[0]['entries']} entries; {runs[0]['big_size']} in {runs[0]['big_category']}, "
            f"{runs[0]['rows_drawn']} rows built) | {paint * 1000:.0f} ms | {paint / a_paint:.2f}× | "
            f"{median(runs, 'all_loaded') * 1000:.0f} ms | "
            f"{expand * 1000:.1f} ms | {expand / a_expand:.2f}× | {median(runs, 'expand_idle') * 1000:.1f} ms | "
            f"{median(runs, 'journal') * 1000:.0f} ms "
            f"({runs[0]['days']} days) | {median(runs, 'overview_drawn') * 1000:.0f} ms | "
            f"{median(runs, 'overview') * 1000:.0f} ms | "
            f"{max(r['rss_mb'] for r in runs):.0f} MB ({max(r['rss_mb'] for r in runs) / median(anchor, 'rss_mb'):.1f}×) |"
        )
    print("\ntargets (issue 14): first paint ≤ 1000 ms (10k), ≤ 2000 ms (100k); RSS ≤ 250 MB (100k)")
    print("targets (issue 37): every pane key ≤ 300 ms, first paint ≤ 2× bare, RSS ≤ 150 MB (100k)")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (the 2 cores are shared)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
