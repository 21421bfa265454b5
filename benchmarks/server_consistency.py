"""What read-your-writes costs on a Milvus server: one search at Bounded (the server's
default), Session (ours, for searches) and Strong (ours, for counts), the three side by side
in one run, on the same collection, owner-filtered as the app searches.

    python scripts/milvus_server.py start /tmp/srv --parent $$   # prints the URI
    .venv/bin/python benchmarks/server_consistency.py http://127.0.0.1:PORT [--rows 5000] [--runs 60]

Two cases: a quiet collection (nothing written lately) and a search right after a write
of this process (a 32-row upsert each time), where Session/Strong may have to wait.
Medians and p90 in ms; say the load (`uptime`) next to the numbers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import uuid
from pathlib import Path

from memsearch_tui.engine.search.milvus_backend import MilvusVectors

DIM = 384
LEVELS = ("Bounded", "Session", "Strong")


def _row(i: int) -> dict[str, object]:
    return {
        "id": f"c{i}",
        "vec": [random.random() for _ in range(DIM)],
        "path": f"/m/{i}.md",
        "scope": "store",
        "kind": "entry",
        "entry_id": f"e{i}",
        "heading": "h",
        "start_line": 1,
        "end_line": 2,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("uri")
    ap.add_argument("--rows", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=60)
    args = ap.parse_args()
    state = Path("/tmp") / f"consistency-{uuid.uuid4().hex[:8]}"
    v = MilvusVectors(args.uri, "", f"bench_{uuid.uuid4().hex[:8]}", state)
    v.ensure(DIM)
    for i in range(0, args.rows, 500):
        v.insert([_row(j) for j in range(i, min(args.rows, i + 500))])
    v.flush()
    query = [random.random() for _ in range(DIM)]
    expr = f'({v._mine()}) and (scope in ["store"])'
    times: dict[tuple[str, str], list[float]] = {}
    for run in range(args.runs):
        for case in ("quiet", "after a write"):
            for level in LEVELS:
                if case == "after a write":
                    v.insert([_row(args.rows + (run * 32 + j) % 512) for j in range(32)])
                t0 = time.perf_counter()
                v.client.search(
                    v.collection, data=[query], limit=10, filter=expr, output_fields=[], consistency_level=level
                )
                times.setdefault((case, level), []).append((time.perf_counter() - t0) * 1000)
    print(f"| case ({args.rows} rows, {args.runs} runs) | " + " | ".join(LEVELS) + " |")
    print("|---|" + "---|" * len(LEVELS))
    for case in ("quiet", "after a write"):
        cells = []
        for level in LEVELS:
            t = sorted(times[(case, level)])
            cells.append(f"{statistics.median(t):.1f} (p90 {t[int(len(t) * 0.9) - 1]:.1f})")
        print(f"| {case} | " + " | ".join(cells) + " |")
    v.client.drop_collection(v.collection)
    v.close()


if __name__ == "__main__":
    main()
