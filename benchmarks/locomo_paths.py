"""LoCoMo dev through ``Searcher.search`` (hybrid), with and without what wraps the legs
(issue 36: the time window read from a question, the spelling fix): recall@5 / MRR@10, and
per LoCoMo category recall_all@5 / @10 beside them (every gold turn among the first k).

``search_quality.py locomo`` scores the legs directly; this script asks whether the
wrappers move LoCoMo's figures. "without" is the same Searcher's inner search
(``Searcher._search``), "with" is ``Searcher.search``; the time windows resolve against
today's clock, as a person's search would (the conversations are from 2023).

    python benchmarks/locomo_paths.py [--data ../shared/data/locomo-dev] [--cache /tmp/locomo-idx]
        [--models multilingual-e5-small]  # the embedding model (default: the default model)
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_util import locomo_args, locomo_conversations

CATEGORIES: dict[object, str] = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def main() -> None:
    args = locomo_args(__doc__ or "", models="")
    config = {"embedding": {"model": args.models}} if args.models else {}
    from memsearch_tui.engine.search import Searcher

    ranks: dict[str, list[int | None]] = {"without": [], "with": []}
    windows = fixes = changed = 0
    per_cat: dict[object, list[tuple[int | None, bool, bool]]] = {}  # "with": (rank, all gold in 5, in 10)
    for conv, qs in locomo_conversations(args.data):
        with tempfile.TemporaryDirectory() as scratch:
            tmp = str(args.cache / conv.name) if args.cache else scratch
            os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(Path(tmp) / "data")
            os.environ["MEMSEARCH_DIR"] = str(conv)
            with Searcher(Path(tmp) / "memory", Path(tmp), config=config) as s:
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
                            shown = [texts.get(h.chunk_id, "") for h in res.hits]
                            every = [all(any(t in x for x in shown[:n]) for t in tags) for n in (5, 10)]
                            per_cat.setdefault(q.get("category"), []).append((ranks[name][-1], *every))
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
    print("with the wrappers, per category: recall@5 / MRR@10 / recall_all@5 / recall_all@10")
    for cat, rows in sorted(per_cat.items(), key=lambda kv: str(kv[0])):
        m = len(rows)
        cells = [
            sum(r is not None and r <= 5 for r, _, _ in rows) / m,
            sum(1 / r for r, _, _ in rows if r) / m,
            sum(a for _, a, _ in rows) / m,
            sum(a for _, _, a in rows) / m,
        ]
        print(f"| {cat} {CATEGORIES.get(cat, '')} ({m} q) | {' / '.join(f'{x:.3f}' for x in cells)} |")


if __name__ == "__main__":
    sys.exit(main())
