"""The keyword leg of a search: BM25 over the chunks, from the resident index
(:mod:`.keyword_index`) once warm, else SQLite FTS5, filtered by scope, source and category.

A mixin of :class:`.searcher.Searcher`, which owns the settings, the manifest and the
resident index; moved out of searcher.py as it was (issue 32: rooms with one job each).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memsearch_tui.engine.search.indexer import scopes_of
from memsearch_tui.engine.search.scopes import STORE_SCOPE
from memsearch_tui.engine.search.tokenize import query_tokens

if TYPE_CHECKING:
    from memsearch_tui.engine.search.keyword_index import KeywordIndex
    from memsearch_tui.engine.search.manifest import ChunkRow, Manifest
    from memsearch_tui.engine.search.settings import SearchSettings


class KeywordLeg:
    """The keyword half of a Searcher's ranking (see the module docstring)."""

    if TYPE_CHECKING:  # what the Searcher provides
        s: SearchSettings
        _kw_index: KeywordIndex | None
        _keyword_queries: int

        @property
        def manifest(self) -> Manifest: ...

    def _where(self, category: str | None, source: str) -> tuple[str, list[str | int]]:
        """SQL filter over chunks ``c`` for scope, source and category."""
        scopes = self._scopes(source)
        parts = [f"c.scope IN ({','.join('?' * len(scopes))})"]
        args: list[str | int] = list(scopes)
        if category:
            parts.append("c.kind = 'entry' AND substr(c.entry_id, 1, ?) = ?")
            args += [len(category) + 1, category + "/"]
        return " AND ".join(parts), args

    def keyword_ranking(
        self, query: str, depth: int, category: str | None, source: str, *, resident: bool | None = None
    ) -> list[tuple[ChunkRow, float]]:
        """BM25 ranking: the resident index (:mod:`.keyword_index`) once warm, else FTS5.

        Both give FTS5's scores. ``resident=None`` decides by use: hybrid searches and a
        Searcher's second keyword query on load (or build) the resident index; a one-shot
        keyword search stays on FTS5, which needs neither numpy nor the index's load.
        ``MEMSEARCH_TUI_KEYWORD=fts5`` (or ``resident``) forces one side, for comparisons.
        """
        forced = os.environ.get("MEMSEARCH_TUI_KEYWORD", "")
        if forced in ("fts5", "resident"):
            resident = forced == "resident"
        elif resident is None:
            resident = self._kw_index is not None or self._keyword_queries > 0
        self._keyword_queries += 1
        if resident:
            ranked = self.keyword_index().rank(query_tokens(query), depth, self._scopes(source), category)
            if ranked is not None:
                rows = self.manifest.chunks_by_rid([rid for rid, _ in ranked])
                return [(rows[rid], score) for rid, score in ranked if rid in rows]
        where, args = self._where(category, source)
        return self.manifest.keyword(query, depth, where, args)

    def keyword_index(self) -> KeywordIndex:
        """The resident BM25 index, brought up to date with the manifest's change log."""
        from memsearch_tui.engine.search.keyword_index import KeywordIndex

        if self._kw_index is None:
            self._kw_index = KeywordIndex(self.manifest)
        else:
            self._kw_index.catch_up(self.manifest)
        return self._kw_index

    def _scopes(self, source: str) -> list[str]:
        scopes = scopes_of(self.s) if source != "store" else [STORE_SCOPE]
        if source == "journal":
            scopes = [x for x in scopes if x != STORE_SCOPE] or ["<none>"]
        return scopes
