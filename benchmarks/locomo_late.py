"""LoCoMo dev: re-rankings not tried in sessions 12–13 (issue 36 item 5, session 20).

On the legs of :mod:`locomo_study` (same questions, same split A = conv-26 + conv-30 to tune,
B = conv-41 to confirm), each technique re-ranks the shipped fusion:

* late interaction (ColBERT-style MaxSim) with the bundled MiniLM's last-layer token states
  (:meth:`NumpyBertEncoder.token_states`), query content tokens against each candidate turn's
  tokens, fused with the shipped score over the top N;
* soft keyword matching: each query content term expanded with its nearest words of the
  conversation's own vocabulary (the model's static word-piece embeddings, or each word
  encoded alone), as an extra BM25 signal beside the keyword leg;
* diversification (MMR over the top 20 with the turns' vectors; a day-diversity penalty);
* question-type routing (open-domain "would … likely" questions: the vector leg's weight up);
* sentence vectors: the vector leg scored by a mix of a turn's cosine and its best sentence's.

    python benchmarks/locomo_late.py --cache /tmp/late/idx [--only NAME,…] [--moves] [--cost]

``--moves``: per split, how many questions each chosen technique ranks better / worse than
shipped (first gold turn), and moves into / out of the top 5. ``--cost``: what late
interaction's re-encoding of the candidates costs beside the question's own vector.

The turns' token states are computed once per conversation and kept in ``--cache``.
"""

from __future__ import annotations

import math
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from bench_util import locomo_args, locomo_conversations
from locomo_study import (
    KW_DEPTH,
    Conv,
    Question,
    Ranked,
    boost,
    resorted,
    shipped,
    table,
)

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.embeddings import resolve_model_path
from memsearch_tui.engine.search.keyword_index import Stemmer
from memsearch_tui.engine.search.numpy_bert import NumpyBertEncoder
from memsearch_tui.engine.search.tokenize import tokens

MODEL = "all-MiniLM-L6-v2"
_NOISE = re.compile(r"<!--.*?-->|\[D\d+:\d+\]|^#+ .*$", re.M)
_STOP_WORDS = (
    "a an the is are was were be been being do does did to of in on at for with and or but "
    "what when where who whom which why how would could should will can may might has have had "
    "it its this that these those as by from about into than then there their they them he she "
    "his her i you your me my we our us so if not no any some"
)
STOP = set(re.findall(r"\w+", _STOP_WORDS))  # the query tokens late interaction leaves out


def body(text: str) -> str:
    """A turn's spoken text: no session heading, comment or evidence tag."""
    return " ".join(_NOISE.sub(" ", text).split())


class Late:
    """Token states of every turn of a conversation (cached), and of each question."""

    def __init__(self, enc: NumpyBertEncoder, conv: Conv, cache: Path) -> None:
        self.enc = enc
        path = cache / f"late-{conv.name}.npz"
        ids = sorted(conv.text)
        if path.is_file():
            z = np.load(path, allow_pickle=False)
            mat, starts, lens = z["mat"], z["starts"], z["lens"]
        else:
            seqs = [enc.token_ids(body(conv.text[c])) for c in ids]
            rows, lens = [], []
            for at in range(0, len(seqs), 32):
                batch = seqs[at : at + 32]
                x, _ = enc._hidden(batch)
                rows.append(x)
                lens += [len(s) for s in batch]
            mat = np.concatenate(rows).astype(np.float16)
            lens = np.array(lens)
            starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
            np.savez(path, mat=mat, starts=starts, lens=lens)
        self.ids = {c: i for i, c in enumerate(ids)}
        self.mat = mat.astype(np.float32)
        self.starts, self.lens = starts, lens
        self.mean = self.mat.mean(0)

    def doc(self, cid: str, centre: bool) -> np.ndarray:
        i = self.ids[cid]
        x = self.mat[self.starts[i] + 1 : self.starts[i] + self.lens[i] - 1]  # no [CLS]/[SEP]
        if centre:
            x = x - self.mean
        return x / np.linalg.norm(x, axis=1, keepdims=True)


