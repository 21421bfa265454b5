"""The fusion's loop without per-item lists (session 8) gives bit-for-bit the scores it gave."""

from __future__ import annotations

import random

import pytest

from memsearch_tui.engine.search import fusion


def combine_before(order, parts, floors, weights, blind):
    """``fusion._combine`` as it was before session 8."""
    items: dict = {}
    for ranking in order:
        for item in ranking:
            items.setdefault(item, None)
    live = [i for i, r in enumerate(order) if r]
    total = sum(weights[i] for i in live)
    fused = {}
    for item in items:
        seeing = [i for i in live if not (blind and blind[i] is not None and blind[i](item))]
        share = sum(weights[i] for i in seeing)
        if not seeing or share <= 0:
            fused[item] = 0.0
            continue
        scale = total / share
        fused[item] = scale * sum(weights[i] * parts[i].get(item, floors[i]) for i in seeing)
    return sorted(fused.items(), key=lambda kv: -kv[1])


@pytest.mark.parametrize("seed", range(40))
def test_convex_and_rrf_equal_the_loop_before(seed, monkeypatch):
    rng = random.Random(seed)
    pool = [f"c{i}" for i in range(300)]
    dense = [(c, rng.uniform(-0.2, 0.9)) for c in rng.sample(pool, rng.choice([0, 1, 50, 200]))]
    keyword = [(c, rng.uniform(0.0, 12.0)) for c in rng.sample(pool, rng.choice([0, 3, 50]))]
    weights = rng.choice([[0.5, 0.5], [0.7, 0.3], [0.0, 1.0], [1.0, 0.0], [0.0, 0.0], [0.3333, 0.6667]])
    unread = set(rng.sample(pool, rng.choice([0, 5, 120])))
    blind = rng.choice([None, [None, None], [unread.__contains__, None], [unread.__contains__, unread.__contains__]])
    complete = [False, rng.random() < 0.5]
    new = fusion.convex([dense, keyword], weights, blind=blind, complete=complete)
    new_rrf = fusion.rrf([[c for c, _ in dense], [c for c, _ in keyword]], weights=weights, blind=blind)
    monkeypatch.setattr(fusion, "_combine", combine_before)
    assert new == fusion.convex([dense, keyword], weights, blind=blind, complete=complete)
    assert new_rrf == fusion.rrf([[c for c, _ in dense], [c for c, _ in keyword]], weights=weights, blind=blind)
