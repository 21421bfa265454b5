"""What the stat rules of session 18 cost and save (benchmarks/README.md, Session 18 holes-engine).

    PYTHONPATH=TREE python benchmarks/stat_rules_bench.py sync ROOT PROJECT
        a search's freshness check with nothing changed (``sync_chunks``, every file
        stat-ed): the first sync in this process (it builds the manifest when there is
        none), then the median of 9 more; run it with PYTHONPATH set to each tree
    PYTHONPATH=TREE python benchmarks/stat_rules_bench.py digest FOLDER
        memsearch's input digest of FOLDER: the first call, then the median of 5 more
    PYTHONPATH=. python benchmarks/stat_rules_bench.py rows N
        the manifest's file rows at N rows, read as before (``SELECT * FROM files``) and with
        the ``file_stamps`` join, interleaved in one process (this branch only)

MEMSEARCH_TUI_DATA_DIR decides where the manifest and the kept digests go: one per tree.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path


def _median_ms(fn, n: int) -> float:  # type: ignore[no-untyped-def]
    xs = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        xs.append(time.perf_counter() - t)
    return statistics.median(xs) * 1000


def sync(root: str, project: str) -> None:
    from memsearch_tui.engine.search.indexer import sync_chunks
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.settings import load_settings

    s = load_settings(root, project, auto_model=False)
    m = Manifest(s.manifest_path)
    t = time.perf_counter()
    rep = sync_chunks(s, m)
    first = time.perf_counter() - t

    def again() -> None:
        r = sync_chunks(s, m)
        assert r.changed == 0 and r.removed == 0, r

    print(f"first sync {first:.2f} s (changed {rep.changed}); no-op sync median {_median_ms(again, 9):.0f} ms")


def digest(folder: str) -> None:
    from memsearch_tui.engine.memsearch import state

    t = time.perf_counter()
    d = state.input_digest(Path(folder))
    first = time.perf_counter() - t
    ms = _median_ms(lambda: state.input_digest(Path(folder)) == d or sys.exit("digest changed"), 5)
    print(f"first {first * 1000:.0f} ms; again median {ms:.0f} ms")


def rows(n: int) -> None:
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.manifest_rows import FileRow

    path = Path(f"/tmp/stat_rules_bench_{n}.sqlite3")
    path.unlink(missing_ok=True)
    m = Manifest(path)
    paths = [f"/x/proj/.memsearch/memory/day{i:07d}.md" for i in range(n)]
    m.db.executemany(
        "INSERT INTO files VALUES (?,?,?,?,?,?,?)",
        ((p, "S", "journal", "", 1_700_000_000 * 10**9 + i, 1000 + i, "a" * 40) for i, p in enumerate(paths)),
    )
    m.stamp_files((p, 1_700_000_000 * 10**9 + i, 5_000_000 + i) for i, p in enumerate(paths))
    m.commit()
    before, after = [], []
    q = "SELECT * FROM files WHERE scope IN (?)"
    for _ in range(7):
        before.append(_median_ms(lambda: {r[0]: FileRow(*r) for r in m.db.execute(q, ["S"]).fetchall()}, 1))
        after.append(_median_ms(lambda: m.files(["S"]), 1))
    m.close()
    path.unlink()
    a, b = statistics.median(before), statistics.median(after)
    print(f"{n} rows: SELECT * {a:.1f} ms, with file_stamps {b:.1f} ms, ratio {b / a:.2f}")


if __name__ == "__main__":
    what, *args = sys.argv[1:]
    {"sync": sync, "digest": digest, "rows": lambda n: rows(int(n))}[what](*args)