def query_tokens(q: Question, late: Late, names: set[str], centre: bool, keep_names: bool) -> np.ndarray:
    """The question's content tokens' states (no [CLS]/[SEP], stopwords, punctuation, and
    unless ``keep_names`` the speakers' names), normalised."""
    ids, x = late.enc.token_states(q.text)
    words = _piece_words(late.enc, ids)
    keep = [
        i
        for i, w in enumerate(words)
        if 0 < i < len(ids) - 1 and w.isalnum() and w not in STOP and (keep_names or w not in names)
    ]
    if not keep:
        keep = list(range(1, len(ids) - 1))
    y = x[keep]
    if centre:
        y = y - late.mean
    return y / np.linalg.norm(y, axis=1, keepdims=True)


_VOCAB: dict[int, str] = {}


def _piece_words(enc: NumpyBertEncoder, ids: list[int]) -> list[str]:
    """The whole word each token belongs to (word pieces joined), lower-case."""
    if not _VOCAB:
        import json

        vocab = json.loads((enc.model_dir / "tokenizer.json").read_text())["model"]["vocab"]
        _VOCAB.update({v: k for k, v in vocab.items()})
    pieces = [_VOCAB.get(i, "") for i in ids]
    words, out = [], []
    cur: list[int] = []
    for i, p in enumerate(pieces):
        if p.startswith("##") and cur:
            cur.append(i)
        else:
            if cur:
                words.append(cur)
            cur = [i]
    if cur:
        words.append(cur)
    out = [""] * len(ids)
    for w in words:
        text = "".join(pieces[i].removeprefix("##") for i in w)
        for i in w:
            out[i] = text
    return out


def maxsim(qt: np.ndarray, d: np.ndarray, weights: np.ndarray | None = None) -> float:
    best = (qt @ d.T).max(1)
    return float(best.mean() if weights is None else (best * weights).sum() / weights.sum())


QIDF: dict[str, np.ndarray] = {}


def query_idf(q: Question, late: Late) -> np.ndarray:
    """Each kept query token's IDF (its whole word's, over the conversation's turns)."""
    if q.q["qid"] not in QIDF:
        ids, _ = late.enc.token_states(q.text)
        words = _piece_words(late.enc, ids)
        keep = [
            w
            for i, w in enumerate(words)
            if 0 < i < len(ids) - 1 and w.isalnum() and w not in STOP and w not in q.conv.names
        ] or words[1:-1]
        df = SOFT[(q.conv.name, "alone")].df
        n = len(q.conv.text)
        QIDF[q.q["qid"]] = np.array([math.log((n + 1) / (df.get(w, 0) + 1)) + 0.1 for w in keep])
    return QIDF[q.q["qid"]]


# -- techniques ---------------------------------------------------------------------------------
LATE: dict[str, Late] = {}
QTOK: dict[tuple[str, bool, bool], np.ndarray] = {}


def t_late(
    q: Question, n: int = 30, lam: float = 0.3, centre: bool = True, names: bool = False, idf: bool = False
) -> Ranked:
    """Shipped fusion; its top ``n`` re-scored + λ × MaxSim min–max over those ``n``."""
    late = LATE[q.conv.name]
    key = (q.q["qid"], centre, names)
    if key not in QTOK:
        QTOK[key] = query_tokens(q, late, q.conv.names, centre, names)
    qt = QTOK[key]
    fused = shipped(q)
    head, tail = fused[:n], fused[n:]
    wts = query_idf(q, late) if idf and not names else None
    ms = [maxsim(qt, late.doc(c, centre), wts) for c, _ in head]
    lo, hi = min(ms), max(ms)
    top = head[0][1] if head else 1.0
    re_head = [(c, s + lam * top * ((m - lo) / (hi - lo) if hi > lo else 0.0)) for (c, s), m in zip(head, ms)]
    # the tail stays below every re-scored head turn
    floor = min((s for _, s in re_head), default=0.0)
    tail = [(c, min(s, floor - 1e-9)) for c, s in tail]
    return boost(q, resorted(re_head) + tail)


