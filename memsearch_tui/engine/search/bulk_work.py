"""How a bulk encode (indexing) splits its texts: batches by token budget, one per core.

Shared by the numpy, torch and E5 bulk encoders, so all spread the same work the same way
(E5's engine embeds each text on its own, so its parts are runs of about equal length in
the texts' own order, :func:`even_runs`, rather than batches of similar length).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence, Sized
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T", bound=Sized)  # a token-id list or a text: its length sizes its group

BULK_TOKENS = 2048  # token rows per bulk batch: GEMMs at full speed, and a batch's activations fit in L3


def bulk_batches(lengths: Sequence[int], workers: int) -> list[tuple[int, int]]:
    """``[begin, end)`` runs of ``lengths`` (sorted ascending) of about :data:`BULK_TOKENS`
    padded tokens each, as many as a multiple of ``workers`` so every core gets an equal share."""
    total = sum(lengths)
    parts = max(1, -(-total // BULK_TOKENS))
    parts = -(-parts // workers) * workers
    target = total / parts
    out: list[tuple[int, int]] = []
    begin = 0
    for end, n in enumerate(lengths, start=1):
        if n * (end - begin) >= target or end == len(lengths):
            out.append((begin, end))
            begin = end
    return out


def even_runs(sizes: Sequence[int], parts: int) -> list[list[int]]:
    """Indexes ``0 … len(sizes)-1`` in at most ``parts`` consecutive runs of about equal sum
    (each run non-empty, order kept)."""
    total, cuts, run = sum(sizes) or 1, [0], 0
    for i, n in enumerate(sizes[:-1], start=1):
        run += n
        if run * parts >= total * len(cuts):
            cuts.append(i)
    cuts.append(len(sizes))
    return [list(range(a, b)) for a, b in zip(cuts, cuts[1:])]


def length_groups(encs: Sequence[Sequence[int]], workers: int) -> list[list[int]]:
    """Indexes of ``encs`` (token-id lists) in :func:`bulk_batches` runs of similar length."""
    order = sorted(range(len(encs)), key=lambda i: len(encs[i]))
    return [order[b:e] for b, e in bulk_batches([len(encs[i]) for i in order], workers)]


def run_groups(
    encs: Sequence[T],
    groups: list[list[int]],
    forward: Callable[[list[T]], Any],
    out: Any,
    workers: int,
    stop: Callable[[], bool] | None = None,
) -> None:
    """``out[idx] = forward(those token lists or texts)`` for each group of indexes: on
    ``workers`` threads, the biggest group first (no long tail), when there is more than one of each.
    ``stop()``: asked before each group; true raises :class:`.stopping.BuildStopped` (the
    groups under way end at their own next check, ``forward``'s, before the pool is left)."""
    from memsearch_tui.engine.search.stopping import check

    def run(idx: list[int]) -> Any:
        check(stop)
        return forward([encs[i] for i in idx])

    if min(len(groups), workers) > 1:
        from concurrent.futures import ThreadPoolExecutor

        groups = sorted(groups, key=lambda idx: -len(idx) * len(encs[idx[-1]]))
        with ThreadPoolExecutor(workers) as pool:
            for idx, vecs in zip(groups, pool.map(run, groups)):
                out[idx] = vecs
    else:
        for idx in groups:
            out[idx] = run(idx)


def cores() -> int:
    """CPUs this process may run on (a bulk encode runs one batch per core, up to 4)."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        n = os.cpu_count() or 1
    return max(1, min(n, 4))


def model_tokenizer(model_dir: Path, max_len: int) -> Any:
    """The model's ``tokenizers`` Tokenizer: truncating at ``max_len``, never padding
    (the encoders pack or pad batches themselves)."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tok.enable_truncation(max_len)
    tok.no_padding()
    return tok
