"""CMRC dev through ``Searcher.search`` itself (not the legs): recall@5 and MRR of ``index``
and ``auto`` as a person's search runs them, with everything that wraps the legs — the time
window read from the question, the spelling fix, auto's fall-through rules (issue 36).

``benchmarks/search_quality.py cmrc`` scores the keyword and vector legs directly, so it
cannot see a change in what wraps them; this script can. It runs on any commit (only
``Searcher.search`` is used): ``PYTHONPATH=/path/to/other/checkout python
benchmarks/search_paths.py`` scores another checkout with the same data.

    python benchmarks/search_paths.py [--data ../shared/data/cmrc-dev] [--strategies index,auto]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parents[1]
    ap.add_argument("--data", type=Path, default=here.parent / "shared" / "data" / "cmrc-dev")
    ap.add_argument("--strategies", default="index,auto")
    args = ap.parse_args()
    out = Path(tempfile.mkdtemp(prefix="search-paths-"))
    root = out / "memory"
    shutil.copytree(args.data / "memory", root)
    (out / "proj").mkdir()
    os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(out / "data")
    os.environ["HOME"] = str(out / "home")
    os.environ.pop("MEMSEARCH_DIR", None)

    from memsearch_tui.engine.search import Searcher

    qs = [json.loads(line) for line in (args.data / "questions.jsonl").read_text().splitlines() if line.strip()]
    qs = [q for q in qs if q["question"].strip()]  # a blank question is refused by every search
    print(f"CMRC dev: {len(qs)} questions, {sum(1 for _ in root.rglob('*.md'))} files; code from {Searcher.__module__}")
    print("| strategy (Searcher.search) | recall@5 | MRR@10 | with a time window | with a spelling fix |")
    print("| --- | --- | --- | --- | --- |")
    with Searcher(out / "memory", out / "proj", config={}) as s:
        for strategy in args.strategies.split(","):
            r5 = mrr = 0.0
            windows = fixes = 0
            for q in qs:
                res = s.search(q["question"], strategy=strategy, k=10)
                ids = [h.id for h in res.hits]
                rank = ids.index(q["gold"]) + 1 if q["gold"] in ids else None
                r5 += rank is not None and rank <= 5
                mrr += 1 / rank if rank else 0.0
                windows += "time window" in res.reason
                fixes += "spelling:" in res.reason
            n = len(qs)
            print(f"| {strategy} | {r5 / n:.3f} | {mrr / n:.3f} | {windows} | {fixes} |")


if __name__ == "__main__":
    main()