def t_late_only(q: Question, n: int = 30) -> Ranked:
    """The shipped top ``n`` ordered by MaxSim alone (what the signal knows on its own)."""
    late = LATE[q.conv.name]
    key = (q.q["qid"], True, False)
    if key not in QTOK:
        QTOK[key] = query_tokens(q, late, q.conv.names, True, False)
    fused = shipped(q)
    head = [(c, maxsim(QTOK[key], late.doc(c, True))) for c, _ in fused[:n]]
    return boost(q, resorted(head) + fused[n:])


def t_combo(q: Question, n: int, lam: float) -> Ranked:
    """Soft keywords (alone-encoded words, k 3, τ 0.6, β 0.2), then late interaction."""
    global shipped
    plain = shipped
    kw = _soft_kw(q, "alone", 3, 0.6, 0.2)
    try:
        shipped = lambda q, **kv: plain(q, kw=kw, **kv)  # noqa: E731
        return t_late(q, n, lam)
    finally:
        shipped = plain


# soft keyword matching -------------------------------------------------------------------------
class Soft:
    """A conversation's vocabulary with one vector a word: its word pieces' static (input)
    embeddings averaged, or the word encoded alone (mean-pooled sentence vector)."""

    def __init__(self, enc: NumpyBertEncoder, conv: Conv, stemmer: Stemmer, kind: str) -> None:
        df = Counter(w for t in conv.text.values() for w in set(tokens(body(t), drop_stopwords=True)))
        self.words = [w for w in df if w.isalpha() and len(w) > 2 and w not in conv.names]
        self.df = df
        if kind == "static":
            table = enc.w["embeddings.word_embeddings.weight"]
            rows = []
            for w in self.words:
                ids = enc.token_ids(w)[1:-1]
                rows.append(np.asarray(table[ids], dtype=np.float32).mean(0))
            m = np.array(rows)
        else:
            m = enc.encode(self.words)
        self.mat = m / np.linalg.norm(m, axis=1, keepdims=True)
        self.at = {w: i for i, w in enumerate(self.words)}
        self.stems = {w: stemmer.terms([w])[w] for w in self.words}
        self.enc, self.kind = enc, kind

    def vec(self, word: str) -> np.ndarray:
        if word in self.at:
            return self.mat[self.at[word]]
        if self.kind == "static":
            ids = self.enc.token_ids(word)[1:-1]
            v = np.asarray(self.enc.w["embeddings.word_embeddings.weight"][ids], dtype=np.float32).mean(0)
        else:
            v = self.enc.encode([word])[0]
        return v / np.linalg.norm(v)

    def expand(self, terms: list[str], k: int, tau: float) -> dict[str, float]:
        """Stem → weight: each term's k nearest other words with cosine ≥ τ (weight = cosine)."""
        out: dict[str, float] = {}
        own = {x for t in terms for x in self.stems.get(t, [t])}
        for t in terms:
            sims = self.mat @ self.vec(t)
            added = 0
            for i in np.argsort(-sims)[: k + 10]:
                w, s = self.words[i], float(sims[i])
                if s < tau or added >= k:
                    break
                new = [x for x in self.stems[w] if x not in own]
                for x in new:
                    out[x] = max(out.get(x, 0.0), s)
                added += bool(new)
        return out


SOFT: dict[tuple[str, str], Soft] = {}


def weighted_bm25(conv: Conv, weights: dict[str, float]) -> dict[str, float]:
    n = len(conv.tf)
    df = Counter(x for d in conv.tf.values() for x in set(d))
    avg = sum(sum(d.values()) for d in conv.tf.values()) / max(n, 1)
    out = {}
    for key, d in conv.tf.items():
        dl, score = sum(d.values()), 0.0
        for x, wt in weights.items():
            f = d.get(x, 0)
            if f:
                idf = max(math.log((n - df[x] + 0.5) / (df[x] + 0.5)), 1e-6)
                score += wt * idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * dl / avg))
        if score > 0:
            out[key] = score
    return out


