"""Reciprocal-rank fusion of several rankings (Cormack et al., 2009).

RRF uses ranks only, so it needs no calibration between cosine similarities and BM25
scores, which live on unrelated scales. ``k`` damps the head of each list; the weights
let one ranking count more than another.
"""

from __future__ import annotations

from typing import Hashable, Sequence


def rrf(rankings: Sequence[Sequence[Hashable]], *, k: float = 60.0, weights: Sequence[float] | None = None) -> list[tuple[Hashable, float]]:
    """Items of all rankings by fused score, best first (ties keep first-seen order)."""
    weights = weights or [1.0] * len(rankings)
    scores: dict[Hashable, float] = {}
    for ranking, w in zip(rankings, weights):
        for rank, item in enumerate(ranking):
            scores[item] = scores.get(item, 0.0) + w / (k + rank + 1)
    return sorted(scores.items(), key=lambda kv: -kv[1])
