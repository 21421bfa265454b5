"""Fusing the dense and keyword rankings: reciprocal-rank fusion or a convex combination.

RRF (Cormack et al., 2009) uses ranks only, so it needs no calibration between cosine
similarities and BM25 scores, but it also forgets how far ahead each list's leader is.
The convex combination below keeps that; on both quality sets (LoCoMo and the labelled
corpus, see benchmarks/results/search.md) it was the only family that beat both single
rankers, so it is the default (equal weights) and RRF stays selectable.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

H = TypeVar("H", bound=Hashable)  # a ranked item (a chunk id); fusion hands back the same type


def rrf(
    rankings: Sequence[Sequence[H]], *, k: float = 60.0, weights: Sequence[float] | None = None
) -> list[tuple[H, float]]:
    """Items of all rankings by fused score, best first (ties keep first-seen order)."""
    weights = weights or [1.0] * len(rankings)
    scores: dict[H, float] = {}
    for ranking, w in zip(rankings, weights):
        for rank, item in enumerate(ranking):
            scores[item] = scores.get(item, 0.0) + w / (k + rank + 1)
    return sorted(scores.items(), key=lambda kv: -kv[1])


def convex(rankings: Sequence[Sequence[tuple[H, float]]], weights: Sequence[float]) -> list[tuple[H, float]]:
    """Weighted sum of each list's scores divided by that list's best score.

    Dividing by the maximum keeps each ranker's own score shape (how far ahead its leader
    is), which RRF throws away. An item a ranker did not return gets that ranker's lowest
    returned score — it is at best as good as the last one in the list, not worthless.
    """
    normed: list[tuple[dict[H, float], float, float]] = []
    for ranking, w in zip(rankings, weights):
        if not ranking:
            continue
        scores = [s for _, s in ranking]
        lo, hi = min(scores), max(scores)
        if hi > 0:
            norm = {item: s / hi for item, s in ranking}
        else:  # all scores <= 0 (e.g. only negative cosines): fall back to min-max
            norm = {item: ((s - lo) / (hi - lo) if hi > lo else 1.0) for item, s in ranking}
        normed.append((norm, min(norm.values()), w))
    items: dict[H, None] = {}
    for ranking in rankings:
        for item, _ in ranking:
            items.setdefault(item, None)
    fused = {item: sum(w * norm.get(item, floor) for norm, floor, w in normed) for item in items}
    return sorted(fused.items(), key=lambda kv: -kv[1])
