"""The unset model's choice (issue 36 item 1) on the quality sets: what each memory measures,
which model ``auto`` picks, and the search it then runs beside today's default (MiniLM).

    python benchmarks/auto_model.py [--cmrc ../shared/data/cmrc-dev] [--skip-cmrc-search]

For every set the memory's CJK share (:func:`.languages.cjk_share`, the sample the rule
reads) and the choice. Where the choice is MiniLM (LoCoMo, the labelled corpus) the search
is today's by construction: the same model, collection and code. Where it is not (CMRC
dev) the 1,002 questions run through ``Searcher.search`` (hybrid and auto, k = 10, so the
weak-keyword rule and the query side are included, unlike ``search_quality.py``'s legs)
with each model: recall@5 / recall@10 / MRR@10 of the gold entry.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def choice(root: Path, project: Path | None) -> str:
    from memsearch_tui.engine.search.languages import cjk_share
    from memsearch_tui.engine.search.model_auto import decide

    share, sampled = cjk_share(root, project)
    c = decide(share)
    return f"{c.model} ({c.reason}; {sampled:,.0f} letters' worth read)"


def cmrc(data: Path, base: Path, search: bool, auto_only: bool = False) -> None:
    root = base / "cmrc" / "memory"
    shutil.copytree(data / "memory", root)
    project = base / "cmrc" / "proj"
    project.mkdir()
    os.environ.pop("MEMSEARCH_DIR", None)
    print(f"CMRC dev: {choice(root, project)}")
    if not search:
        return
    from memsearch_tui.engine.core.errors import InvalidInput
    from memsearch_tui.engine.search import Searcher

    qs = [json.loads(line) for line in (data / "questions.jsonl").read_text().splitlines() if line.strip()]
    print("| model | strategy | recall@5 | recall@10 | MRR@10 | index s |")
    print("| --- | --- | --- | --- | --- | --- |")
    models = (
        ("all-MiniLM-L6-v2 (today's default)", {"embedding": {"model": "all-MiniLM-L6-v2"}}),
        ("auto", {}),
    )
    for label, config in models[1:] if auto_only else models:
        os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(base / "cmrc" / f"data-{len(config)}")
        with Searcher(root, project, config=config) as s:
            t0 = time.perf_counter()
            s.index()
            took = time.perf_counter() - t0
            name = s.s.model_label if not config else label
            for strategy in ("hybrid", "auto"):
                ranks = []
                for q in qs:
                    try:
                        ids = [h.id for h in s.search(q["question"], strategy=strategy, k=10).hits]
                    except InvalidInput:  # a blank question in the set: a miss for every model
                        ids = []
                    ranks.append(ids.index(q["gold"]) + 1 if q["gold"] in ids else None)
                n = len(ranks)
                r5 = sum(r is not None and r <= 5 for r in ranks) / n
                r10 = sum(r is not None for r in ranks) / n
                mrr = sum(1 / r for r in ranks if r is not None) / n
                print(f"| {name} | {strategy} | {r5:.3f} | {r10:.3f} | {mrr:.3f} | {took:.0f} |", flush=True)


def corpus(base: Path) -> None:
    import search_corpus

    root, project, _ = search_corpus.generate(base / "corpus")
    os.environ.pop("MEMSEARCH_DIR", None)
    print(f"labelled corpus: {choice(root, project)}")


def locomo(data: Path, base: Path) -> None:
    for conv in sorted(p for p in data.iterdir() if p.is_dir() and (p / "questions.jsonl").is_file()):
        os.environ["MEMSEARCH_DIR"] = str(conv)
        print(f"LoCoMo {conv.name}: {choice(base / 'none', base)}")
    os.environ.pop("MEMSEARCH_DIR", None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmrc", type=Path, default=SHARED / "cmrc-dev")
    ap.add_argument("--locomo", type=Path, default=SHARED / "locomo-dev")
    ap.add_argument("--skip-cmrc-search", action="store_true", help="the shares and choices only")
    ap.add_argument("--auto-only", action="store_true", help="CMRC: the auto choice only, not MiniLM beside it")
    args = ap.parse_args()
    base = Path(tempfile.mkdtemp(prefix="auto-model-"))
    os.environ["HOME"] = str(base / "home")  # no user config: the unset model
    os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(base / "data")
    try:
        locomo(args.locomo, base)
        corpus(base)
        cmrc(args.cmrc, base, not args.skip_cmrc_search, args.auto_only)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
