"""LoCoMo dev, one ranking technique at a time, on a split held back (issue 36 item 5).

Each conversation is indexed once (``--cache DIR`` keeps the indexes between runs), the
legs of the shipped hybrid ranking are read from the real Searcher (keyword 50 deep, vector
200 deep, the chunks' vectors from its mirror), and each technique re-ranks them beside the
shipped fusion (convex, keyword 0.5, then the speaker boost). Split A = conv-26 + conv-30
(231 questions: the tuning half), B = conv-41 (152: the confirming half); a technique is
worth keeping only when it helps on both. Per LoCoMo category: recall@5 / MRR@10 and
recall_all@5 / @10 (every gold turn of the question among the first k hits).

    python benchmarks/locomo_study.py [--data ../shared/data/locomo-dev] [--cache /tmp/locomo-idx]
        [--models all-MiniLM-L6-v2,multilingual-e5-small]

Each model named in ``--models`` indexes the conversations (its own cache folder); the
techniques are run with each model's vector leg (its cosine floor applied, as the Searcher
does), then the grids: the keyword weight per model, and the models' vector legs fused
together with the keyword leg (``both``).

The data (CC BY-NC 4.0) is read in place, never copied.
"""

from __future__ import annotations

import math
import os
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_util import locomo_args, locomo_conversations

from memsearch_tui.engine.search import Searcher, speakers, weak
from memsearch_tui.engine.search.embeddings import embed_query
from memsearch_tui.engine.search.fusion import convex, rrf
from memsearch_tui.engine.search.keyword_index import Stemmer
from memsearch_tui.engine.search.tokenize import tokens
from memsearch_tui.engine.search.vector_leg import cosine_floor

SPLITS = {"A": ("conv-26", "conv-30"), "B": ("conv-41",)}
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KW_DEPTH, DENSE_DEPTH, W = 50, 200, 0.5
MODELS = ("all-MiniLM-L6-v2", "multilingual-e5-small")
Ranked = list[tuple[str, float]]


class Conv:
    """One conversation's chunks, their order within each day, stems and each model's vectors."""

    def __init__(self, name: str, searchers: dict[str, Searcher], stemmer: Stemmer) -> None:
        self.name = name
        s = next(iter(searchers.values()))
        rows = list(s.manifest.iter_chunks())
        self.text = {r.id: r.text for r in rows}
        self.day = {r.id: r.path for r in rows}
        by_day: dict[str, list[tuple[int, str]]] = {}
        for r in rows:
            by_day.setdefault(r.path, []).append((r.start, r.id))
        self.neighbours: dict[str, list[str]] = {}
        for turns in by_day.values():
            ids = [cid for _, cid in sorted(turns)]
            for i, cid in enumerate(ids):
                self.neighbours[cid] = ids[max(0, i - 1) : i] + ids[i + 1 : i + 2]
        self.tf = {}
        for cid, text in self.text.items():
            words = tokens(text)
            stems = stemmer.terms(words)
            self.tf[cid] = Counter(x for w in words for x in stems[w])
        self.days: dict[str, Counter[str]] = {}
        for cid, tf in self.tf.items():
            self.days.setdefault(self.day[cid], Counter()).update(tf)
        self.vec_of: dict[str, dict[str, object]] = {}
        self.mats: dict[str, tuple[list[str], object, float]] = {}
        for model, sm in searchers.items():
            mirror = sm.mirror()
            self.vec_of[model] = {cid: mirror.mat[i] for i, cid in enumerate(mirror.ids)}
            self.mats[model] = (mirror.ids, mirror.mat, cosine_floor(sm.query_encoder()))
        self.speaker = {cid: speakers.speaker_of(t) for cid, t in self.text.items()}
        self.names = {x for x in self.speaker.values() if x}

    def dense(self, vec, model: str) -> Ranked:
        """The model's 200 nearest turns, scored as the Searcher's vector leg scores them
        (the cosine above the model's floor)."""
        import numpy as np

        ids, mat, floor = self.mats[model]
        sims = mat @ vec
        top = np.argsort(-sims)[:DENSE_DEPTH]
        return [(ids[i], (float(sims[i]) - floor) / (1.0 - floor)) for i in top]


