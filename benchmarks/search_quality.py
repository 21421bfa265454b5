"""Search quality: recall@5, recall@10 and MRR per strategy, on LoCoMo and on a labelled corpus.

    python benchmarks/search_quality.py locomo [--data ../shared/data/locomo-dev]
    python benchmarks/search_quality.py cmrc [--data ../shared/data/cmrc-dev]
    python benchmarks/search_quality.py corpus

LoCoMo (CC BY-NC 4.0) is read in place at run time, never copied: each conversation's
``memory/`` folder is indexed as a project's journals through ``MEMSEARCH_DIR``. A question
counts as found at k when one of the first k hits' own text (not its embedding context)
contains one of its gold evidence tags ``[D<session>:<turn>]``. The labelled corpus comes
from ``benchmarks/search_corpus.py``. CMRC 2018 dev (CC BY-SA 4.0: Chinese Wikipedia
paragraphs as store entries, questions written by people) is copied to a temp dir (the
search writes its literal-search cache into the memory root) and each question's gold
entry must be among the first k hits. "hybrid (Searcher)" is the fusion the search runs
(:meth:`Searcher.fuse` with :meth:`Searcher.weights_for` and the language check). Each strategy's ranking is computed once per query;
fusion variants are computed from those rankings.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.fusion import convex, rrf
from memsearch_tui.engine.search.grep import grep
from memsearch_tui.engine.search.hybrid_leg import CANDIDATES, RRF_K
from memsearch_tui.engine.search.vector_leg import DENSE_CANDIDATES

DEPTH = CANDIDATES
EMBEDDING: dict[str, dict[str, str]] = {}  # --model: {"embedding": {"model": ...}} merged into every config


def metrics(ranks: list[int | None]) -> dict[str, float]:
    """ranks: 1-based rank of the first relevant hit (None when not in the top DEPTH)."""
    n = len(ranks)
    r5 = sum(1 for r in ranks if r is not None and r <= 5) / n
    r10 = sum(1 for r in ranks if r is not None and r <= 10) / n
    mrr = sum(1.0 / r for r in ranks if r is not None and r <= 10) / n
    return {"recall@5": round(r5, 3), "recall@10": round(r10, 3), "mrr": round(mrr, 3)}


def first_rank(ranking: list[str], relevant: Callable[[str], bool]) -> int | None:
    for i, cid in enumerate(ranking[:DEPTH], 1):
        if relevant(cid):
            return i
    return None


class MilvusBM25:
    """Milvus Lite's own BM25 (a BM25 function over a VARCHAR with its default analyzer)."""

    def __init__(self, path: Path, rows) -> None:
        from pymilvus import DataType, Function, FunctionType, MilvusClient

        self.c = MilvusClient(str(path))
        sch = self.c.create_schema(auto_id=False)
        sch.add_field("id", DataType.VARCHAR, is_primary=True, max_length=64)
        sch.add_field("text", DataType.VARCHAR, max_length=16384, enable_analyzer=True)
        sch.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
        sch.add_function(
            Function(
                name="bm25", function_type=FunctionType.BM25, input_field_names=["text"], output_field_names=["sparse"]
            )
        )
        ip = self.c.prepare_index_params()
        ip.add_index("sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25")
        self.c.create_collection("bm25", schema=sch)
        self.c.create_index("bm25", ip, sync=False)
        self.c.load_collection("bm25")
        batch = [{"id": r.id, "text": r.embed_text[:16000]} for r in rows]
        for i in range(0, len(batch), 2000):
            self.c.insert("bm25", batch[i : i + 2000])

    def rank(self, query: str, depth: int) -> list[tuple[str, float]]:
        res = self.c.search(
            "bm25", data=[query], anns_field="sparse", limit=depth, search_params={"metric_type": "BM25"}
        )
        return [(h["id"], abs(float(h["distance"]))) for h in (res[0] if res else [])]