def t_soft(q: Question, kind: str = "static", k: int = 3, tau: float = 0.6, beta: float = 0.3) -> Ranked:
    """The keyword leg + β × BM25 of the query terms' nearest vocabulary words (their
    cosine as weight) / the leg's best, then the shipped fusion."""
    return boost(q, shipped(q, kw=_soft_kw(q, kind, k, tau, beta)))


def _soft_kw(q: Question, kind: str, k: int, tau: float, beta: float) -> Ranked:
    soft = SOFT[(q.conv.name, kind)]
    from memsearch_tui.engine.search import weak

    terms = [t for t in weak.content_terms(q.text) if t not in q.conv.names]
    extra = soft.expand(terms, k, tau)
    add = weighted_bm25(q.conv, extra) if extra else {}
    if not add or not q.kw:
        return q.kw
    top_kw, top_add = q.kw[0][1], max(add.values())
    sc = {c: s / top_kw for c, s in q.kw}
    for c, s in add.items():
        sc[c] = sc.get(c, 0.0) + beta * s / top_add
    return resorted(list(sc.items()))[:KW_DEPTH]


# diversification -------------------------------------------------------------------------------
def t_mmr(q: Question, lam: float = 0.8, n: int = 20) -> Ranked:
    """MMR over the shipped top ``n`` (after the speaker boost): λ × score − (1 − λ) × the
    highest cosine to a turn already chosen."""
    ranked = boost(q, shipped(q))
    head, tail = ranked[:n], ranked[n:]
    vec = q.conv.vec_of[q.model]
    top = head[0][1] if head and head[0][1] > 0 else 1.0
    chosen: list[tuple[str, float]] = []
    left = list(head)
    while left:
        best, best_v = None, -1e9
        for c, s in left:
            red = max((float(vec[c] @ vec[d]) for d, _ in chosen), default=0.0)
            v = lam * s / top - (1 - lam) * red
            if v > best_v:
                best, best_v = (c, s), v
        chosen.append(best)
        left.remove(best)
    return chosen + tail


def t_daydiv(q: Question, pen: float = 0.1, n: int = 20) -> Ranked:
    """Day diversity: a turn loses ``pen`` × the top score for each higher-ranked turn of its
    day already chosen (greedy over the shipped top ``n``)."""
    ranked = boost(q, shipped(q))
    head, tail = ranked[:n], ranked[n:]
    top = head[0][1] if head and head[0][1] > 0 else 1.0
    chosen: list[tuple[str, float]] = []
    left = list(head)
    days: Counter[str] = Counter()
    while left:
        best = max(left, key=lambda cs: cs[1] - pen * top * days[q.conv.day[cs[0]]])
        chosen.append(best)
        left.remove(best)
        days[q.conv.day[best[0]]] += 1
    return chosen + tail


# sentence vectors ------------------------------------------------------------------------------
_SENT = re.compile(r"(?<=[.!?])\s+")
SENTS: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # conversation → (turn index a row, rows)


def sentence_vectors(enc: NumpyBertEncoder, conv: Conv, cache: Path) -> None:
    """Each turn's spoken sentences encoded one by one (cached): (turn of each row, rows)."""
    path = cache / f"sent-{conv.name}.npz"
    ids = sorted(conv.text)
    if not path.is_file():
        owner, texts = [], []
        for i, c in enumerate(ids):
            parts = [p for p in _SENT.split(body(conv.text[c])) if len(p.split()) >= 2] or [body(conv.text[c])]
            owner += [i] * len(parts)
            texts += parts
        np.savez(path, owner=np.array(owner), mat=enc.encode(texts))
    z = np.load(path)
    SENTS[conv.name] = (z["owner"], z["mat"])


def t_sentences(q: Question, alpha: float = 0.5, w: float = 0.5) -> Ranked:
    """The vector leg as α × the turn's cosine + (1 − α) × its best sentence's cosine."""
    owner, mat = SENTS[q.conv.name]
    ids = sorted(q.conv.text)
    best = np.full(len(ids), -1.0, dtype=np.float32)
    np.maximum.at(best, owner, mat @ q.vec)
    ids_all, tmat, _ = q.conv.mats[q.model]
    tc = tmat @ q.vec
    at = {c: i for i, c in enumerate(ids)}
    sc = [(c, alpha * float(tc[i]) + (1 - alpha) * float(best[at[c]])) for i, c in enumerate(ids_all)]
    dense = resorted(sc)[:200]
    return boost(q, shipped(q, dense=dense, w=w))


