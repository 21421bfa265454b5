"""Explaining a search: why each hit ranks where it does (``search --explain``, the app's
``ctrl+n``): both legs' rank and score, the weights, the matched terms, a boost, and the
query's reading (terms, script, the model's languages).

A mixin of :class:`.searcher.Searcher`, which owns the settings, the stemmer and the
model's languages; the explain records themselves are :mod:`.explain`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from memsearch_tui.engine.search import languages, speakers
from memsearch_tui.engine.search.tokenize import query_tokens, tokens

if TYPE_CHECKING:
    from memsearch_tui.engine.search.explain import Weights
    from memsearch_tui.engine.search.hit import SearchHit
    from memsearch_tui.engine.search.keyword_index import Stemmer
    from memsearch_tui.engine.search.results import SearchRun
    from memsearch_tui.engine.search.settings import SearchSettings

_SCRIPT_NAMES = {"cjk": "Chinese/Japanese/Korean", "alpha": "an alphabetic script", "none": "no script"}


class Explaining:
    """The explaining half of a Searcher (see the module docstring)."""

    if TYPE_CHECKING:  # what the Searcher provides
        s: SearchSettings
        _stemmer: Stemmer | None

        def model_languages(self) -> frozenset[str] | None: ...

        def weights_for(self, query: str) -> Weights: ...

    def _unread_note(self, tier: str, query: str) -> tuple[str, ...]:
        """A note for ``--strategy vector`` on a query the model cannot read."""
        if tier != "vector":
            return ()
        langs = self.model_languages()
        script = languages.script_of(query)
        if languages.reads(langs, script):
            return ()
        return (
            f"the embedding model reads {languages.describe(langs)}; this query is in {_SCRIPT_NAMES[script]}, "
            "so its vector ranking is close to random (try --strategy index or hybrid)",
        )

    def _explained(self, res: SearchRun, tier: str) -> SearchRun:
        """``res`` with the query's explain record (and grep hits' records, which the
        literal search does not make)."""
        from memsearch_tui.engine.search.explain import QueryExplain

        hits = literal_explained(res.query, res.hits)
        q = QueryExplain(
            terms=tuple(query_tokens(res.query)),
            script=languages.script_of(res.query),
            model=self.s.model_label,
            model_languages=languages.describe(self.model_languages()),
            weights=self.weights_for(res.query) if tier in ("hybrid", "vector") else None,
        )
        return res._replace(hits=hits, explain=q)

    def matched(self, query: str, text: str) -> tuple[str, ...]:
        """The query's keyword terms that occur in ``text`` (stemmed as the index stems)."""
        from memsearch_tui.engine.search.keyword_index import Stemmer

        if self._stemmer is None:
            self._stemmer = Stemmer()
        low = text.lower()
        have = {stem for stems in self._stemmer.terms(tokens(text, query=True)).values() for stem in stems}
        out = []
        for t in query_tokens(query):
            if " " in t:
                if t in low:
                    out.append(t)
                continue
            stems = self._stemmer.terms([t])[t]
            if stems and all(x in have for x in stems):
                out.append(t)
        return tuple(out)

    def _explain_fused(
        self,
        hits: list[SearchHit],
        query: str,
        dense: list[tuple[str, float]],
        keyword: list[tuple[str, float]],
        weights: Weights,
        blind: Callable[[str], bool] | None,
        texts: dict[str, str],
        named: frozenset[str],
    ) -> list[SearchHit]:
        """Each fused hit with both legs' rank and score and the weights its score used."""
        from memsearch_tui.engine.search.explain import HitExplain, Leg, Weights

        d_at = {cid: (i, s) for i, (cid, s) in enumerate(dense, 1)}
        k_at = {cid: (i, s) for i, (cid, s) in enumerate(keyword, 1)}
        langs = languages.describe(self.model_languages())
        out = []
        for i, h in enumerate(hits, 1):
            w = weights
            if blind is not None and blind(h.chunk_id) and weights.method != "keyword":
                script = _SCRIPT_NAMES[languages.script_of(texts[h.chunk_id])]
                w = Weights(
                    weights.method,
                    0.0,
                    1.0,
                    f"the embedding model reads {langs}; this chunk is in {script}: keyword score alone",
                )
            if weights.method == "keyword" and h.chunk_id not in k_at:  # a vector guess after the keyword hits
                w = Weights(
                    "keyword", 1.0, 0.0, f"no keyword hit; after the {len(keyword)} keyword hits by vector rank"
                )
            voted = weights.method != "keyword" or h.chunk_id not in k_at  # keyword weights: vectors did not vote
            dl = Leg(*d_at[h.chunk_id]) if h.chunk_id in d_at and voted else Leg(None, None)
            kl = Leg(*k_at[h.chunk_id]) if h.chunk_id in k_at else Leg(None, None)
            out.append(
                replace(
                    h,
                    explain=HitExplain(
                        "hybrid",
                        i,
                        h.score,
                        kl,
                        dl,
                        w,
                        self.matched(query, texts[h.chunk_id]),
                        _boost_note(h.chunk_id, named, texts),
                    ),
                )
            )
        return out


def _boost_note(cid: str, named: frozenset[str], texts: dict[str, str]) -> str:
    """What the speaker boost did to one hit, for its explain record ("" if nothing)."""
    if not speakers.boosted(cid, named, texts):
        return ""
    return f"the query names this turn's speaker ({speakers.speaker_of(texts[cid])}): score × {1 + speakers.BOOST:g}"


def literal_explained(query: str, hits: Sequence[SearchHit]) -> list[SearchHit]:
    """``hits`` with an explain record each (a literal hit's: what its line matched)."""
    from memsearch_tui.engine.search.explain import HitExplain, Weights

    weights = Weights("grep", 0.0, 0.0, "literal match: files with the most occurrences first")
    return [
        h
        if h.explain is not None
        else replace(h, explain=HitExplain("grep", i, h.score, matched=_literal(query, h.snippet), weights=weights))
        for i, h in enumerate(hits, 1)
    ]


def literal_run_explained(res: SearchRun) -> SearchRun:
    """A literal search's result explained without the searcher (the as-you-type search,
    ``mem.search.query`` with ``stop``): its hits' records, and the query's without a model
    (a literal search reads none; opening the searcher to name it took 2-3 s at 1M)."""
    from memsearch_tui.engine.search.explain import QueryExplain

    q = QueryExplain(
        terms=tuple(query_tokens(res.query)),
        script=languages.script_of(res.query),
        model="",
        model_languages="",
        weights=None,
    )
    return res._replace(hits=literal_explained(res.query, res.hits), explain=q)


def _literal(query: str, line: str) -> tuple[str, ...]:
    """What a literal hit matched on its line: the whole phrase, or else the words of it."""
    low = line.lower()
    if query.lower() in low:
        return (query,)
    return tuple(w for w in query.split() if w.lower() in low)