class Run:
    """Rankings of every strategy for a list of (query, relevance test) pairs on one Searcher."""

    def __init__(self, s: Searcher, source: str, bm25: MilvusBM25 | None = None) -> None:
        self.s, self.source, self.bm25 = s, source, bm25
        self.rankings: dict[str, list[list[str]]] = {
            "grep": [],
            "index": [],
            "vector": [],
            "milvus-bm25": [],
            "hybrid (Searcher)": [],
        }
        self.scores: dict[str, list[list[float]]] = {"index": [], "vector": [], "milvus-bm25": []}
        self.texts: dict[str, str] = {}

    def add(self, query: str) -> None:
        s = self.s
        kw = s.keyword_ranking(query, DEPTH, None, self.source)
        dense = s.dense_ranking(query, DEPTH, None, self.source)
        self.rankings["index"].append([r.id for r, _ in kw])
        self.rankings["vector"].append([cid for cid, _ in dense])
        self.scores["index"].append([sc for _, sc in kw])
        self.scores["vector"].append([sc for _, sc in dense])
        self.rankings["grep"].append(self._grep(query))
        if self.bm25 is not None:
            mb = self.bm25.rank(query, DEPTH)
            self.rankings["milvus-bm25"].append([c for c, _ in mb])
            self.scores["milvus-bm25"].append([x for _, x in mb])
            for cid, row in s.manifest.chunks_by_id([c for c, _ in mb if c not in self.texts]).items():
                self.texts[cid] = row.text
        need = [cid for cid, _ in dense if cid not in self.texts]
        for cid, row in s.manifest.chunks_by_id(need).items():
            self.texts[cid] = row.text
        for r, _ in kw:
            self.texts[r.id] = r.text
        pairs = [(r.id, sc) for r, sc in kw]
        deep = s.dense_ranking(query, DENSE_CANDIDATES, None, self.source)
        for cid, row in s.manifest.chunks_by_id([c for c, _ in deep if c not in self.texts]).items():
            self.texts[cid] = row.text
        fused, *_ = s.fused_ranking(query, deep, pairs, {c: self.texts[c] for c, _ in deep + pairs if c in self.texts})
        self.rankings["hybrid (Searcher)"].append([c for c, _ in fused])

    def _grep(self, query: str) -> list[str]:
        """grep ranks files; map each file hit to the chunk holding its first matching line."""
        hits = grep(self._files, query, DEPTH)
        out = []
        for h in hits:
            for row in self._by_path.get(h.path, []):
                if row.start <= h.start <= row.end:
                    out.append(row.id)
                    self.texts[row.id] = row.text
                    break
        return out

    def prepare(self) -> None:
        self._files = self.s._files(None, self.source)
        self._by_path: dict[str, list] = {}
        for row in self.s.manifest.iter_chunks():
            self._by_path.setdefault(row.path, []).append(row)

    def hybrid(
        self,
        i: int,
        k: float = RRF_K,
        w_dense: float = 1.0,
        w_kw: float = 1.0,
        cc: float | None = None,
        kw: str = "index",
    ) -> list[str]:
        if cc is not None:  # the shipped fusion code, keyword share cc
            dense = list(zip(self.rankings["vector"][i], self.scores["vector"][i]))
            keyword = list(zip(self.rankings[kw][i], self.scores[kw][i]))
            return [c for c, _ in convex([dense, keyword], [1.0 - cc, cc])]
        fused = rrf([self.rankings["vector"][i], self.rankings[kw][i]], k=k, weights=[w_dense, w_kw])
        return [cid for cid, _ in fused]


DUMP: Path | None = None


def dump(run: Run, tests: list[Callable[[str], bool]], name: str) -> None:
    """Save rankings, scores and which candidates are relevant (for offline fusion studies)."""
    if DUMP is None:
        return
    import pickle

    rel = []
    for i, t in enumerate(tests):
        cands = {c for lists in run.rankings.values() if len(lists) > i for c in lists[i]}
        rel.append({c for c in cands if t(c)})
    with open(DUMP.with_suffix(f".{name}.pkl"), "wb") as fh:
        pickle.dump({"rankings": run.rankings, "scores": run.scores, "relevant": rel}, fh)


def evaluate(
    run: Run, tests: list[Callable[[str], bool]], variants: dict[str, dict], name: str = ""
) -> dict[str, dict]:
    dump(run, tests, name)
    out = {}
    if not run.rankings.get("milvus-bm25"):
        variants = {k: v for k, v in variants.items() if v.get("kw") != "milvus-bm25"}
    for name in ("grep", "index", "vector", "milvus-bm25", "hybrid (Searcher)"):
        if not run.rankings.get(name):
            continue
        out[name] = metrics([first_rank(r, t) for r, t in zip(run.rankings[name], tests)])
    for name, kw in variants.items():
        out[name] = metrics([first_rank(run.hybrid(i, **kw), t) for i, t in enumerate(tests)])
    return out


