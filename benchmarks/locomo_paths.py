"""LoCoMo dev through ``Searcher.search`` (hybrid), with and without what wraps the legs
(issue 36: the time window read from a question, the spelling fix): recall@5 / MRR@10.

``search_quality.py locomo`` scores the legs directly; this script asks whether the
wrappers move LoCoMo's figures. "without" is the same Searcher's inner search
(``Searcher._search``), "with" is ``Searcher.search``; the time windows resolve against
today's clock, as a person's search would (the conversations are from 2023).

    python benchmarks/locomo_paths.py [--data ../shared/data/locomo-dev]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path


def main() -> None:
    here = Path(__file__).resolve().parents[1]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=here.parent / "shared" / "data" / "locomo-dev")
    args = ap.parse_args()
    from memsearch_tui.engine.search import Searcher

    ranks: dict[str, list[int | None]] = {"without": [], "with": []}
    windows = fixes = changed = 0
    for conv in sorted(p for p in args.data.iterdir() if p.is_dir() and (p / "questions.jsonl").is_file()):
        qs = [json.loads(line) for line in (conv / "questions.jsonl").read_text().splitlines() if line.strip()]
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(Path(tmp) / "data")
            os.environ["MEMSEARCH_DIR"] = str(conv)
            with Searcher(Path(tmp) / "memory", Path(tmp), config={}) as s:
                s.index()
                for q in qs:
                    tags = [f"[{e}]" for e in q["evidence"]]
                    for name, res in (
                        ("without", s._search(q["question"], "hybrid", 10, None, "journal")),
                        ("with", s.search(q["question"], "hybrid", 10, None, "journal")),
                    ):
                        texts = s.manifest.texts_by_id([h.chunk_id for h in res.hits])
                        hit = [any(t in texts.get(h.chunk_id, "") for t in tags) for h in res.hits]
                        ranks[name].append(hit.index(True) + 1 if True in hit else None)
                        if name == "with":
                            windows += "time window" in res.reason
                            fixes += "spelling:" in res.reason
                    changed += ranks["with"][-1] != ranks["without"][-1]
                    if os.environ.get("LOCOMO_PATHS_VERBOSE") and ranks["with"][-1] != ranks["without"][-1]:
                        print(ranks["without"][-1], "->", ranks["with"][-1], q["question"], "|", res.reason[-90:])
    n = len(ranks["with"])
    print(
        f"LoCoMo dev: {n} questions; {windows} with a time window, {fixes} with a spelling fix, {changed} ranks moved"
    )
    for name, rs in ranks.items():
        r5 = sum(r is not None and r <= 5 for r in rs) / n
        mrr = sum(1 / r for r in rs if r) / n
        print(f"hybrid {name} the wrappers: recall@5 {r5:.3f} MRR@10 {mrr:.3f}")


if __name__ == "__main__":
    sys.exit(main())
