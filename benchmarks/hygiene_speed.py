"""Hygiene speed: every kind over 10k entries with a current search index (no re-embedding).

    python benchmarks/hygiene_speed.py [--dir /tmp/hygiene-bench] [--runs 5]

Generates the corpus with ``gen_corpus.py`` (10k entries in English and Chinese, 365
journal days) and builds its vector index once (``vectors index``: minutes of CPU); a
later run with the same ``--dir`` reuses both. Then it times, side by side in the same
run: ``memsearch-tui hygiene --json`` (every kind, the index's vectors read for
duplicates) and the anchor ``memsearch-tui ls --json`` (the catalog of the same 10k
entries), as CLI wall-clock medians. The target is 10 s for the hygiene pass. It also
checks the pass left the index as it found it (``vectors status`` drift stays 0) and
prints the load (``uptime``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXE = [sys.executable, "-m", "memsearch_tui"]


def cli(base: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    cmd = [*EXE, "--memory-root", str(base / "memory"), "--project", str(base / "project"), *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, check=False, timeout=3600)


def wall(base: Path, args: list[str], env: dict[str, str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        done = cli(base, *args, env=env)
        times.append(time.perf_counter() - t)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed: {done.stdout[-500:]} {done.stderr[-500:]}")
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", type=Path, default=Path("/tmp/hygiene-bench"))
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    base = a.dir
    env = {**os.environ, "MEMSEARCH_TUI_DATA_DIR": str(base / "data"), "HOME": str(base / "home")}
    (base / "home").mkdir(parents=True, exist_ok=True)
    if not (base / "memory").is_dir():
        subprocess.run(
            [sys.executable, str(HERE / "gen_corpus.py"), "--entries", str(a.entries), str(base)], check=True
        )
        subprocess.run(["git", "init", "-q", str(base / "project")], check=True)
    t = time.perf_counter()
    built = cli(base, "--json", "vectors", "index", env=env)
    print(f"vectors index (incremental; 0 s when current): {time.perf_counter() - t:.1f} s, rc {built.returncode}")
    status = json.loads(cli(base, "--json", "vectors", "status", env=env).stdout)["data"]
    print(f"index: {status.get('files')} files, {status.get('chunks')} chunks, drift {status.get('drift')}")
    hygiene = wall(base, ["--json", "hygiene"], env, a.runs)
    ls = wall(base, ["--json", "ls"], env, a.runs)
    report = json.loads(cli(base, "--json", "hygiene", env=env).stdout)["data"]
    after = json.loads(cli(base, "--json", "vectors", "status", env=env).stdout)["data"]
    counts: dict[str, int] = {}
    for f in report["findings"]:
        counts[f["kind"]] = counts.get(f["kind"], 0) + 1
    print(f"entries read {report['entries']}, journal days {report['journals']}, vectors used {report['vectors']}")
    print(f"findings: {counts}; notes: {report['notes']}")
    print(f"drift after: {after.get('drift')}")
    print("| measurement | median | target |")
    print("|---|---:|---:|")
    print(f"| `hygiene --json`, every kind, {report['entries']} entries (CLI wall) | {hygiene:.2f} s | ≤ 10 s |")
    print(f"| anchor: `ls --json` of the same store (CLI wall) | {ls:.2f} s | — |")
    print(f"| ratio | {hygiene / ls:.1f}× | — |")
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip())


if __name__ == "__main__":
    main()