class Question:
    """One question, its legs from the real Searchers; :attr:`model` names the vector leg
    the techniques use (:meth:`using`)."""

    def __init__(self, q: dict, conv: Conv, searchers: dict[str, Searcher], stemmer: Stemmer) -> None:
        self.q, self.conv, self.text = q, conv, q["question"]
        self.category = q.get("category")
        self.tags = [f"[{e}]" for e in q["evidence"]]
        s = next(iter(searchers.values()))
        self.kw = [(r.id, sc) for r, sc in s.keyword_ranking(self.text, KW_DEPTH, None, "journal")]
        self.vecs = {m: embed_query(sm.query_encoder(), self.text) for m, sm in searchers.items()}
        self.denses = {m: conv.dense(v, m) for m, v in self.vecs.items()}
        self.encoders = {m: sm.query_encoder() for m, sm in searchers.items()}
        terms = weak.content_terms(self.text)
        stems = stemmer.terms(terms)
        self.stems = [x for t in terms for x in stems[t]]
        self.best_matched = s.matched(self.text, conv.text[self.kw[0][0]]) if self.kw else ()
        # the Searcher's weak-keyword cut (engine/search/weak.py): the keyword weight × 0.2
        self.weak = bool(weak.weak_top(s, self.text, self.kw, conv.text))
        self.searcher = s
        self.model = next(iter(searchers))

    def using(self, model: str) -> Question:
        self.model = model
        return self

    @property
    def vec(self):
        return self.vecs[self.model]

    @property
    def dense(self) -> Ranked:
        return self.denses[self.model]

    def encode(self, text: str):
        return embed_query(self.encoders[self.model], text)


def boost(q: Question, fused: Ranked) -> Ranked:
    return speakers.boost(q.text, fused, q.conv.speaker.get)[0]


def shipped(q: Question, dense: Ranked | None = None, kw: Ranked | None = None, w: float = W) -> Ranked:
    """The Searcher's convex fusion: keyword weight ``w`` (× 0.2 when its best hit is weak)."""
    kw = q.kw if kw is None else kw
    w = w * weak.WEAK_KEYWORD if q.weak else w
    return convex([q.dense if dense is None else dense, kw], [1 - w, w], complete=[False, len(kw) < KW_DEPTH])


def both(q: Question, w: float, share: float) -> Ranked:
    """Every model's vector leg and the keyword leg in one convex fusion: keyword ``w`` (the
    weak cut as shipped), the rest split ``share`` to E5 and 1 - ``share`` to MiniLM."""
    w = w * weak.WEAK_KEYWORD if q.weak else w
    legs = [q.denses[MODELS[0]], q.denses[MODELS[1]], q.kw]
    weights = [(1 - w) * (1 - share), (1 - w) * share, w]
    return boost(q, convex(legs, weights, complete=[False, False, len(q.kw) < KW_DEPTH]))


def resorted(pairs: Ranked) -> Ranked:
    return sorted(pairs, key=lambda kv: -kv[1])


def bm25(docs: dict[str, Counter[str]], stems: list[str]) -> dict[str, float]:
    """BM25 (k1 1.2, b 0.75) of each document of ``docs`` for the query ``stems``."""
    n = len(docs)
    df = Counter(x for d in docs.values() for x in set(d))
    avg = sum(sum(d.values()) for d in docs.values()) / max(n, 1)
    out = {}
    for key, d in docs.items():
        dl, score = sum(d.values()), 0.0
        for x in stems:
            f = d.get(x, 0)
            if f:
                idf = max(math.log((n - df[x] + 0.5) / (df[x] + 0.5)), 1e-6)
                score += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * dl / avg))
        out[key] = score
    return out


# -- the techniques: each returns a ranking (best first) --------------------------------------
def t_shipped(q: Question) -> Ranked:
    return boost(q, shipped(q))


def t_rrf(q: Question) -> Ranked:
    return boost(q, rrf([[c for c, _ in q.dense], [c for c, _ in q.kw]], k=60.0))


def t_damped(q: Question) -> Ranked:
    """Weak-leg damping: keyword weight × min(1, coverage / 0.5) of the keyword leg's best hit."""
    have, total = weak.coverage(q.text, q.best_matched)
    share = have / total if total else 1.0
    return boost(q, shipped(q, w=W * min(1.0, share / weak.WEAK_SHARE)))


