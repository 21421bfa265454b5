"""Why a hit ranks where it does: each leg's rank and score, the fusion weights, the terms.

People decide how far to trust a search by seeing why it answered what it did, and agents
cite it. The engine fills these records only when asked (``search(..., explain=True)``),
so an ordinary search pays nothing for them; the CLI prints them (``search --explain``),
``--json`` and MCP carry :meth:`HitExplain.as_dict` under each hit's ``explain`` key, and
the result's ``explain`` says how the legs were weighed for the query as a whole.
"""

from __future__ import annotations

from dataclasses import asdict, field
from typing import Any

from memsearch_tui.engine.core.record import record


@record
class Leg:
    """One ranking's view of a hit: its 1-based rank and raw score (None: not in that list)."""

    rank: int | None
    score: float | None


@record
class Weights:
    """How the legs were weighed for one query (or one chunk), and why."""

    method: str  # convex | rrf | keyword | vector | grep
    dense: float
    keyword: float
    why: str


@record
class HitExplain:
    """What put one hit where it is."""

    tier: str  # grep | index | vector | hybrid: which tier of the search produced the hit
    rank: int  # 1-based place in the final list
    score: float
    keyword: Leg | None = None
    dense: Leg | None = None
    weights: Weights | None = None
    matched: tuple[str, ...] = ()
    boost: str = ""  # a re-scoring after fusion (the query names this turn's speaker), or ""

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["matched"] = list(self.matched)
        return d


@record
class QueryExplain:
    """How the query was read: its terms, its script, the model's languages, the weights."""

    terms: tuple[str, ...]
    script: str  # cjk | alpha | none
    model: str
    model_languages: str
    weights: Weights | None
    # the time window the question named or --since/--until gave (.timewindow); off the wire
    # when "" (engine.api.serialise.wire(omit_default=True), which the engine cannot import)
    window: str = field(default="", metadata={"omit_default": True})
    # misspelled words corrected from the index's vocabulary (.typos): "postgress → postgres"
    spelling: tuple[str, ...] = field(default=(), metadata={"omit_default": True})

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["terms"] = list(self.terms)
        if not self.window:
            del d["window"]
        if self.spelling:
            d["spelling"] = list(self.spelling)
        else:
            del d["spelling"]
        return d
