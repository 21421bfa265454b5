"""The hybrid ranking: the fusion weights a query's language allows, the two legs fused
(:mod:`.fusion`), the chunks the model cannot read scored by keywords alone, then the
speaker boost (:mod:`.speakers`).

A mixin of :class:`.searcher.Searcher`, which owns the settings and the manifest; moved out
of searcher.py as it was (issue 32: rooms with one job each).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.search import languages, speakers, weak
from memsearch_tui.engine.search.explaining import _SCRIPT_NAMES
from memsearch_tui.engine.search.fusion import convex, rrf

if TYPE_CHECKING:
    from memsearch_tui.engine.search.explain import Weights
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.settings import SearchSettings

CANDIDATES = 50  # depth of the keyword ranking before fusion
RRF_K = 60.0
FACTS_MAX = 1_000_000  # chunks whose script and speaker a long-lived Searcher remembers


class HybridLeg:
    """The fusing half of a Searcher's ranking (see the module docstring)."""

    if TYPE_CHECKING:  # what the Searcher provides
        s: SearchSettings
        _facts: dict[str, tuple[str, str | None]]

        @property
        def manifest(self) -> Manifest: ...

        def matched(self, query: str, text: str) -> tuple[str, ...]: ...

    # -- languages and explaining ---------------------------------------------------------
    def model_languages(self) -> frozenset[str] | None:
        """What the configured embedding model reads (None: not declared, trusted)."""
        from memsearch_tui.engine.search.embeddings import resolve_model

        try:
            return languages.model_languages(resolve_model(self.s.model or None, self.s.provider))
        except (MemsearchError, OSError):
            return None

    def weights_for(self, query: str) -> Weights:
        """The fusion weights for ``query``: the configured ones, or keyword alone when the
        model cannot read the query's script (its vectors of it are noise)."""
        return self._weighing(query).public()

    def _weighing(self, query: str) -> _Weighing:
        """:meth:`weights_for` as the ranking reads it (no :mod:`.explain` dataclass)."""
        w = self.s.keyword_weight
        langs = self.model_languages()
        script = languages.script_of(query)
        if not languages.reads(langs, script):
            return _Weighing(
                "keyword",
                0.0,
                1.0,
                f"the embedding model reads {languages.describe(langs)}; the query is in "
                f"{_SCRIPT_NAMES[script]}: keyword ranking alone (vector guesses only after its last hit)",
            )
        if self.s.fusion == "rrf":
            return _Weighing("rrf", 1.0, 1.0, f"[tui.search] fusion = rrf (k = {RRF_K:g})")
        return _Weighing("convex", round(1.0 - w, 3), w, f"[tui.search] keyword_weight = {w:g}")

    def fuse(
        self,
        dense: list[tuple[str, float]],
        keyword: list[tuple[str, float]],
        weights: Weights | _Weighing,
        blind: Callable[[str], bool] | None = None,
        depth: int = CANDIDATES,
    ) -> list[tuple[str, float]]:
        """One ranking from the dense and keyword ones, weighed as :meth:`weights_for` said.

        ``blind(chunk id)``: the model cannot read that chunk, so the keyword leg alone
        scores it (:mod:`.fusion`). ``depth``: how many each leg was asked for (a shorter
        keyword list is complete: what it lacks holds no query term). Keyword weights
        alone (the model cannot read the query): the keyword ranking, and where it is
        complete, the vector ranking's other chunks after it (:func:`_filled`) — a
        question whose words occur nowhere still gets the model's best guesses, not nothing."""
        if weights.method == "keyword":
            return _filled(convex([keyword], [1.0]), dense if len(keyword) < depth else [])
        if weights.method == "rrf":
            return rrf([[c for c, _ in dense], [c for c, _ in keyword]], k=RRF_K, blind=[blind, None])
        complete = [False, len(keyword) < depth]
        return convex([dense, keyword], [weights.dense, weights.keyword], blind=[blind, None], complete=complete)

    def blind_to(self, texts: Mapping[str, str], ids: Iterable[str] = ()) -> Callable[[str], bool] | None:
        """``chunk id → True`` where the model cannot read that chunk (None: reads all), for
        the chunks of ``texts`` and ``ids`` (whose texts come from the manifest)."""
        return self._blind(self.chunk_facts([*texts, *ids], texts))

    def _blind(self, facts: Mapping[str, tuple[str, str | None]]) -> Callable[[str], bool] | None:
        langs = self.model_languages()
        if langs is None:
            return None
        readable = {script: languages.reads(langs, script) for script in {script for script, _ in facts.values()}}
        unread = {cid for cid, (script, _) in facts.items() if not readable[script]}
        return unread.__contains__ if unread else None

    def chunk_facts(self, ids: Iterable[str], texts: Mapping[str, str]) -> dict[str, tuple[str, str | None]]:
        """Each chunk's (script, speaker) — what the fusion's language check and speaker
        boost read of its text — worked out once per chunk (a warm Searcher's candidates
        recur). Kept across index changes: a chunk id is a digest of its file and its text,
        so an id names one text for good (forgetting them all at every write made every
        search under a stream of writes re-read ~50 candidates' scripts). A text not in
        ``texts`` is read from the manifest; a chunk the manifest lacks reads as ("none", None)."""
        if len(self._facts) > FACTS_MAX:
            self._facts = {}
        known = self._facts
        ids = list(dict.fromkeys(ids))
        todo = [cid for cid in ids if cid not in known]
        if todo:
            have = {cid: texts[cid] for cid in todo if cid in texts}
            have.update(self.manifest.texts_by_id([cid for cid in todo if cid not in have]))
            for cid in todo:
                text = have.get(cid)
                known[cid] = (languages.script_of(text), speakers.speaker_of(text)) if text else ("none", None)
        return {cid: known[cid] for cid in ids}

    def fused_ranking(
        self,
        query: str,
        dense: list[tuple[str, float]],
        keyword: list[tuple[str, float]],
        texts: Mapping[str, str],
        depth: int = CANDIDATES,
    ) -> tuple[list[tuple[str, float]], Weights, Callable[[str], bool] | None, frozenset[str]]:
        """The hybrid ranking of two legs' candidates (``texts``: chunk texts at hand; the
        others' are read from the manifest, once per chunk: :meth:`chunk_facts`): fused
        with the weights the query's language allows, then the speaker boost
        (:mod:`.speakers`). Also returns what explains it: the weights, the chunks the
        model cannot read, the speakers boosted."""
        fused, weighing, blind, named = self._fused(query, dense, keyword, texts, depth)
        return fused, weighing.public(), blind, named

    def _fused(
        self,
        query: str,
        dense: list[tuple[str, float]],
        keyword: list[tuple[str, float]],
        texts: Mapping[str, str],
        depth: int,
    ) -> tuple[list[tuple[str, float]], _Weighing, Callable[[str], bool] | None, frozenset[str]]:
        """:meth:`fused_ranking` with the weights as :meth:`_weighing` gives them."""
        weighing = self._weighing(query)
        # [s12-model] weak keyword leg: its weight cut (engine/search/weak.py, issue 36 item 2)
        why_weak = weak.weak_top(self, query, keyword, texts) if weighing.method == "convex" else None
        if why_weak:
            kw = round(weighing.keyword * weak.weak_share(query), 3)  # [s13-cjk] none for a CJK question
            weighing = _Weighing("convex", round(1.0 - kw, 3), kw, f"{weighing.why}; {why_weak}")
        ids = [cid for cid, _ in dense] + [cid for cid, _ in keyword]
        facts = self.chunk_facts(ids, texts)
        blind = self._blind(facts)
        fused = self.fuse(dense, keyword, weighing, blind, depth)
        spoken = {cid: speaker for cid, (_, speaker) in facts.items()}  # .get: no Python frame per chunk
        fused, named = speakers.boost(query, fused, spoken.get)
        return fused, weighing, blind, named


def _filled(ranked: list[tuple[str, float]], dense: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """``ranked`` then the chunks of ``dense`` it lacks, in dense order, each scored below
    ``ranked``'s last: half of that score (1 for an empty ranking) × its cosine / the best cosine."""
    if not dense:
        return ranked
    have = {cid for cid, _ in ranked}
    top = max((sc for _, sc in dense), default=0.0)
    base = 0.5 * (ranked[-1][1] if ranked else 1.0)
    rest = [(cid, base * max(sc, 0.0) / top if top > 0 else 0.0) for cid, sc in dense if cid not in have]
    return ranked + rest


class _Weighing:
    """:class:`.explain.Weights` as the ranking reads them on every search. The explain
    module (four dataclasses: ~2.5 % of a one-shot hybrid search's CPU to create) is
    imported only to explain; :meth:`public` gives the dataclass."""

    __slots__ = ("method", "dense", "keyword", "why")

    def __init__(self, method: str, dense: float, keyword: float, why: str) -> None:
        self.method, self.dense, self.keyword, self.why = method, dense, keyword, why

    def public(self) -> Weights:
        from memsearch_tui.engine.search.explain import Weights

        return Weights(self.method, self.dense, self.keyword, self.why)
