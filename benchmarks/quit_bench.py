"""Seconds from quitting the app to its end while the vector index is being built (issue 37 item 6).

A generated journal (``journal_gen``: ``--turns`` turns, 100 a day), the app at its Search
pane, and a build under way with the real model and Milvus Lite: ``--via v`` (the pane's
index action, with its progress bar) or ``--via search`` (a first meaning search that
embeds everything pending). Once ``--chunks`` texts are embedded (``v``) or ``--after``
seconds have passed (``search``), the app exits; the time counted ends when the app's
``run`` returns (its worker threads joined: what holds a terminal). Then one ``vectors
index`` completes the index and the script checks vectors == chunks, each once.

    PYTHONPATH=<tree> python benchmarks/quit_bench.py --via v --turns 3000
    PYTHONPATH=<tree> python benchmarks/quit_bench.py --via v --corpus /tmp/j18/j10k --chunks 240

``--corpus``: a copy of that ``journal_gen`` corpus (``memory/``, ``project/``; 10,000 days
in session 20's runs) instead of a generated one. ``--no-finish``: no ``vectors index`` after
(at 10,000 days it embeds ~38,000 texts: minutes; the tests check that a stopped build completes).

Run each tree in a process of its own with a time limit (the old code may never return).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--via", choices=("v", "search"), default="v")
    ap.add_argument("--turns", type=int, default=3000)
    ap.add_argument("--chunks", type=int, default=100, help="texts embedded before quitting (--via v)")
    ap.add_argument("--after", type=float, default=15.0, help="seconds before quitting (--via search)")
    ap.add_argument("--corpus", type=Path, help="copy this journal_gen corpus instead of generating one")
    ap.add_argument("--no-finish", action="store_true", help="skip the completing `vectors index`")
    a = ap.parse_args()
    import journal_gen

    tmp = Path(tempfile.mkdtemp(prefix="quit-bench-"))
    if a.corpus is not None:
        shutil.copytree(a.corpus, tmp / "corpus", symlinks=True)
    else:
        journal_gen.generate(tmp / "corpus", a.turns, per_day=100)
    root, project = tmp / "corpus" / "memory", tmp / "corpus" / "project"
    os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(tmp / "data")
    os.environ["HOME"] = str(tmp / "home")
    from memsearch_tui.tui.app import MemsearchApp

    app = MemsearchApp(root, project, watch_files=False, prepare_index=False, panes_ahead=False)
    quit_at: list[float] = []

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("6")
            await pilot.pause(0.5)
            pane = app.query_one("#pane-search")
            if a.via == "v":
                pane.action_build_index()
                bar = app.query_one("#index-progress")
                while (bar.progress or 0) < a.chunks:
                    await pilot.pause(0.05)
            else:
                pane.run_query("cache eviction for the payments service", "vector")
                await pilot.pause(a.after)
            quit_at.append(time.monotonic())

    asyncio.run(run())
    exit_s = time.monotonic() - quit_at[0]
    from memsearch_tui.engine.api import Memory

    out: dict[str, object] = {"via": a.via, "turns": str(a.corpus) if a.corpus else a.turns, "exit_s": round(exit_s, 2)}
    if not a.no_finish:
        with Memory(root, project) as mem:
            mem.vectors.index()
            st = mem.vectors.status()
        out.update(chunks=st.chunks, vectors=st.vectors, missing=st.drift.missing_vectors)
    shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
