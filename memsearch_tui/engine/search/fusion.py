"""Fusing the dense and keyword rankings: reciprocal-rank fusion or a convex combination.

RRF (Cormack et al., 2009) uses ranks only, so it needs no calibration between cosine
similarities and BM25 scores, but it also forgets how far ahead each list's leader is.
The convex combination below keeps that; on both quality sets (LoCoMo and the labelled
corpus, see benchmarks/results/search.md) it was the only family that beat both single
rankers, so it is the default (equal weights) and RRF stays selectable.

Both take ``blind``: per ranking, the items it cannot judge (a vector model that cannot
read a chunk's language). Such an item is scored by the other rankings alone, their
weights renormalised — so the fusion is never worse than the ranker that can read it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

H = TypeVar("H", bound=Hashable)  # a ranked item (a chunk id); fusion hands back the same type
Blind = Sequence[Callable[[H], bool] | None]


def rrf(
    rankings: Sequence[Sequence[H]],
    *,
    k: float = 60.0,
    weights: Sequence[float] | None = None,
    blind: Blind[H] | None = None,
) -> list[tuple[H, float]]:
    """Items of all rankings by fused score, best first (ties keep first-seen order)."""
    weights = weights or [1.0] * len(rankings)
    parts: list[dict[H, float]] = []
    for ranking in rankings:
        parts.append({item: 1.0 / (k + rank + 1) for rank, item in enumerate(ranking)})
    floors = [0.0] * len(rankings)
    return _combine([list(r) for r in rankings], parts, floors, weights, blind)


def convex(
    rankings: Sequence[Sequence[tuple[H, float]]],
    weights: Sequence[float],
    blind: Blind[H] | None = None,
    complete: Sequence[bool] | None = None,
) -> list[tuple[H, float]]:
    """Weighted sum of each list's scores divided by that list's best score.

    Dividing by the maximum keeps each ranker's own score shape (how far ahead its leader
    is), which RRF throws away. An item a ranker did not return gets that ranker's lowest
    returned score — it is at best as good as the last one in the list, not worthless —
    unless the list is ``complete`` (shorter than the depth asked: the keyword ranker
    returned every chunk holding a query term), where a missing item scores 0: one
    keyword hit must not hand its full score to every vector candidate.
    """
    parts: list[dict[H, float]] = []
    floors: list[float] = []
    for at, ranking in enumerate(rankings):
        scores = [s for _, s in ranking]
        lo, hi = (min(scores), max(scores)) if scores else (0.0, 0.0)
        if hi > 0:
            norm = {item: s / hi for item, s in ranking}
        else:  # all scores <= 0 (e.g. only negative cosines): fall back to min-max
            norm = {item: ((s - lo) / (hi - lo) if hi > lo else 1.0) for item, s in ranking}
        parts.append(norm)
        floors.append(min(norm.values()) if norm and not (complete and complete[at]) else 0.0)
    return _combine([[item for item, _ in r] for r in rankings], parts, floors, weights, blind)


def _combine(
    order: Sequence[Sequence[H]],
    parts: Sequence[dict[H, float]],
    floors: Sequence[float],
    weights: Sequence[float],
    blind: Blind[H] | None,
) -> list[tuple[H, float]]:
    """Sum of weighted per-ranking scores; a ranking blind to an item gives up its weight."""
    items: dict[H, None] = {}
    for ranking in order:
        for item in ranking:
            items.setdefault(item, None)
    live = [i for i, r in enumerate(order) if r]
    total = sum(weights[i] for i in live)
    checks = [b for i in live if blind and (b := blind[i]) is not None]
    every = [(weights[i], parts[i].get, floors[i]) for i in live]  # an item every live ranking sees
    whole = total / total if live and not total <= 0 else 0.0  # its scale (1.0) as the loop below has it
    fused: dict[H, float] = {}
    for item in items:
        if not checks or not any(b(item) for b in checks):  # the usual case, without the per-item lists
            if whole:
                acc = 0.0
                for w, score, floor in every:
                    acc += w * score(item, floor)
                fused[item] = whole * acc
            else:
                fused[item] = 0.0
            continue
        seeing = [i for i in live if not (blind and blind[i] is not None and blind[i](item))]  # type: ignore[misc]
        share = sum(weights[i] for i in seeing)
        if not seeing or share <= 0:
            fused[item] = 0.0
            continue
        scale = total / share  # the blind rankings' weight goes to the others
        fused[item] = scale * sum(weights[i] * parts[i].get(item, floors[i]) for i in seeing)
    return sorted(fused.items(), key=lambda kv: -kv[1])