VARIANTS = {
    "hybrid (shipped: convex, keyword 0.5)": {"cc": 0.5},
    "hybrid convex, keyword 0.4": {"cc": 0.4},
    "hybrid convex, keyword 0.6": {"cc": 0.6},
    "hybrid convex, keyword 0.7": {"cc": 0.7},
    "hybrid rrf k=60": {},
    "hybrid rrf k=20": {"k": 20.0},
    "hybrid rrf keyword×3": {"w_kw": 3.0},
    "hybrid convex 0.5 with milvus-bm25": {"cc": 0.5, "kw": "milvus-bm25"},
    "hybrid rrf with milvus-bm25": {"kw": "milvus-bm25"},
}


def _rows_with_embed_text(s: Searcher):
    from memsearch_tui.engine.search.manifest import ChunkRow

    cols = "rid, id, path, scope, kind, entry_id, heading, start, end, text, embed_text"
    for r in s.manifest.db.execute(f"SELECT {cols} FROM chunks"):
        yield ChunkRow(*r)


def locomo(data: Path, context_turns: int, with_bm25: bool = True) -> dict:
    convs = sorted(p for p in data.iterdir() if p.is_dir() and (p / "questions.jsonl").is_file())
    runs, all_tests, took, cats = [], [], 0.0, []
    each_tag: list[list[Callable[[str], bool]]] = []  # per question, one test per gold turn
    for conv in convs:
        qs = [json.loads(line) for line in (conv / "questions.jsonl").read_text().splitlines() if line.strip()]
        cats += [q.get("category") for q in qs]
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(Path(tmp) / "data")
            os.environ["MEMSEARCH_DIR"] = str(conv)  # read in place: <conv>/memory/*.md
            root = Path(tmp) / "memory"
            s = Searcher(root, Path(tmp), config={**EMBEDDING, "tui": {"search": {"context_turns": context_turns}}})
            s.index()
            bm25 = MilvusBM25(Path(tmp) / "bm25.db", list(_rows_with_embed_text(s))) if with_bm25 else None
            run = Run(s, "journal", bm25)
            run.prepare()
            t0 = time.perf_counter()
            for q in qs:
                run.add(q["question"])
                tags = [f"[{e}]" for e in q["evidence"]]
                all_tests.append(lambda cid, tags=tags, texts=run.texts: any(t in texts.get(cid, "") for t in tags))
                each_tag.append([lambda cid, t=t, texts=run.texts: t in texts.get(cid, "") for t in tags])
            took += time.perf_counter() - t0
            s.close()
            runs.append(run)
    merged = Run.__new__(Run)
    merged.rankings = {
        k: [r for run in runs for r in run.rankings[k]] for k in ("grep", "index", "vector", "hybrid (Searcher)")
    }
    merged.rankings["milvus-bm25"] = [r for run in runs for r in run.rankings["milvus-bm25"]]
    merged.scores = {k: [r for run in runs for r in run.scores[k]] for k in ("index", "vector", "milvus-bm25")}
    res = evaluate(merged, all_tests, VARIANTS, "locomo")
    res["_questions"] = len(all_tests)
    res["_ms_per_query_all_strategies"] = round(took / len(all_tests) * 1000, 1)
    res["_by_category"] = by_category(merged, all_tests, cats, each_tag)
    return res


CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def by_category(
    run: Run, tests: list[Callable[[str], bool]], cats: list[object], each_tag: list[list[Callable[[str], bool]]]
) -> dict[str, str]:
    """recall@5 / MRR of index, vector and the Searcher's hybrid per LoCoMo category, and the
    hybrid's recall_all@5 / @10 (every gold turn of the question among the first k)."""
    out = {}
    for cat in sorted({c for c in cats if isinstance(c, int)}):
        idx = [i for i, c in enumerate(cats) if c == cat]
        cells = []
        for name in ("index", "vector", "hybrid (Searcher)"):
            m = metrics([first_rank(run.rankings[name][i], tests[i]) for i in idx])
            cells.append(f"{name} {m['recall@5']:.3f}/{m['mrr']:.3f}")
        every = [
            sum(all(any(t(c) for c in run.rankings["hybrid (Searcher)"][i][:k]) for t in each_tag[i]) for i in idx)
            / len(idx)
            for k in (5, 10)
        ]
        cells.append(f"hybrid recall_all@5/@10 {every[0]:.3f}/{every[1]:.3f}")
        out[f"{cat} {CATEGORY_NAMES.get(cat, '')} ({len(idx)})"] = "; ".join(cells)
    return out


