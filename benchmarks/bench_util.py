"""Small helpers shared by the benchmark scripts: wall-clock medians of commands and calls."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path


def wall(cmd: Sequence[str], *, runs: int = 7, env: dict | None = None, check: bool = True) -> float:
    """Median wall seconds of running ``cmd`` (output discarded)."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        proc = subprocess.run(list(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        times.append(time.perf_counter() - t)
        if check and proc.returncode not in (0, 1):
            raise RuntimeError(f"{cmd} failed: {proc.stderr.decode()[-500:]}")
    return statistics.median(times)


def timed(fn: Callable[[], object], *, runs: int = 5) -> float:
    """Median seconds of calling ``fn`` in this process."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def table(rows: list[tuple[str, str, str, str]]) -> str:
    """Markdown table: what, measured, target, verdict."""
    out = ["| measurement | median | target | ok |", "| --- | --- | --- | --- |"]
    out += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    return "\n".join(out)


def bytecode_modes(exe: str, env: dict, work: Path) -> dict[str, dict]:
    """The two ways our modules get loaded: compiled from source on every call, or from
    bytecode (what an installed package has: pip compiles it, and so does
    scripts/install.sh for the editable install).

    No bytecode: a copy of the package without ``__pycache__`` put first on PYTHONPATH,
    with PYTHONDONTWRITEBYTECODE set (the standard library keeps its own bytecode).
    Bytecode: a private PYTHONPYCACHEPREFIX, filled here.
    """
    import shutil

    package = Path(__file__).resolve().parent.parent / "memsearch_tui"
    bare = work / "src-no-bytecode"
    shutil.rmtree(bare, ignore_errors=True)
    shutil.copytree(package, bare / "memsearch_tui", ignore=shutil.ignore_patterns("__pycache__"))
    base = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cached = {**base, "PYTHONPYCACHEPREFIX": str(work / "pycache")}
    subprocess.run([exe, "--help"], env=cached, capture_output=True)  # fills the cache (every command module)
    return {
        "no bytecode cache": {**base, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(bare)},
        "bytecode cache": cached,
    }


def locomo_args(doc: str, models: str | None = None) -> argparse.Namespace:
    """``--data`` (LoCoMo dev, read in place) and ``--cache`` (the conversations' indexes kept
    between runs) for the LoCoMo scripts; ``--models`` (comma-separated) when ``models``
    gives its default."""
    here = Path(__file__).resolve().parents[1]
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--data", type=Path, default=here.parent / "shared" / "data" / "locomo-dev")
    ap.add_argument("--cache", type=Path, help="keep the conversations' indexes here between runs")
    if models is not None:
        ap.add_argument("--models", default=models, help="embedding models, comma-separated")
    return ap.parse_args()


def locomo_conversations(data: Path) -> list[tuple[Path, list[dict]]]:
    """(conversation folder, its questions) for each LoCoMo conversation under ``data``."""
    out = []
    for conv in sorted(p for p in data.iterdir() if p.is_dir() and (p / "questions.jsonl").is_file()):
        lines = (conv / "questions.jsonl").read_text().splitlines()
        out.append((conv, [json.loads(line) for line in lines if line.strip()]))
    return out
