"""Time-scoped questions (issue 36 item 4): right day first, with and without the time window.

The labelled set is tests/search/time_questions.py: four months of generated journal days
where seven topics recur, and 56 questions (28 English, 28 Chinese) that name a topic and a
time ("… last week?", "上上周日…"), answered by any day in that time that talks about it.
"before" runs the same question without the window (the searcher's content ranking on the
whole question, as before issue 36); "after" is ``Searcher.search``. Also prints the
resolver's cost per question. Run: ``.venv/bin/python benchmarks/time_quality.py [--hybrid]``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.search import time_questions as tq


def main() -> None:
    strategies = ["index", "auto"] + (["hybrid"] if "--hybrid" in sys.argv else [])
    os.environ["MEMSEARCH_TUI_NOW"] = tq.NOW
    base = Path(tempfile.mkdtemp(prefix="time-quality-"))
    os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(base / "data")
    os.environ["HOME"] = str(base / "home")
    root, project = tq.write(base)

    from memsearch_tui.engine.search import Searcher
    from memsearch_tui.engine.search.timewindow import read
    from memsearch_tui.engine.search.windowed import journal_day

    asked = tq.questions()
    print(
        f"{len(asked)} questions ({sum(lang == 'zh' for lang, _, _ in asked)} Chinese), {len(tq.days())} journal days"
    )
    print("| strategy | en before | en after | zh before | zh after | all after |")
    print("| --- | --- | --- | --- | --- | --- |")
    with Searcher(root, project) as s:
        if "hybrid" in strategies:
            s.index()
        for strategy in strategies:
            right = {(lang, when): 0 for lang in ("en", "zh") for when in ("before", "after")}
            n = {"en": 0, "zh": 0}
            for lang, q, ok in asked:
                n[lang] += 1
                before = s._search(q, strategy, 5)
                after = s.search(q, strategy=strategy, k=5)
                for when, res in (("before", before), ("after", after)):
                    right[lang, when] += bool(res.hits) and journal_day(res.hits[0].path) in ok
            cells = [f"{right[lang, w] / n[lang]:.3f}" for lang in ("en", "zh") for w in ("before", "after")]
            total = (right["en", "after"] + right["zh", "after"]) / len(asked)
            print(f"| {strategy} | {' | '.join(cells)} | {total:.3f} |")
    t = time.perf_counter()
    for _ in range(20):
        for _, q, _ in asked:
            read(q, tq.TODAY)
    per = (time.perf_counter() - t) / (20 * len(asked)) * 1e6
    print(f"resolver: {per:.0f} µs per question (median-free mean over {20 * len(asked)} reads)")


if __name__ == "__main__":
    main()
