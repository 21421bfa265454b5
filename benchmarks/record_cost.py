"""CPU to create the engine's records, this tree beside another checkout (issue 36 item 6a, issue 37 item 5).

    python benchmarks/record_cost.py --old-src DIR [--runs 7] [--reps 40]

Two measurements, each tree in its own fresh processes, alternating tree by tree:

- **per class**: each record's class statement (its source, compiled once outside the clock)
  executed ``--reps`` times in a copy of its module's globals; the median CPU per class
  statement is the decorator's cost (``@dataclass(frozen=True)`` on the old tree, ``@record``
  on this one) plus the class body's few microseconds.
- **import**: a fresh interpreter importing the modules whose records a one-shot hybrid CLI
  search makes (the 7 of ``ONE_SHOT``), CPU from before the first import to after the last.

Both trees run with this interpreter and their bytecode compiled first. Prints medians, the
ratio new/old and the load average: on a loaded machine read the ratios, not the times.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

ONE_SHOT = [  # the records a one-shot `search -s hybrid` makes (session 16's count)
    "memsearch_tui.engine.search.hit:SearchHit",
    "memsearch_tui.engine.search.sources:SourceFile",
    "memsearch_tui.engine.search.manifest_rows:FileRow",
    "memsearch_tui.engine.search.manifest_rows:ChunkRow",
    "memsearch_tui.engine.search.settings:SearchSettings",
    "memsearch_tui.engine.search.indexer:IndexRun",
    "memsearch_tui.engine.search.model_auto:AutoChoice",
]
API = [  # engine.api.types' own records: the app's first frame makes them
    f"memsearch_tui.engine.api.types:{name}"
    for name in (
        "SearchResult",
        "EntrySummary",
        "EntryFields",
        "FullEntry",
        "Category",
        "Document",
        "Proposal",
        "WriteResult",
        "HistoryItem",
        "TaskRun",
        "Move",
    )
]

PER_CLASS = r"""
import __future__, importlib, inspect, json, statistics, sys, textwrap, time
out = {}
reps = int(sys.argv[1])
for spec in sys.argv[2:]:
    mod_name, name = spec.split(":")
    module = importlib.import_module(mod_name)
    source = textwrap.dedent(inspect.getsource(getattr(module, name)))
    code = compile(source, module.__file__, "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
    times = []
    for _ in range(reps):
        ns = dict(vars(module))
        c = time.process_time()
        exec(code, ns)
        times.append(time.process_time() - c)
    out[spec] = statistics.median(times) * 1000
print(json.dumps(out))
"""

IMPORT = r"""
import time, sys
c = time.process_time()
for m in sys.argv[1:]:
    __import__(m)
print((time.process_time() - c) * 1000)
"""


def _run(tree: Path, code: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=tree)
    if out.returncode:
        raise SystemExit(f"{tree}: {out.stderr.strip().splitlines()[-1]}")
    return out.stdout.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old-src", type=Path, required=True, help="another checkout (e.g. a worktree at the base)")
    ap.add_argument("--runs", type=int, default=7, help="fresh processes per tree and measurement")
    ap.add_argument("--reps", type=int, default=40, help="class statements executed per process")
    a = ap.parse_args()
    trees = {"new": REPO, "old": a.old_src.resolve()}
    for tree in trees.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "memsearch_tui")], check=True)
    load0 = os.getloadavg()
    specs = ONE_SHOT + API
    per: dict[str, dict[str, list[float]]] = {t: {s: [] for s in specs} for t in trees}
    imp: dict[str, list[float]] = {t: [] for t in trees}
    modules = sorted({s.split(":")[0] for s in ONE_SHOT})
    for _ in range(a.runs):
        for t, tree in trees.items():
            for spec, ms in json.loads(_run(tree, PER_CLASS, str(a.reps), *specs)).items():
                per[t][spec].append(ms)
            imp[t].append(float(_run(tree, IMPORT, *modules)))
    load1 = os.getloadavg()
    med = {t: {s: statistics.median(v) for s, v in per[t].items()} for t in trees}
    print("| record | old ms | new ms | new/old |")
    print("| --- | --- | --- | --- |")
    for s in specs:
        print(
            f"| {s.split(':')[1]} | {med['old'][s]:.3f} | {med['new'][s]:.3f} | {med['new'][s] / med['old'][s]:.2f} |"
        )
    for label, group in (("the 7 one-shot records", ONE_SHOT), ("engine.api.types' 11", API)):
        old, new = sum(med["old"][s] for s in group), sum(med["new"][s] for s in group)
        print(f"| **{label}, total** | {old:.2f} | {new:.2f} | {new / old:.2f} |")
    io, inew = statistics.median(imp["old"]), statistics.median(imp["new"])
    print(
        f"| import of the one-shot records' {len(modules)} modules, fresh process | {io:.1f} | {inew:.1f} | {inew / io:.2f} |"
    )
    print(
        f"\nCPU medians of {a.runs} runs ({a.reps} class statements each); load average "
        + " / ".join(f"{x:.1f}" for x in load0)
        + " → "
        + " / ".join(f"{x:.1f}" for x in load1)
    )


if __name__ == "__main__":
    main()
