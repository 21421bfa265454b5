"""Store speed targets (issue 2), measured side by side in one run.

    python benchmarks/store_bench.py [--entries 10000]

Builds a corpus with gen_corpus (5k of the entries in one category), then prints a table:
full index rebuild, CLI add, CLI ls of the 5k category, CLI keyword search vs grep -ri on
the same files, with `python -c pass` as the start-up anchor. Medians of several runs.

add and ls run twice: with no bytecode for our modules (a copy of the package without
``__pycache__`` first on PYTHONPATH and ``PYTHONDONTWRITEBYTECODE=1``: every module compiled
from source on each call, as an editable install in a shell that never writes bytecode) and
with a warm private bytecode cache (``PYTHONPYCACHEPREFIX``: what an installed package has;
pip compiles on install, and so does scripts/install.sh). The difference is ~20 ms of
compiling per call.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_util import bytecode_modes, table, timed, wall  # noqa: E402
from gen_corpus import gen_journals, gen_store  # noqa: E402

from memsearch_tui.engine.store.catalog import Catalog  # noqa: E402
from memsearch_tui.engine.store.store import Store  # noqa: E402

EXE = str(Path(sys.executable).with_name("memsearch-tui"))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="store-bench-"))
    root = work / "memory"
    gen_store(root, a.entries, a.entries // 2, seed=7)
    gen_journals(work / "project/.memsearch/memory", 30, seed=7)
    env = {**os.environ, "MEMSEARCH_TUI_MEMORY_ROOT": str(root)}
    store = Store(root)

    def cold_rebuild() -> None:
        Catalog(root).file.unlink(missing_ok=True)
        store.rebuild_index()

    rebuild = timed(cold_rebuild, runs=3)
    pass_anchor = wall([sys.executable, "-c", "pass"], runs=a.runs)
    help_anchor = wall([EXE, "--help"], runs=a.runs, env=env)
    rows = [
        ("python -c pass (anchor)", ms(pass_anchor), "—", ""),
        ("memsearch-tui --help (CLI start-up anchor)", ms(help_anchor), "—", ""),
        (f"full index rebuild, {a.entries} entries (cold catalog)", ms(rebuild), "≤ 2000 ms", _ok(rebuild, 2.0)),
    ]
    for mode, (label, mode_env) in enumerate(bytecode_modes(EXE, env, work).items()):
        add_small = _median_add(mode_env, "people", a.runs, mode)
        add_big = _median_add(mode_env, "inbox", a.runs, mode)
        ls = wall([EXE, "ls", "inbox"], runs=a.runs, env=mode_env)
        rows += [
            (
                f"CLI add to a typical category (wall, {label})",
                f"{ms(add_small)} ({add_small / help_anchor:.2f}× start-up)",
                "≤ 150 ms",
                _ok(add_small, 0.15),
            ),
            (
                f"CLI add to the {a.entries // 2}-entry category (wall, {label})",
                f"{ms(add_big)} ({add_big / help_anchor:.2f}× start-up)",
                "≤ 150 ms",
                _ok(add_big, 0.15),
            ),
            (f"CLI ls of a {a.entries // 2}-entry category (wall, {label})", ms(ls), "≤ 300 ms", _ok(ls, 0.3)),
        ]
    rows += _search_rows(root, env, a.runs)
    print(table(rows))
    shutil.rmtree(work, ignore_errors=True)


def _body(category: str, i: int, mode: int) -> str:
    """Bodies alike enough to pass the duplicate check's cheap filter (so each add reads the
    earlier ones in full), unlike enough to be added; the two modes' bodies differ."""
    words = " ".join(hashlib.sha1(f"{category}/{mode}/{i}/{w}".encode()).hexdigest()[:8] for w in range(5))
    if mode == 0:
        return f"benchmark body {category} number {i} with distinct words {words}"
    return f"benchmark text {category} entry {i} has other words {words}"


def _median_add(env: dict, category: str, runs: int, mode: int = 0) -> float:
    """Median wall time of ``runs`` adds of distinct new entries to ``category`` (each must
    be added: a refusal, e.g. as a near-duplicate of an earlier body, is an error)."""
    times = []
    for i in range(runs):
        cmd = [EXE, "add", category, f"Bench {category} {mode} {i}", "--body", _body(category, i, mode)]
        start = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise RuntimeError(f"{cmd} was not added: {proc.stderr.decode()[-300:]}")
    return sorted(times)[len(times) // 2]


def _search_rows(root: Path, env: dict, runs: int) -> list[tuple[str, str, str, str]]:
    has_search = subprocess.run([EXE, "search", "--help"], capture_output=True, env=env).returncode == 0
    grep = wall(["grep", "-ril", "rollback", str(root)], runs=runs)
    grep_zh = wall(["grep", "-ril", "回滚", str(root)], runs=runs)
    rows = [("grep -ril rollback (anchor)", ms(grep), "—", ""), ("grep -ril 回滚 (anchor)", ms(grep_zh), "—", "")]
    if not has_search:
        return rows + [("CLI search", "not available", "≤ 300 ms, ≤ grep", "")]
    for q, anchor in (("rollback", grep), ("回滚", grep_zh)):
        t = wall([EXE, "search", q, "--strategy", "grep"], runs=runs, env=env)
        rows.append(
            (
                f"CLI search '{q}' --strategy grep (wall)",
                f"{ms(t)} ({t / anchor:.2f}× grep)",
                "≤ 300 ms and ≤ grep",
                "yes"
                if t <= 0.3 and t <= anchor
                else f"{_ok(t, 0.3)} for 300 ms; {'faster' if t <= anchor else 'slower'} than grep",
            )
        )
    return rows


def _ok(value: float, limit: float) -> str:
    return "yes" if value <= limit else "NO"


if __name__ == "__main__":
    main()