def t_minmax(q: Question) -> Ranked:
    """Score-normalised: the vector leg min–max over its 200 (the keyword leg divided by its best)."""
    hi, lo = q.dense[0][1], q.dense[-1][1]
    dense = [(c, (s - lo) / (hi - lo) + 1e-9) for c, s in q.dense] if hi > lo else q.dense
    return boost(q, shipped(q, dense=dense, w=0.6))


def t_day_best(q: Question, lam: float = 0.3) -> Ranked:
    """Day → turn: each turn + λ × its day's best fused score / the best day's."""
    fused = shipped(q)
    best: dict[str, float] = {}
    for c, s in fused:
        best[q.conv.day[c]] = max(best.get(q.conv.day[c], 0.0), s)
    top = max(best.values(), default=1.0) or 1.0
    return boost(q, resorted([(c, s + lam * best[q.conv.day[c]] / top) for c, s in fused]))


def t_day_bm25(q: Question, lam: float = 0.2) -> Ranked:
    """Day → turn: each turn + λ × BM25 of its whole day (the day as one document) / the best day's."""
    days = bm25(q.conv.days, q.stems)
    top = max(days.values(), default=1.0) or 1.0
    return boost(q, resorted([(c, s + lam * days[q.conv.day[c]] / top) for c, s in shipped(q)]))


def t_neighbours(q: Question, mu: float = 0.1) -> Ranked:
    """Neighbouring turns: each turn + μ × the better fused score of the turns either side."""
    fused = shipped(q)
    sc = dict(fused)
    return boost(
        q, resorted([(c, s + mu * max([sc.get(n, 0.0) for n in q.conv.neighbours[c]] or [0.0])) for c, s in fused])
    )


def t_rocchio(q: Question, beta: float = 0.3, k: int = 3) -> Ranked:
    """Query expansion in the index's own vectors: query + β × mean of the 3 best fused turns."""
    import numpy as np

    top = [c for c, _ in shipped(q)[:k]]
    vec = q.vec + beta * np.mean([q.conv.vec_of[q.model][c] for c in top], axis=0)
    return boost(q, shipped(q, dense=q.conv.dense(vec / np.linalg.norm(vec), q.model)))


def t_kw_expand(q: Question, k: int = 3, terms: int = 3) -> Ranked:
    """Query expansion from the index's vocabulary: the 3 rarest words of the 3 best fused turns
    (not in the question, not a speaker) added to the keyword query."""
    seen = {w.lower() for w in re.findall(r"\w+", q.text)} | q.conv.names
    df = Counter(w for t in q.conv.text.values() for w in set(tokens(t, drop_stopwords=True)))
    words = Counter()
    for c, _ in shipped(q)[:k]:
        for w in set(tokens(q.conv.text[c], drop_stopwords=True)):
            if w not in seen and w.isalpha() and len(w) > 3:
                words[w] = df[w]
    extra = [w for w, _ in sorted(words.items(), key=lambda kv: kv[1])[:terms]]
    kw = [(r.id, sc) for r, sc in q.searcher.keyword_ranking(f"{q.text} {' '.join(extra)}", KW_DEPTH, None, "journal")]
    return boost(q, shipped(q, kw=kw))


def t_unnamed(q: Question) -> Ranked:
    """The vector query without the speakers' names (every turn of a speaker carries the name)."""
    words = [w for w in q.text.split() if re.sub(r"['’]s$|\W", "", w).lower() not in q.conv.names]
    return boost(q, shipped(q, dense=q.conv.dense(q.encode(" ".join(words)), q.model)))


TECHNIQUES: dict[str, Callable[[Question], Ranked]] = {
    "shipped: convex 0.5 + speaker boost": t_shipped,
    "fusion: RRF k=60": t_rrf,
    "fusion: weak-leg damping (keyword weight × coverage of its best hit / 0.5)": t_damped,
    "fusion: vectors min-max normalised, keyword 0.6": t_minmax,
    "day → turn: + 0.3 × the day's best turn": t_day_best,
    "day → turn: + 0.2 × BM25 of the whole day": t_day_bm25,
    "neighbouring turns: + 0.1 × the better neighbour": t_neighbours,
    "expansion: Rocchio on the vectors (β 0.3, 3 turns)": t_rocchio,
    "expansion: 3 rarest words of the 3 best turns (keyword)": t_kw_expand,
    "vector query without speaker names": t_unnamed,
}


