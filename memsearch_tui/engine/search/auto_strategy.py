"""Which tiers answer a query: the strategy named (``--strategy index``), or ``auto``'s
tier picked by the number of files, falling through to the next (:mod:`.strategy`) while a
question has fewer than ``k`` hits, with the hits of every tier that ran merged.

A mixin of :class:`.searcher.Searcher`, which owns the settings, the lock, the file
listing and the legs; moved out of searcher.py as it was (issue 32: rooms with one job each).
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from memsearch_tui.engine.core.errors import InvalidInput, LockTimeout, MemsearchError
from memsearch_tui.engine.search import strategy as strat
from memsearch_tui.engine.search import weak
from memsearch_tui.engine.search.grep import grep, literal_search
from memsearch_tui.engine.search.hit import SearchHit
from memsearch_tui.engine.search.results import SearchRun

if TYPE_CHECKING:
    from memsearch_tui.engine.search.explain import Weights
    from memsearch_tui.engine.search.manifest import ChunkRow, Manifest
    from memsearch_tui.engine.search.settings import SearchSettings
    from memsearch_tui.engine.search.sources import SourceFile


class AutoStrategy:
    """The tier choice of a Searcher's search (see the module docstring)."""

    if TYPE_CHECKING:  # what the Searcher provides
        s: SearchSettings
        _lock: threading.RLock

        @property
        def manifest(self) -> Manifest: ...

        def matched(self, query: str, text: str) -> tuple[str, ...]: ...

        def weights_for(self, query: str) -> Weights: ...

        def _encode_early(self, query: str, tier: str, k: int, category: str | None, source: str) -> None: ...

        def _files_cached(self, category: str | None, source: str) -> list[SourceFile]: ...

        def _explained(self, res: SearchRun, tier: str) -> SearchRun: ...

        def _unread_note(self, tier: str, query: str) -> tuple[str, ...]: ...

        def _refresh_if_stale(self) -> None: ...

        def keyword_ranking(
            self, query: str, depth: int, category: str | None, source: str, *, resident: bool | None = None
        ) -> list[tuple[ChunkRow, float]]: ...

        def _sync_vectors(self) -> None: ...

        def _ranked(
            self, ran: str, query: str, k: int, category: str | None, source: str, explain: bool = False
        ) -> list[SearchHit]: ...

    def _search(
        self,
        query: str,
        strategy: str = "auto",
        k: int = 10,
        category: str | None = None,
        source: str = "all",
        *,
        explain: bool = False,
    ) -> SearchRun:
        """Run one query; ``strategy`` is auto|grep|index|vector|hybrid.

        ``auto`` starts at the tier the number of files picks and falls through to the
        next one (:func:`.strategy.next_tier`) while a question has fewer than ``k``
        hits; ``strategy`` then names every tier that ran (``grep+index``). ``explain``
        fills each hit's :class:`.explain.HitExplain` and the result's :class:`.explain.QueryExplain`.
        """
        if strategy == "grep":
            res = literal_search(self.s.memory_root, self.s.project, query, k, category, source)
            return self._explained(res, "grep") if explain else res
        t0 = time.perf_counter()
        said = [self.s.config_note] if self.s.config_note else []  # an unreadable config file, named
        query, category = strat.checked(query, strategy, k, source, category)
        if strategy in ("vector", "hybrid"):
            self._encode_early(query, strategy, k, category, source)
        files = self._files_cached(category, source)
        if strategy != "auto":
            used, why = self._explicit(strategy)
            with self._lock:
                only = self._tier(used, query, k, category, source, files, explain)
            ms = (time.perf_counter() - t0) * 1000
            res = SearchRun(query, used, strategy, why, only, len(files), ms, [*said, *self._unread_note(used, query)])
            return self._explained(res, used) if explain else res
        tier: str | None
        tier, reason = strat.choose(len(files))
        if tier == "hybrid" and self.s.vectors_off:
            tier, reason = "index", f"{reason}; {self.s.vectors_off}: keyword index instead"
        if tier == "hybrid":
            self._encode_early(query, tier, k, category, source)
        ran: list[str] = []
        hits: list[SearchHit] = []
        notes: list[str] = said
        ran_out = False  # the vectors were locked: do not fall through to them again
        lead = False  # the next tier's hits go first (the meaning leg after weak keyword hits)
        with self._lock:
            while tier is not None:
                try:
                    found = self._tier(tier, query, k, category, source, files, explain)
                except LockTimeout as exc:
                    notes.append(exc.message)
                    if ran:  # a fall-through that cannot run: keep what the earlier tiers found
                        reason += f"; vectors unavailable, stayed with {'+'.join(ran)}"
                        break
                    tier, reason = "index", reason + "; vectors unavailable, fell back to the keyword index"
                    ran_out = True
                    continue
                except (MemsearchError, ImportError, OSError) as exc:
                    if not ran:
                        raise
                    notes.append(f"{tier}: {exc}")
                    reason += f"; {tier} unavailable, stayed with {'+'.join(ran)}"
                    break
                ran.append(tier)
                # [s11-search] weak keyword hits: the meaning leg's hits first (engine/search/weak.py)
                hits = _merged(found, hits, k) if tier == "vector" or lead else _merged(hits, found, k)
                nxt = strat.next_tier(tier, query, len(hits), k)
                why_weak = (
                    None if ran_out else weak.check(self, tier, query, found, self.s.vectors_off, category, source)
                )
                # [s13-cjk] a CJK question: the fusion first, not the vectors alone (weak.meaning_tier)
                lead = bool(why_weak) and weak.meaning_tier(tier, query) == "hybrid"
                nxt = (weak.meaning_tier(tier, query) or nxt) if why_weak else nxt
                if nxt is not None and (nxt in ran or ran_out):
                    nxt = None
                if nxt == "hybrid" and self.s.vectors_off:
                    reason += f"; {self.s.vectors_off}: stayed with {'+'.join(ran)}"
                    nxt = None
                if nxt is not None:
                    reason += f"; {why_weak or strat.why_next(tier, query, len(hits), k, nxt)}"
                tier = nxt
        ms = (time.perf_counter() - t0) * 1000
        res = SearchRun(query, "+".join(ran), "auto", reason, hits, len(files), ms, notes)
        return self._explained(res, ran[-1] if ran else "grep") if explain else res

    def _explicit(self, strategy: str) -> tuple[str, str]:
        """(tier to run, reason) for a ``--strategy`` the user named. With the vectors
        disabled by a bad config value, ``hybrid`` runs the keyword index (saying why: a
        ranking is more use than an error) and ``vector`` is refused."""
        reason = f"--strategy {strategy}"
        if not self.s.vectors_off or strategy not in ("vector", "hybrid"):
            return strategy, reason
        if strategy == "vector":
            raise InvalidInput(f"{self.s.vectors_off}; `--strategy index` or `grep` still work")
        return "index", f"{reason}; {self.s.vectors_off}: fell back to the keyword index"

    def _tier(
        self,
        tier: str,
        query: str,
        k: int,
        category: str | None,
        source: str,
        files: list[SourceFile],
        explain: bool = False,
    ) -> list[SearchHit]:
        """The hits of one strategy (``grep`` scans ``files``; the others use the index)."""
        if tier == "grep":
            return grep(files, query, k)
        self._refresh_if_stale()
        if tier in ("vector", "hybrid"):
            self._sync_vectors()
        return self._ranked(tier, query, k, category, source, explain)


def _merged(first: list[SearchHit], more: list[SearchHit], k: int) -> list[SearchHit]:
    """``first`` then the hits of ``more`` that point at lines not already shown, up to ``k``."""
    out = list(first)
    for h in more:
        if len(out) >= k:
            break
        if not any(o.path == h.path and o.start <= h.end and h.start <= o.end for o in out):
            out.append(h)
    return out[:k]
