"""Curator speed targets, each next to an anchor measured in the same run.

    .venv/bin/python benchmarks/curator_bench.py [--entries 10000] [--big 1000] [--runs 5]

Targets (issue 4): `lifecycle plan` on 10k entries ≤ 1 s; `trash restore` ≤ 150 ms wall;
`split apply` of a 1k-entry category ≤ 2 s; `undo` ≤ 150 ms wall. Anchors: `grep -rc` over
the same files (plan), the bare CLI start-up `memsearch-tui --help` (restore, undo) and
`mv` of the same 1k files into one folder (split). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_util import timed, wall  # noqa: E402
from gen_corpus import gen_store  # noqa: E402

from memsearch_tui.engine.curator import lifecycle, split, trash  # noqa: E402
from memsearch_tui.engine.history import undo  # noqa: E402
from memsearch_tui.engine.store.store import Store  # noqa: E402

CLI = [str(ROOT / ".venv/bin/memsearch-tui")]


def _cli_wall(store: Store, args: list[str], prepare, runs: int) -> float:
    """Median wall of one CLI call, with an untimed ``prepare()`` before each run."""
    times = []
    env = {**os.environ, "MEMSEARCH_TUI_MEMORY_ROOT": str(store.root)}
    for _ in range(runs):
        prepare()
        t = time.perf_counter()
        proc = subprocess.run(CLI + args, env=env, capture_output=True)
        times.append(time.perf_counter() - t)
        if proc.returncode != 0:
            raise RuntimeError(f"{args}: {proc.stderr.decode()[-400:]}")
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--big", type=int, default=1_000)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="curator-bench-"))
    root = tmp / "memory"
    gen_store(root, a.entries, a.big, 7)
    store = Store(root)
    rows: list[tuple[str, str, str, str]] = []

    # lifecycle plan: cold (no scan cache), warm, and the CLI; anchor grep over the same files
    cache = root / ".memsearch-tui" / "lifecycle-scan.json"
    cold = []
    for _ in range(3):
        cache.unlink(missing_ok=True)
        cold.append(timed(lambda: lifecycle.plan(store), runs=1))
    cold_s = statistics.median(cold)
    warm_s = timed(lambda: lifecycle.plan(store), runs=a.runs)
    n_moves = len(lifecycle.plan(store))
    cli_plan = wall(CLI + ["--memory-root", str(root), "--json", "lifecycle", "plan"], runs=a.runs)
    grep = wall(["grep", "-rc", "--include=*.md", "status:", str(root)], runs=a.runs)
    rows += [
        (
            f"lifecycle plan, {a.entries} entries, engine, cold cache ({n_moves} moves)",
            f"{cold_s * 1000:.0f} ms",
            "≤ 1 s",
            _ok(cold_s <= 1),
        ),
        ("lifecycle plan, engine, warm cache", f"{warm_s * 1000:.0f} ms", "≤ 1 s", _ok(warm_s <= 1)),
        ("lifecycle plan, CLI wall (warm)", f"{cli_plan * 1000:.0f} ms", "≤ 1 s", _ok(cli_plan <= 1)),
        (
            "anchor: grep -rc status: over the same files",
            f"{grep * 1000:.0f} ms",
            "—",
            f"plan/grep {cli_plan / grep:.1f}×",
        ),
    ]

    # trash restore and undo: CLI wall, one trashed entry per run
    victim = next(s.id for s in store.list("projects") if s.status == "active")
    restore_s = _cli_wall(store, ["trash", "restore", victim], lambda: trash.trash(store, victim, "bench"), a.runs)
    restore_engine = []
    for _ in range(a.runs):
        trash.trash(store, victim, "bench")
        restore_engine.append(timed(lambda: trash.restore(store, victim), runs=1))
    undo_s = _cli_wall(store, ["undo"], lambda: lifecycle.archive(store, victim), a.runs)
    undo_engine = []
    for _ in range(a.runs):
        lifecycle.archive(store, victim)
        undo_engine.append(timed(lambda: undo.undo_last(root), runs=1))
    startup = wall(CLI + ["--help"], runs=a.runs)
    rows += [
        ("trash restore, CLI wall (10k store)", f"{restore_s * 1000:.0f} ms", "≤ 150 ms", _ok(restore_s <= 0.15)),
        ("trash restore, engine call", f"{statistics.median(restore_engine) * 1000:.0f} ms", "—", ""),
        ("undo (of an archive), CLI wall", f"{undo_s * 1000:.0f} ms", "≤ 150 ms", _ok(undo_s <= 0.15)),
        ("undo, engine call", f"{statistics.median(undo_engine) * 1000:.0f} ms", "—", ""),
        (
            "anchor: memsearch-tui --help (CLI start-up)",
            f"{startup * 1000:.0f} ms",
            "—",
            f"restore/start-up {restore_s / startup:.2f}×, undo/start-up {undo_s / startup:.2f}×",
        ),
    ]

    # split apply of the big category (engine), merge back between runs; anchor: mv of the same files
    split_times = []
    for _ in range(3):
        t = time.perf_counter()
        r = split.apply(store, "inbox", "month")
        split_times.append(time.perf_counter() - t)
        split.merge(store, "inbox")
    split_s = statistics.median(split_times)
    cli_split = _cli_wall(store, ["split", "apply", "inbox", "--by", "month"], lambda: None, 1)
    split.merge(store, "inbox")
    files = sorted((root / "inbox").glob("*.md"))
    files = [f for f in files if f.name != "INDEX.md"]
    dest = tmp / "mv-anchor"
    dest.mkdir()
    t = time.perf_counter()
    subprocess.run(["mv", *map(str, files), str(dest)], check=True)
    mv_s = time.perf_counter() - t
    rows += [
        (
            f"split apply inbox ({r['moved']} entries, by month), engine",
            f"{split_s * 1000:.0f} ms",
            "≤ 2 s",
            _ok(split_s <= 2),
        ),
        ("split apply, CLI wall", f"{cli_split * 1000:.0f} ms", "≤ 2 s", _ok(cli_split <= 2)),
        (f"anchor: mv of the same {len(files)} files", f"{mv_s * 1000:.0f} ms", "—", f"split/mv {split_s / mv_s:.0f}×"),
    ]

    print(
        f"curator benchmark: {a.entries} entries, big category {a.big}, median of {a.runs} runs "
        f"(split: 3), {os.cpu_count()} CPUs, Python {sys.version.split()[0]}\n"
    )
    print("| measurement | median | target | ok |\n| --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    shutil.rmtree(tmp, ignore_errors=True)


def _ok(flag: bool) -> str:
    return "yes" if flag else "**no**"


if __name__ == "__main__":
    main()