# routing ---------------------------------------------------------------------------------------
_LIKELY = re.compile(r"\b(would|likely|might|could)\b", re.I)


def t_route(q: Question, w: float = 0.3) -> Ranked:
    """Open-domain-looking questions ("would … likely …"): keyword weight ``w`` instead of 0.5."""
    if _LIKELY.search(q.text):
        return boost(q, shipped(q, w=w))
    return boost(q, shipped(q))


def load(args) -> list[Question]:
    stemmer = Stemmer()
    enc = NumpyBertEncoder(resolve_model_path(MODEL))
    questions: list[Question] = []
    for path, qs in locomo_conversations(args.data):
        work = args.cache / MODEL / path.name
        os.environ["MEMSEARCH_TUI_DATA_DIR"] = str(work / "data")
        os.environ["MEMSEARCH_DIR"] = str(path)
        s = Searcher(work / "memory", work, config={"embedding": {"model": MODEL}})
        s.index()
        conv = Conv(path.name, {MODEL: s}, stemmer)
        questions += [Question(q, conv, {MODEL: s}, stemmer) for q in qs]
        t0 = time.perf_counter()
        LATE[conv.name] = Late(enc, conv, args.cache)
        sentence_vectors(enc, conv, args.cache)
        for kind in ("static", "alone"):
            SOFT[(conv.name, kind)] = Soft(enc, conv, stemmer, kind)
        print(f"{conv.name}: late + soft vectors {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        s.close()
    return questions


def techniques() -> dict[str, Callable[[Question], Ranked]]:
    t: dict[str, Callable[[Question], Ranked]] = {"shipped": lambda q: boost(q, shipped(q))}
    t["late only (top 30 by MaxSim)"] = t_late_only
    for n in (20, 30, 50):
        for lam in (0.1, 0.2, 0.3, 0.5):
            t[f"late n{n} λ{lam}"] = lambda q, n=n, lam=lam: t_late(q, n, lam)
    for n, lam in ((20, 0.1), (20, 0.2), (30, 0.2), (30, 0.3)):
        t[f"late idf n{n} λ{lam}"] = lambda q, n=n, lam=lam: t_late(q, n, lam, idf=True)
    for lam in (0.1, 0.2, 0.3):
        t[f"late n10 λ{lam}"] = lambda q, lam=lam: t_late(q, 10, lam)
    t["late n30 λ0.3 uncentred"] = lambda q: t_late(q, 30, 0.3, centre=False)
    t["late n30 λ0.3 with names"] = lambda q: t_late(q, 30, 0.3, names=True)
    for kind in ("static", "alone"):
        for tau in (0.5, 0.6, 0.7):
            for beta in (0.2, 0.4):
                t[f"soft {kind} τ{tau} β{beta}"] = lambda q, kind=kind, tau=tau, beta=beta: t_soft(
                    q, kind, 3, tau, beta
                )
    for lam in (0.7, 0.8, 0.9):
        t[f"MMR λ{lam} top 20"] = lambda q, lam=lam: t_mmr(q, lam)
    for pen in (0.05, 0.1, 0.2):
        t[f"day diversity {pen} top 20"] = lambda q, pen=pen: t_daydiv(q, pen)
    for k in (1, 2, 5):
        t[f"soft alone k{k} τ0.6 β0.2"] = lambda q, k=k: t_soft(q, "alone", k, 0.6, 0.2)
    for tau, beta in ((0.55, 0.2), (0.65, 0.2), (0.6, 0.1), (0.6, 0.15), (0.6, 0.3)):
        t[f"soft alone k3 τ{tau} β{beta}"] = lambda q, tau=tau, beta=beta: t_soft(q, "alone", 3, tau, beta)
    for n, lam in ((20, 0.1), (20, 0.2), (30, 0.2)):
        t[f"soft alone τ0.6 β0.2 + late n{n} λ{lam}"] = lambda q, n=n, lam=lam: t_combo(q, n, lam)
    for alpha in (0.0, 0.3, 0.5, 0.7):
        for w in (0.4, 0.5):
            t[f"sentences α{alpha} keyword {w}"] = lambda q, alpha=alpha, w=w: t_sentences(q, alpha, w)
    for w in (0.2, 0.3, 0.4):
        t[f"route 'would/likely' → keyword {w}"] = lambda q, w=w: t_route(q, w)
    return t


MOVES = (
    "soft alone τ0.6 β0.2",
    "late n20 λ0.1",
    "late n30 λ0.2",
    "soft alone τ0.6 β0.2 + late n20 λ0.1",
    "soft alone τ0.6 β0.2 + late n30 λ0.2",
)


def moves(questions: list[Question], ts: dict[str, Callable[[Question], Ranked]]) -> None:
    """Questions each technique of :data:`MOVES` ranks better / worse than shipped."""
    from locomo_study import SPLITS, scored

    base = {q.q["qid"]: scored(q, ts["shipped"](q))[0] or 99 for q in questions}
    print("| technique | A: better / worse, into / out of the top 5 | B: the same |")
    print("| --- | --- | --- |")
    for name in MOVES:
        cells = []
        for split in ("A", "B"):
            up = down = into = out = 0
            for q in (q for q in questions if q.conv.name in SPLITS[split]):
                b, r = base[q.q["qid"]], scored(q, ts[name](q))[0] or 99
                up, down = up + (r < b), down + (r > b)
                into, out = into + (r <= 5 < b), out + (b <= 5 < r)
            cells.append(f"{up} / {down}, {into} / {out}")
        print(f"| {name} | {' | '.join(cells)} |", flush=True)


def cost(questions: list[Question], rounds: int = 3) -> None:
    """Query-time cost of late interaction: the token states of the first question's top 20
    / 30 turns against the question's own vector, same encoder, one BLAS thread."""
    from memsearch_tui.engine.search.numpy_bert import _one_blas_thread

    enc = NumpyBertEncoder(resolve_model_path(MODEL))
    q = questions[0]
    texts = [body(q.conv.text[c]) for c, _ in shipped(q)[:30]]
    enc.encode([q.text])
    enc.encode([q.text])  # the second call settles the weights (a warm process)
    for _ in range(rounds):
        row = []
        for n in (20, 30):
            t0 = time.perf_counter()
            enc.encode([q.text])
            tq = time.perf_counter() - t0
            t0 = time.perf_counter()
            seqs = [enc.token_ids(t) for t in texts[:n]]
            with _one_blas_thread():
                enc._hidden(seqs)
            td = time.perf_counter() - t0
            tokens_n = sum(map(len, seqs))
            row.append(
                f"top {n}: question {tq * 1000:.1f} ms, turns {td * 1000:.1f} ms ({tokens_n} tokens), {td / tq:.1f}×"
            )
        print(" | ".join(row), flush=True)


def main() -> None:
    show_moves, show_cost = "--moves" in sys.argv, "--cost" in sys.argv
    sys.argv = [a for a in sys.argv if a not in ("--moves", "--cost")]
    sys.argv, only = _only(sys.argv)
    args = locomo_args(__doc__ or "")
    args.cache = args.cache or Path("/tmp/late/idx")
    questions = load(args)
    ts = techniques()
    if only:
        ts = {k: v for k, v in ts.items() if k == "shipped" or any(o in k for o in only)}
    if show_moves or show_cost:
        if show_moves:
            moves(questions, techniques())
        if show_cost:
            cost(questions)
        return
    print(f"{len(questions)} questions; cells: recall@5 / MRR@10 / recall_all@5 / recall_all@10")
    table(questions, ts)


def _only(argv: list[str]) -> tuple[list[str], list[str]]:
    if "--only" in argv:
        i = argv.index("--only")
        return argv[:i] + argv[i + 2 :], argv[i + 1].split(",")
    return argv, []


if __name__ == "__main__":
    main()
