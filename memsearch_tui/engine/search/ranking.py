"""The hits of one ranked tier (index, vector, hybrid): each leg's ranking turned into hit
records — where the chunk is, its title, its snippet — with their explain records when asked.

A mixin of :class:`.searcher.Searcher`, which owns the legs (:mod:`.keyword_leg`,
:mod:`.vector_leg`, :mod:`.hybrid_leg`) and the explaining (:mod:`.explaining`); moved out
of searcher.py as it was (issue 32: rooms with one job each).
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from memsearch_tui.engine.search import speakers
from memsearch_tui.engine.search.explaining import Explaining, _boost_note
from memsearch_tui.engine.search.grep import snippet_of
from memsearch_tui.engine.search.hit import SearchHit
from memsearch_tui.engine.search.hybrid_leg import CANDIDATES, HybridLeg
from memsearch_tui.engine.search.keyword_leg import KeywordLeg
from memsearch_tui.engine.search.manifest import ChunkRow
from memsearch_tui.engine.search.results import title_of, turn_of
from memsearch_tui.engine.search.snippet_mask import chunk_text
from memsearch_tui.engine.search.tokenize import query_tokens
from memsearch_tui.engine.search.vector_leg import DENSE_CANDIDATES, VectorLeg

if TYPE_CHECKING:
    pass


class Ranking(HybridLeg, VectorLeg, KeywordLeg, Explaining):
    """The hit-making half of a Searcher's ranking (see the module docstring); it ranks
    with the legs it inherits."""

    def _ranked(
        self, ran: str, query: str, k: int, category: str | None, source: str, explain: bool = False
    ) -> list[SearchHit]:
        if ran == "index":
            kw_rows = self.keyword_ranking(query, max(k, CANDIDATES), category, source)
            by_id = {row.id: row for row, _ in kw_rows}
            texts = {cid: row.text for cid, row in by_id.items()}
            facts = self.chunk_facts(texts, texts)
            ranked, named = speakers.boost(query, [(row.id, sc) for row, sc in kw_rows], lambda c: facts[c][1])
            at = {row.id: (i, sc) for i, (row, sc) in enumerate(kw_rows, 1)}
            terms = _snippet_terms(query)
            hits = [_hit(by_id[cid], score, query, terms) for cid, score in ranked[:k]]
            if explain:
                from memsearch_tui.engine.search.explain import HitExplain, Leg, Weights

                w = Weights("keyword", 0.0, 1.0, "keyword index (BM25) only")
                hits = [
                    replace(
                        h,
                        explain=HitExplain(
                            "index",
                            i,
                            h.score,
                            Leg(*at[h.chunk_id]),
                            None,
                            w,
                            self.matched(query, texts[h.chunk_id]),
                            _boost_note(h.chunk_id, named, texts),
                        ),
                    )
                    for i, h in enumerate(hits, 1)
                ]
            return hits
        weights = self._weighing(query)
        depth = max(k, CANDIDATES)
        kw: list[tuple[ChunkRow, float]] = []
        if ran == "hybrid":
            kw = self.keyword_ranking(query, depth, category, source)
        dense: list[tuple[str, float]] = []
        # A query the model cannot read is ranked by keywords; its vectors only fill the
        # places the keyword index left empty (it found fewer than it was asked for).
        if ran == "vector" or weights.method != "keyword" or len(kw) < depth:
            dense = self.dense_ranking(query, max(k, DENSE_CANDIDATES) if ran == "hybrid" else k, category, source)
        if ran == "vector":
            rows = self.manifest.chunks_by_id([cid for cid, _ in dense])
            terms = _snippet_terms(query)
            out = [_hit(rows[cid], score, query, terms) for cid, score in dense if cid in rows]
            if explain:
                from memsearch_tui.engine.search.explain import HitExplain, Leg, Weights

                w = Weights("vector", 1.0, 0.0, "vector ranking only")
                out = [
                    replace(
                        h,
                        explain=HitExplain(
                            "vector", i, h.score, None, Leg(i, h.score), w, self.matched(query, rows[h.chunk_id].text)
                        ),
                    )
                    for i, h in enumerate(out, 1)
                ]
            return out
        rows = {row.id: row for row, _ in kw}
        keyword = [(row.id, score) for row, score in kw]
        fused, weighing, blind, named = self._fused(
            query, dense, keyword, {cid: row.text for cid, row in rows.items()}, depth
        )
        rows.update(self.manifest.chunks_by_id([cid for cid, _ in fused[:k] if cid not in rows]))  # hits only
        texts = {cid: row.text for cid, row in rows.items()}
        terms = _snippet_terms(query)
        hits = [_hit(rows[cid], score, query, terms) for cid, score in fused[:k] if cid in rows]
        if explain:
            hits = self._explain_fused(hits, query, dense, keyword, weighing.public(), blind, texts, named)
        return hits


def _entry_title(path: str) -> str:
    """The frontmatter title of an entry file (its first 4 KB), for a hit's ``title``.

    Remembered per path while the file's stat (mtime, size, inode) stays the same, the
    signals the index itself trusts: a warm search's hits recur, and a stat is ~10× cheaper
    than opening and reading the file (8 hits: ~0.5 ms of a warm search's critical path)."""
    try:
        st = os.stat(path)
    except OSError:
        return title_of("entry", path, "")
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    known = _TITLES.get(path)
    if known is not None and known[0] == stamp:
        return known[1]
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return title_of("entry", path, "")
    title = title_of("entry", path, head)
    if len(_TITLES) >= TITLES_MAX:
        _TITLES.clear()
    _TITLES[path] = (stamp, title)
    return title


TITLES_MAX = 100_000  # entry titles remembered (per process; a path's stat must still match)
_TITLES: dict[str, tuple[tuple[int, int, int], str]] = {}


def _snippet_terms(query: str) -> list[str]:
    """What a hit's snippet is centred on (worked out once per search, not once per hit)."""
    return query_tokens(query) + query.split()


def _hit(row: ChunkRow, score: float, query: str, terms: list[str] | None = None) -> SearchHit:
    return SearchHit(
        id=row.entry_id or row.path,
        path=row.path,
        source="store" if row.kind == "entry" else "journal",
        kind=row.kind,
        heading=row.heading or "",
        lines=(int(row.start), int(row.end)),
        score=round(float(score), 6),
        snippet=snippet_of(
            chunk_text(row.path, row.start, row.end, row.text), _snippet_terms(query) if terms is None else terms
        ),
        chunk_id=row.id,
        title=_entry_title(row.path) if row.kind == "entry" else title_of(row.kind, row.path, ""),
        turn=turn_of(row.kind, row.heading),
    )
