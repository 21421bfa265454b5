"""The labelled corpus (64 queries) through ``Searcher._search`` (hybrid), with hybrid's
weak-keyword cut and without it (``weak.WEAK_KEYWORD = 1``): recall@5 / recall@10 / MRR@10.

``search_quality.py corpus`` scores the legs and fuses them itself, so it cannot see a
change inside the Searcher's fusion (issue 36 item 2: the weak keyword leg's weight cut);
this script can.

    python benchmarks/corpus_weak_cut.py [--model all-MiniLM-L6-v2]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="", help="[embedding] model (unset: the default)")
    args = ap.parse_args()
    import search_corpus
    from search_quality import _chunk_matches

    from memsearch_tui.engine.search import Searcher, weak

    with tempfile.TemporaryDirectory() as tmp:
        root, project, queries = search_corpus.generate(Path(tmp))
        os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(Path(tmp) / "data")
        os.environ.pop("MEMSEARCH_DIR", None)
        config = {"embedding": {"model": args.model}} if args.model else {}
        with Searcher(root, project, config=config) as s:
            s.index()
            rows = {r.id: r for r in s.manifest.iter_chunks()}
            cut = weak.WEAK_KEYWORD
            for name, share in (("without the cut", 1.0), ("with the cut", cut)):
                weak.WEAK_KEYWORD = share
                ranks = []
                for q in queries:
                    hits = s._search(q["query"], "hybrid", 10, None, "all").hits
                    found = [_chunk_matches(rows.get(h.chunk_id), q["gold"]) for h in hits]
                    ranks.append(found.index(True) + 1 if True in found else None)
                n = len(ranks)
                r5 = sum(r is not None and r <= 5 for r in ranks) / n
                r10 = sum(r is not None for r in ranks) / n
                mrr = sum(1 / r for r in ranks if r) / n
                print(f"corpus hybrid {name}: recall@5 {r5:.3f} recall@10 {r10:.3f} MRR@10 {mrr:.3f} ({n} queries)")
            weak.WEAK_KEYWORD = cut


if __name__ == "__main__":
    main()