def cmrc(data: Path, out: Path) -> dict:
    """CMRC dev: store entries copied into ``out``; found = the gold entry among the hits."""
    import shutil

    root = out / "memory"
    shutil.copytree(data / "memory", root)
    project = out / "proj"
    project.mkdir()
    os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(out / "data")
    os.environ.pop("MEMSEARCH_DIR", None)
    qs = [json.loads(line) for line in (data / "questions.jsonl").read_text().splitlines() if line.strip()]
    s = Searcher(root, project, config=dict(EMBEDDING))
    s.index()
    run = Run(s, "store")
    run.prepare()
    rows = {r.id: r.entry_id for r in s.manifest.iter_chunks()}
    tests = []
    for q in qs:
        run.add(q["question"])
        tests.append(lambda cid, gold=q["gold"]: rows.get(cid) == gold)
    res = evaluate(run, tests, VARIANTS, "cmrc")
    res["_questions"] = len(qs)
    s.close()
    return res


def corpus(out: Path) -> dict:
    import search_corpus

    root, project, queries = search_corpus.generate(out)
    os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(out / "data")
    os.environ.pop("MEMSEARCH_DIR", None)
    s = Searcher(root, project, config=dict(EMBEDDING))
    s.index()
    run = Run(s, "all", MilvusBM25(out / "bm25.db", list(_rows_with_embed_text(s))))
    run.prepare()
    tests = []
    rows = {r.id: r for r in s.manifest.iter_chunks()}
    for q in queries:
        run.add(q["query"])
        gold = q["gold"]
        tests.append(lambda cid, gold=gold: _chunk_matches(rows.get(cid), gold))
    res = evaluate(run, tests, VARIANTS, "corpus")
    res["_queries"] = len(queries)
    by_kind: dict[str, list[int]] = {}
    for i, q in enumerate(queries):
        by_kind.setdefault(q["kind"], []).append(i)
    for kind, idx in by_kind.items():
        for name in ("index", "vector", "hybrid"):
            ranking = (lambda i: run.hybrid(i, cc=0.5)) if name == "hybrid" else (lambda i, n=name: run.rankings[n][i])
            res.setdefault("_by_kind", {}).setdefault(kind, {})[name] = metrics(
                [first_rank(ranking(i), tests[i]) for i in idx]
            )["recall@5"]
    s.close()
    return res


def _chunk_matches(row, gold: str) -> bool:
    """gold is an entry id (store) or 'journal:<file stem>:<marker>' for a journal fact."""
    if row is None:
        return False
    if gold.startswith("journal:"):
        _, stem, marker = gold.split(":", 2)
        return Path(row.path).stem == stem and marker in row.text
    return row.entry_id == gold


def from_dump(path: Path) -> dict:
    import pickle

    with open(path, "rb") as fh:
        d = pickle.load(fh)
    run = Run.__new__(Run)
    run.rankings, run.scores = d["rankings"], d["scores"]
    tests = [lambda cid, rel=rel: cid in rel for rel in d["relevant"]]
    res = evaluate(run, tests, VARIANTS, "redo")
    res["_queries"] = len(tests)
    return res


def table(res: dict) -> str:
    lines = ["| strategy | recall@5 | recall@10 | MRR |", "| --- | --- | --- | --- |"]
    for name, m in res.items():
        if not name.startswith("_"):
            lines.append(f"| {name} | {m['recall@5']:.3f} | {m['recall@10']:.3f} | {m['mrr']:.3f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("which", choices=["locomo", "cmrc", "corpus"])
    ap.add_argument("--data", type=Path, help="default: ../shared/data/locomo-dev or cmrc-dev")
    ap.add_argument("--context-turns", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--model", default="", help="[embedding] model (unset: the default)")
    ap.add_argument("--dump", type=Path, help="save rankings for offline fusion studies")
    ap.add_argument("--from-dump", type=Path, help="re-score fusion variants from a saved dump (no indexing)")
    args = ap.parse_args()
    global DUMP
    DUMP = args.dump
    if args.model:
        EMBEDDING["embedding"] = {"model": args.model}
    if args.from_dump:
        res = from_dump(args.from_dump.with_suffix(f".{args.which}.pkl"))
    elif args.which in ("locomo", "cmrc"):
        data = (args.data or Path(__file__).resolve().parents[2] / "shared" / "data" / f"{args.which}-dev").resolve()
        if args.which == "locomo":
            res = locomo(data, args.context_turns)
        else:
            with tempfile.TemporaryDirectory() as tmp:
                res = cmrc(data, Path(tmp))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            res = corpus(Path(tmp))
    print(json.dumps(res, indent=1) if args.json else table(res))
    for key, value in res.items():
        if key.startswith("_"):
            print(f"{key[1:]}: {value}")


if __name__ == "__main__":
    main()
