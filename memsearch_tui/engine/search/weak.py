"""When keyword hits are weak: ``auto`` asks the meaning leg first.

``auto`` used to reach the vectors only when the keyword tiers found fewer than ``k``
hits, and kept the keyword hits first. A question whose words are common stems matches
*something*: "when is the database backed up" found a "Rollback" entry on the stem "back"
(one of the question's three content words) and ranked it first, while the vectors rank
"Backups" first. Here "weak" is measured: the keyword tier's best hit covers fewer than
half of the question's content terms (:func:`coverage`; a joined compound such as
"rollback" for "roll back" covers both words). Then ``auto`` runs the vector ranking and
puts its hits first, the keyword hits after them.

Only for a question (one word never goes to the vectors), only after a tier that ranks by
keywords — the keyword index, or hybrid when ``auto`` starts there (over 500 files), whose
fusion lets the same weak keyword scores outvote the vectors; there the keyword leg's own
best hit is measured, not the fused first hit — never after the literal scan (it matches
the phrase or all its words), and only when the model reads the question's script (its
vectors of a script it cannot read are noise).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from memsearch_tui.engine.search.languages import script_of
from memsearch_tui.engine.search.strategy import is_question
from memsearch_tui.engine.search.tokenize import query_tokens

if TYPE_CHECKING:
    from memsearch_tui.engine.search.explain import Weights
    from memsearch_tui.engine.search.hit import SearchHit
    from memsearch_tui.engine.search.manifest import ChunkRow, Manifest

WEAK_SHARE = 0.5  # the best keyword hit must cover at least this share of the content terms
WEAK_KEYWORD = 0.2  # hybrid: the share of its weight a weak keyword leg keeps (paraphrase set, issue 36)
# … for a Chinese/Japanese/Korean question (only a multilingual model fuses one): none. Its
# terms are character bigrams, so the one it shares with a chunk is most often a common word
# (时间, 什么); at 0.2 such a chunk still outranked the entry the vectors found (paraphrase
# set, multilingual-e5-small: hybrid top-1 0.525 against the vector leg's 0.650).
WEAK_KEYWORD_CJK = 0.0
HYBRID_WEAK_SHARE = 0.25  # hybrid: weak when the best keyword chunk covers at most this share (or one term of 3+)


def content_terms(query: str) -> list[str]:
    """The query's own terms: its keyword tokens without the compounds the tokenizer
    adds ("backedup" for "backed up", the phrase "roll back" for "rollback")."""
    low = query.lower()
    return [t for t in query_tokens(query) if " " not in t and t in low]


def coverage(query: str, matched: tuple[str, ...]) -> tuple[int, int]:
    """(content terms the hit covers, content terms): a matched compound covers the words
    it joins, a matched phrase the word it splits."""
    base = content_terms(query)
    covered = {t for t in matched if t in base}
    for m in matched:
        if " " in m and m.replace(" ", "") in base:
            covered.add(m.replace(" ", ""))
        for a, b in zip(base, base[1:], strict=False):
            if a + b == m:
                covered.update((a, b))
    return len(covered), len(base)


def weak(query: str, matched: tuple[str, ...], best: str = "index's best hit") -> str | None:
    """Why the best keyword hit is weak ("index's best hit covers 1 of 3 query terms"),
    or None when it is not (or the question has fewer than two content terms). ``best``:
    what the reason calls that hit."""
    have, total = coverage(query, matched)
    if total < 2 or have >= WEAK_SHARE * total:
        return None
    return f"{best} covers {have} of {total} query terms (< {WEAK_SHARE:.0%}): weak, the meaning leg first"


class _Reading(Protocol):
    """What :func:`weak_top` reads of a :class:`.searcher.Searcher` (or its hybrid leg)."""

    @property
    def manifest(self) -> Manifest: ...

    def matched(self, query: str, text: str) -> tuple[str, ...]: ...


class _Searching(_Reading, Protocol):
    """What :func:`check` reads of a :class:`.searcher.Searcher`."""

    def weights_for(self, query: str) -> Weights: ...

    def keyword_ranking(
        self, query: str, depth: int, category: str | None, source: str
    ) -> list[tuple[ChunkRow, float]]: ...


def check(
    searcher: _Searching,
    tier: str,
    query: str,
    found: Sequence[SearchHit],
    vectors_off: str,
    category: str | None = None,
    source: str = "all",
) -> str | None:
    """The reason ``auto`` goes to the vector ranking after ``tier`` found ``found``, or
    None (see the module docstring for when it does). ``category`` and ``source``: the
    search's filters, for the keyword leg's best hit after a hybrid tier."""
    if tier not in ("index", "hybrid") or not found or vectors_off or not is_question(query):
        return None
    if searcher.weights_for(query).method == "keyword":  # the model cannot read the question
        return None
    if tier == "hybrid":  # the fused first hit may be the vectors': measure the keyword leg's best
        best = searcher.keyword_ranking(query, 1, category, source)
        return weak(query, searcher.matched(query, best[0][0].text), "hybrid's best keyword hit") if best else None
    text = searcher.manifest.texts_by_id([found[0].chunk_id]).get(found[0].chunk_id)
    return weak(query, searcher.matched(query, text)) if text else None


def weak_top(
    searcher: _Reading, query: str, keyword: Sequence[tuple[str, float]], texts: Mapping[str, str]
) -> str | None:
    """Hybrid's version of :func:`check`: why the keyword leg's best chunk is weak for a
    question, or None. A question asked in other words than its entry (the paraphrase set)
    shares a term or two with many chunks; at full weight the keyword leg ranked one of
    those first over the entry the vectors found (hybrid top-1 0.20 against the vector
    leg's 0.78, English, MiniLM). Stricter than ``auto``'s half: the best chunk covers one
    content term of three or more, or at most a quarter of them. At "under half", LoCoMo's
    conversational questions (a name and an event: 2-3 of 5-9 terms covered) lost 0.041
    recall@5; at this bar LoCoMo gains 0.006 (benchmarks/README.md, Session 12)."""
    if not keyword or not is_question(query):
        return None
    cid = keyword[0][0]
    text = texts.get(cid) or searcher.manifest.texts_by_id([cid]).get(cid)
    if not text:
        return None
    have, total = coverage(query, searcher.matched(query, text))
    if total < 2 or not ((have <= 1 and total >= 3) or have <= HYBRID_WEAK_SHARE * total):
        return None
    return f"index's best hit covers {have} of {total} query terms: weak, keyword weight × {weak_share(query):g}"


def meaning_tier(tier: str, query: str) -> str | None:
    """Where ``auto`` goes after weak hits of ``tier``: the vector ranking, or for a CJK
    question the hybrid fusion after the keyword index and nothing more after hybrid. A
    Chinese question's terms are character bigrams, so "covers under half" is common where
    the keyword hit is right (CMRC dev: the index's first hit was right for 21 of the 25
    questions covering under a quarter, a rare name among the few matched bigrams); the
    fusion keeps that hit where the keyword leg is not weak by hybrid's stricter bar, and
    follows the vectors where it is (multilingual-e5-small: CMRC dev auto recall@5 0.987
    with the vectors first, 0.991 with the fusion first, as MiniLM's keyword ranking)."""
    if script_of(query) != "cjk":
        return "vector"
    return "hybrid" if tier == "index" else None


def weak_share(query: str) -> float:
    """The share of its weight a weak keyword leg keeps in hybrid: :data:`WEAK_KEYWORD_CJK`
    for a question in a CJK script, else :data:`WEAK_KEYWORD`."""
    return WEAK_KEYWORD_CJK if script_of(query) == "cjk" else WEAK_KEYWORD
