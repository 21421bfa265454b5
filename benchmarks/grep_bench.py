"""Literal search (`search -s grep`) against `grep -ri` on the same files, in one run.

    python benchmarks/grep_bench.py [--entries 10000] [--runs 21] [--work DIR]

Builds (or reuses) a corpus with gen_corpus (5k of the entries in one category, 30 days of
journals), then times, interleaved so that machine noise hits every command alike:
`python -c pass`, `grep -ri` and `grep -ril` over the memory root, and the CLI's literal
search over the same files (`--source store`) and over both memories. Also: the first
search (the cache is built), and a search right after an `add` (the change scan reports the
new file and its folders). The CLI runs both with our modules compiled on every call and
from a warm bytecode cache (an installed package). Prints a Markdown table of medians and
ratios to grep -ri.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_util import bytecode_modes, table  # noqa: E402
from gen_corpus import gen_journals, gen_store  # noqa: E402

EXE = str(Path(sys.executable).with_name("memsearch-tui"))
QUERIES = ("rollback", "回滚", "deploy")


def run_once(cmd: list[str], env: dict | None = None) -> float:
    t = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    took = time.perf_counter() - t
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{cmd} failed: {proc.stderr.decode()[-400:]}")
    return took


def corpus(work: Path, entries: int) -> tuple[Path, Path]:
    root, project = work / "memory", work / "project"
    if not (root / "INDEX.md").exists():
        shutil.rmtree(work, ignore_errors=True)
        gen_store(root, entries, entries // 2, seed=7)
        gen_journals(project / ".memsearch" / "memory", 30, seed=7)
    return root, project


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--work", type=Path, default=Path("/tmp/memsearch-tui-grep-bench"))
    a = ap.parse_args()
    root, project = corpus(a.work, a.entries)
    env = {**os.environ, "MEMSEARCH_TUI_MEMORY_ROOT": str(root)}
    modes = bytecode_modes(EXE, env, a.work)
    ours = [EXE, "--memory-root", str(root), "--project", str(project), "search"]
    for name in ("grep.sqlite3", "grep.sqlite3-wal", "grep.sqlite3-shm", "grep.stamp"):
        (root / ".memsearch-tui" / name).unlink(missing_ok=True)
    cold = run_once([*ours, "anything", "-s", "grep"], modes["bytecode cache"])
    time.sleep(2.5)  # files read within 2 s of a change are re-read until they settle
    run_once([*ours, "anything", "-s", "grep"], modes["bytecode cache"])

    cmds: dict[str, tuple[list[str], dict]] = {"python -c pass": ([sys.executable, "-c", "pass"], env)}
    for q in QUERIES:
        cmds[f"grep -ri {q}"] = (["grep", "-ri", q, str(root)], env)
        cmds[f"grep -ril {q}"] = (["grep", "-ril", q, str(root)], env)
        for mode, mode_env in modes.items():
            cmds[f"search {q} -s grep --source store, {mode}"] = (
                [*ours, q, "-s", "grep", "--source", "store"],
                mode_env,
            )
        cmds[f"search {q} -s grep (store + journals), bytecode cache"] = (
            [*ours, q, "-s", "grep"],
            modes["bytecode cache"],
        )
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(a.runs):
        for name, (cmd, cmd_env) in cmds.items():
            times[name].append(run_once(cmd, cmd_env))
    med = {k: statistics.median(v) for k, v in times.items()}

    after = []
    for i in range(max(3, a.runs // 3)):
        run_once(
            [
                EXE,
                "add",
                "inbox",
                f"Grep bench {time.time_ns()} {i}",
                "--body",
                f"grep bench body {i} {time.time_ns()}",
            ],
            env,
        )
        after.append(run_once([*ours, "rollback", "-s", "grep", "--source", "store"], modes["bytecode cache"]))

    rows = [
        ("python -c pass (anchor)", ms(med["python -c pass"]), "—", ""),
        (f"first search: cache built from {a.entries} files (one run)", ms(cold), "—", ""),
    ]
    for q in QUERIES:
        g = med[f"grep -ri {q}"]
        rows.append((f"grep -ri {q} (anchor)", ms(g), "—", ""))
        rows.append((f"grep -ril {q} (anchor)", ms(med[f"grep -ril {q}"]), "—", ""))
        for label in [k for k in cmds if k.startswith(f"search {q} ")]:
            t = med[label]
            rows.append(
                (
                    f"CLI {label}",
                    f"{ms(t)} ({t / g:.2f}× grep -ri)",
                    "≤ 300 ms, ≤ grep -ri",
                    "yes" if t <= 0.3 and t <= g else "NO",
                )
            )
    t_after = statistics.median(after)
    g = med["grep -ri rollback"]
    rows.append(
        (
            f"CLI search rollback right after an `add` to the {a.entries // 2}-entry category, bytecode cache",
            f"{ms(t_after)} ({t_after / g:.2f}× grep -ri)",
            "≤ 300 ms",
            "yes" if t_after <= 0.3 else "NO",
        )
    )
    print(f"{a.entries} entries, {a.runs} interleaved runs, load {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    print(table(rows))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


if __name__ == "__main__":
    main()
