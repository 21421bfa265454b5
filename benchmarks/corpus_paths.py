"""The labelled corpus (860 files: ``auto`` starts with hybrid) through ``Searcher.search``:
recall@1 / recall@5 / MRR@10 of ``auto`` and ``hybrid`` per query kind, and how many ``auto``
searches the weak-keyword rule sent to the meaning leg first (issue 36).

``search_quality.py corpus`` scores the legs; this script runs what a person's search runs,
so a change in ``auto``'s tier rules shows. It runs on any commit (only ``Searcher.search``
is used): ``PYTHONPATH=/path/to/other/checkout python benchmarks/corpus_paths.py`` scores
another checkout on the same corpus.

    python benchmarks/corpus_paths.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    import search_corpus

    out = Path(tempfile.mkdtemp(prefix="corpus-paths-"))
    root, project, queries = search_corpus.generate(out)
    os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(out / "data")
    os.environ["HOME"] = str(out / "home")
    os.environ.pop("MEMSEARCH_DIR", None)

    from memsearch_tui.engine.search import Searcher

    print(f"labelled corpus: {len(queries)} queries; code from {sys.modules[Searcher.__module__].__file__}")
    print("| strategy | kind | queries | recall@1 | recall@5 | MRR@10 | weak rule used |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    with Searcher(root, project, config={}) as s:
        s.index()
        rows = s.manifest
        for strategy in ("auto", "hybrid"):
            kinds: dict[str, list[tuple[int | None, bool]]] = {}
            for q in queries:
                res = s.search(q["query"], strategy=strategy, k=10)
                texts = rows.texts_by_id([h.chunk_id for h in res.hits])
                gold = q["gold"]
                ok = [
                    (h.id == gold)
                    if not gold.startswith("journal:")
                    else (
                        Path(h.path).stem == gold.split(":")[1] and gold.split(":", 2)[2] in texts.get(h.chunk_id, "")
                    )
                    for h in res.hits
                ]
                rank = ok.index(True) + 1 if True in ok else None
                kinds.setdefault(q["kind"], []).append((rank, "weak" in res.reason))
            every = [r for rs in kinds.values() for r in rs]
            for kind, rs in [*sorted(kinds.items()), ("all", every)]:
                n = len(rs)
                r1 = sum(r == 1 for r, _ in rs) / n
                r5 = sum(r is not None and r <= 5 for r, _ in rs) / n
                mrr = sum(1 / r for r, _ in rs if r) / n
                print(f"| {strategy} | {kind} | {n} | {r1:.3f} | {r5:.3f} | {mrr:.3f} | {sum(w for _, w in rs)} |")


if __name__ == "__main__":
    main()