def scored(q: Question, ranking: Ranked) -> tuple[int | None, bool, bool]:
    """(rank of the first gold turn, all gold turns in the top 5, in the top 10)."""
    ids = [c for c, _ in ranking[:10]]
    texts = [q.conv.text.get(c, "") for c in ids]
    first = next((i for i, t in enumerate(texts, 1) if any(tag in t for tag in q.tags)), None)
    in_k = [all(any(tag in t for t in texts[:k]) for tag in q.tags) for k in (5, 10)]
    return first, in_k[0], in_k[1]


def summary(rows: list[tuple[int | None, bool, bool]]) -> str:
    if not rows:
        return "—"
    n = len(rows)
    r5 = sum(1 for f, _, _ in rows if f and f <= 5) / n
    mrr = sum(1 / f for f, _, _ in rows if f) / n
    a5 = sum(a for _, a, _ in rows) / n
    a10 = sum(a for _, _, a in rows) / n
    return f"{r5:.3f} / {mrr:.3f} / {a5:.3f} / {a10:.3f}"


def table(questions: list[Question], techniques: dict[str, Callable[[Question], Ranked]]) -> dict[str, list]:
    """Print one row per technique; return the rows of each technique by question."""
    print("| technique | all | A (tune: conv-26, conv-30) | B (confirm: conv-41) | multi-hop | open-domain |")
    print("| --- | --- | --- | --- | --- | --- |")
    out = {}
    for name, technique in techniques.items():
        rows = [(q, scored(q, technique(q))) for q in questions]
        cells = [summary([r for _, r in rows])]
        cells += [summary([r for q, r in rows if q.conv.name in SPLITS[x]]) for x in ("A", "B")]
        cells += [summary([r for q, r in rows if q.category == c]) for c in (1, 3)]
        print(f"| {name} | {' | '.join(cells)} |", flush=True)
        out[name] = rows
    return out


def per_category(rows: list) -> None:
    for c, label in CATEGORIES.items():
        got = [r for q, r in rows if q.category == c]
        print(f"| {c} {label} ({len(got)} q) | {summary(got)} |")


def main() -> None:
    args = locomo_args(__doc__ or "", models=",".join(MODELS))
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    cache = args.cache or Path(tempfile.mkdtemp(prefix="locomo-study-"))
    stemmer = Stemmer()
    questions: list[Question] = []
    for path, qs in locomo_conversations(args.data):
        searchers = {}
        for model in models:
            work = cache / model / path.name
            os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(work / "data")
            os.environ["MEMSEARCH_DIR"] = str(path)
            s = Searcher(work / "memory", work, config={"embedding": {"model": model}})
            s.index()
            searchers[model] = s
        conv = Conv(path.name, searchers, stemmer)
        questions += [Question(q, conv, searchers, stemmer) for q in qs]
        for s in searchers.values():
            s.close()
    print(f"{len(questions)} questions; cells: recall@5 / MRR@10 / recall_all@5 / recall_all@10")
    for model in models:
        print(f"\n### vector leg: {model}\n")
        for q in questions:
            q.using(model)
        rows = table(questions, TECHNIQUES)
        grid = {f"keyword weight {w:g}": (lambda q, w=w: boost(q, shipped(q, w=w))) for w in (0.2, 0.3, 0.4, 0.6)}
        grid |= {f"day → turn λ {lam:g}": (lambda q, lam=lam: t_day_best(q, lam)) for lam in (0.1, 0.2)}
        table(questions, grid)
        print(f"\nshipped with {model}, per category: recall@5 / MRR@10 / recall_all@5 / recall_all@10")
        per_category(rows["shipped: convex 0.5 + speaker boost"])
    if all(m in models for m in MODELS):
        print("\n### both models' vector legs + keyword (keyword w, E5's share of the vectors' weight)\n")
        grid = {
            f"both: keyword {w:g}, E5 share {share:g}": (lambda q, w=w, share=share: both(q, w, share))
            for w in (0.3, 0.4, 0.5)
            for share in (0.5, 0.7, 0.85)
        }
        table(questions, grid)


if __name__ == "__main__":
    main()
