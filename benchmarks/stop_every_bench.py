"""Texts/s of the bulk encoder: a BATCH-text batch in one encode() call vs in calls of N texts.

The build checks the app's stop between such calls (``indexer.STOP_EVERY``); this says what
the smaller calls cost. Alternating, median of R rounds:

    PYTHONPATH=<tree> python benchmarks/stop_every_bench.py R N
"""

from __future__ import annotations

import statistics
import sys
import time

from memsearch_tui.engine.search.embeddings import index_encoder
from memsearch_tui.engine.search.indexer import BATCH


def main() -> None:
    rounds, every = int(sys.argv[1]), int(sys.argv[2])
    enc = index_encoder(None)
    texts = [
        f"Moved the nightly backup job {n} to the new storage bucket and checked restore step {n}" for n in range(BATCH)
    ]
    enc.encode(texts[:32])  # warm
    res: dict[str, list[float]] = {"one": [], "sub": []}
    for r in range(rounds):
        for how in ("one", "sub") if r % 2 == 0 else ("sub", "one"):
            t = time.perf_counter()
            for i in range(0, BATCH, BATCH if how == "one" else every):
                enc.encode(texts[i : i + (BATCH if how == "one" else every)])
            res[how].append(BATCH / (time.perf_counter() - t))
    m = {k: statistics.median(v) for k, v in res.items()}
    print(type(enc).__name__, every, {k: round(v, 1) for k, v in m.items()}, "ratio", round(m["sub"] / m["one"], 3))


if __name__ == "__main__":
    main()
