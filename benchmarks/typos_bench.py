"""The spelling fix's cost on a large vocabulary (issue 36 item 3): ``typos.corrections``
for a query of three misspelled words over an FTS5 table of N distinct random words (the
manifest's own table layout and tokenizer), median of several runs.

    python benchmarks/typos_bench.py [--terms 200000]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import string
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memsearch_tui.engine.search import typos
from memsearch_tui.engine.search.manifest import FTS_TOKENIZE


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--terms", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(7)
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE VIRTUAL TABLE fts USING fts5(head, body, ctx, tokenize='{FTS_TOKENIZE}')")
    words = {"".join(rng.choices(string.ascii_lowercase, k=rng.randint(4, 12))) for _ in range(args.terms)}
    words |= {"postgres", "rollback", "android", "backups"}
    ws = sorted(words)
    rows = [("", " ".join(ws[i : i + 50]), "") for i in range(0, len(ws), 50)]
    db.executemany("INSERT INTO fts VALUES (?, ?, ?)", rows)
    q = "postgress rollbak andriod"
    t = time.perf_counter()
    typos.corrections(db, q)
    print(f"first (reads the vocabulary of 3 letters, imports rapidfuzz): {(time.perf_counter() - t) * 1000:.0f} ms")
    times = []
    for _ in range(args.runs):
        t = time.perf_counter()
        fixes = typos.corrections(db, q)
        times.append(time.perf_counter() - t)
    print(f"{len(words)} distinct words; {q!r} → {[f.describe() for f in fixes]}")
    print(f"again (vocabulary kept): median {statistics.median(times) * 1000:.1f} ms over {args.runs} runs (3 words)")
    plain = []
    for _ in range(args.runs):
        t = time.perf_counter()
        typos.corrections(db, "postgres rollback android")
        plain.append(time.perf_counter() - t)
    print(f"a query whose words the index holds: median {statistics.median(plain) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
