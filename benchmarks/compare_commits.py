"""Two commits side by side in one run: add, ls, literal search and the no-op hook.

    python benchmarks/compare_commits.py OLD [NEW] [--entries 10000] [--runs 15]

Checks OLD (and NEW, default: the working tree) out into temporary git worktrees, compiles
their bytecode (what an install has), generates one store and gives each tree its own copy
of it and its own data dir (a tree whose catalog or cache format differs would otherwise
find the other's stale and rebuild it inside every timing), warms each copy with its own
tree, then runs each command alternately with OLD and NEW on PYTHONPATH — interleaved, so a
busy machine slows both alike. Prints medians and NEW/OLD ratios as a Markdown table, with `python -c pass`
as the start-up anchor. A refactor should leave every ratio near 1.00.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

from gen_corpus import gen_journals, gen_store  # noqa: E402

ENTRY = "from memsearch_tui.cli import main; main()"


def checkout(rev: str, into: Path) -> Path:
    """A detached worktree of ``rev`` with compiled bytecode; the tree's path."""
    subprocess.run(
        ["git", "-C", str(REPO), "worktree", "add", "--detach", "-f", str(into), rev], check=True, capture_output=True
    )
    compileall.compile_dir(into / "memsearch_tui", quiet=1)
    return into


def run_once(tree: Path, args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(  # cwd: `python -c` puts it first on sys.path, before PYTHONPATH
        [sys.executable, "-c", ENTRY, *args], env={**env, "PYTHONPATH": str(tree)}, capture_output=True, cwd=tree
    )
    took = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{tree.name}: {args} failed: {proc.stderr.decode()[-400:]}")
    return took


def interleaved(trees: dict[str, Path], make_args, envs: dict[str, dict[str, str]], runs: int) -> dict[str, float]:
    """Median seconds per tree; ``make_args(name, i)`` gives run i's arguments."""
    times: dict[str, list[float]] = {name: [] for name in trees}
    for i in range(runs):
        for name, tree in trees.items():
            times[name].append(run_once(tree, make_args(name, i), envs[name]))
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new", nargs="?", default="")
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=15)
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="compare-commits-"))
    try:
        trees = {"old": checkout(a.old, work / "old")}
        trees["new"] = checkout(a.new, work / "new") if a.new else REPO
        if not a.new:
            compileall.compile_dir(REPO / "memsearch_tui", quiet=1)
        root, project = work / "memory", work / "project"
        gen_store(root, a.entries, a.entries // 2, seed=7)
        gen_journals(project / ".memsearch/memory", 30, seed=7)
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        own = {name: _own_copy(work, name, root, project) for name in trees}
        envs = {
            name: {
                **base,
                "MEMSEARCH_TUI_MEMORY_ROOT": own[name][1],
                "MEMSEARCH_TUI_DATA_DIR": str(work / f"data-{name}"),
                "HOME": str(work / f"home-{name}"),
            }
            for name in trees
        }
        for name, tree in trees.items():  # catalog, caches and the weekly store checks: outside the timing
            run_once(tree, [*own[name], "ls", "inbox"], envs[name])
            run_once(tree, [*own[name], "search", "-s", "grep", "rollback"], envs[name])
            run_once(tree, [*own[name], "--run-due", "--hook", "claude-code"], envs[name])
        rows = [("python -c pass (anchor)", _pass(a.runs), None)]
        cases = {
            "add to a typical category": lambda n, i: [
                *own[n],
                "add",
                "people",
                f"Cmp {n} {i}",
                "--body",
                f"comparison body {n} {i} {os.urandom(6).hex()}",
            ],
            "ls of the 5k category": lambda n, i: [*own[n], "ls", "inbox"],
            "search -s grep rollback": lambda n, i: [*own[n], "search", "-s", "grep", "rollback"],
            "--run-due (nothing due)": lambda n, i: [*own[n], "--run-due", "--hook", "claude-code"],
        }
        for label, make in cases.items():
            med = interleaved(trees, make, envs, a.runs)
            rows.append((label, med["old"], med["new"]))
        print(_table(rows, a.old, a.new or "working tree"))
    finally:
        if a.new:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "-f", str(work / "new")], capture_output=True)
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "-f", str(work / "old")], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def _own_copy(work: Path, name: str, root: Path, project: Path) -> list[str]:
    """A store and project of the tree's own: a hook's state files are its inputs (a quiet
    hook answers from a record that any change to them ends) and a catalog's schema can
    differ between trees, so a run of the other tree must not count as a change."""
    own_root, own_project = work / f"own-{name}" / "memory", work / f"own-{name}" / "project"
    shutil.copytree(root, own_root, symlinks=True)
    shutil.copytree(project, own_project, symlinks=True)
    return ["--memory-root", str(own_root), "--project", str(own_project)]


def _pass(runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"])
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _table(rows: list[tuple[str, float, float | None]], old: str, new: str) -> str:
    out = [f"| command | {old} | {new} | new / old |", "| --- | --- | --- | --- |"]
    for label, o, n in rows:
        if n is None:
            out.append(f"| {label} | {o * 1000:.0f} ms | | |")
        else:
            out.append(f"| {label} | {o * 1000:.0f} ms | {n * 1000:.0f} ms | {n / o:.2f} |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
