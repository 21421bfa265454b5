"""Typing in the Search pane's box on a big memory (issue 37 item 5): per word typed, the
time from its last key to its first hits drawn (the first part, or the whole list) and to
the full list, the most threads added while it was typed (a pile-up: a cancelled worker's
thread runs on until its search ends, and the workers' pool grows), and the app's peak RSS.

Each word is typed a letter at a time, ``--gap`` seconds apart (0.2 s: a 60-words-a-minute
typist, slower than ``TYPE_DELAY`` so every letter's search starts and the next letter
supersedes it), then the box waits for the full answer (``--wait`` s at most). Run it on
the code before and after a change, on the same data, e.g. the copy of the cost curve's
1M corpus (``--root …/memory --project …/project``); the literal-search cache must be built
once first (``memsearch-tui search -s grep x``), or the first word pays for it. Timings
depend on the machine's load: print ``uptime`` beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


async def typed(pilot: Any, app: Any, word: str, gap: float, wait: float) -> dict[str, Any]:
    from memsearch_tui.tui.panes.search_pane import SearchBox

    pane = app.query_one("#pane-search")
    box = app.query_one(SearchBox)
    box.value = ""
    await pilot.pause(0.3)
    idle = threading.active_count()  # threads beside the searches (a cancelled one's thread runs on)
    most, shown, t0 = 0, pane._shown, 0.0
    for i, ch in enumerate(word):
        shown = pane._shown  # answers drawn before the last key: not the word's
        t0 = time.monotonic()
        await pilot.press(ch)
        end = t0 + (gap if i < len(word) - 1 else 0)
        while time.monotonic() < end:
            most = max(most, threading.active_count() - idle)
            await pilot.pause(0.01)
    first, full = None, None
    while time.monotonic() - t0 < wait:
        most = max(most, threading.active_count() - idle)
        if first is None and pane._shown > shown:
            first = time.monotonic() - t0
        status = str(pane.query_one("#search-status").render())
        busy = any(w.name == "search" and w.is_running for w in pane.workers)
        if pane._shown > shown and not busy and "still searching" not in status:
            full = time.monotonic() - t0
            break
        await pilot.pause(0.005)
    hits = len(pane.hits)
    return {"word": word, "first_ms": _ms(first), "full_ms": _ms(full), "hits": hits, "most_search_threads": most}


def _ms(s: float | None) -> int | None:
    return None if s is None else round(s * 1000)


async def main(root: Path, project: Path, words: list[str], gap: float, wait: float) -> list[dict[str, Any]]:
    from memsearch_tui.tui.app import MemsearchApp

    app = MemsearchApp(root, project, watch_files=False, remember_theme=False, prepare_index=False)
    out = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("6")
        await pilot.pause(1.0)
        await pilot.press("slash")
        await pilot.pause(0.3)
        for word in words:
            row = await typed(pilot, app, word, gap, wait)
            row["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            print(json.dumps(row, ensure_ascii=False), flush=True)
            out.append(row)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--project", type=Path, required=True)
    ap.add_argument("--words", default="e,deploy,部署,rollback plan,zzqx")
    ap.add_argument("--gap", type=float, default=0.2, help="seconds between letters")
    ap.add_argument("--wait", type=float, default=60.0, help="seconds a word may take")
    a = ap.parse_args()
    asyncio.run(main(a.root, a.project, a.words.split(","), a.gap, a.wait))
