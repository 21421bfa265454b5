"""``auto``: pick a strategy by how many files are searched (the seed's rule).

Under 50 files a literal grep is instant and exact; from 50 to 500 the keyword index
(titles, headings, BM25 over chunks: the "index navigation" tier) finds notes without a
full scan; beyond 500 keyword matching returns noise, so the semantic tier runs — as
hybrid (dense + keyword, fused), which beat dense alone in every measurement we ran.
"""

from __future__ import annotations

STRATEGIES = ("auto", "grep", "index", "vector", "hybrid")
GREP_BELOW = 50
INDEX_UP_TO = 500


def choose(files: int) -> tuple[str, str]:
    """(strategy, reason) for ``auto``."""
    if files < GREP_BELOW:
        return "grep", f"{files} files < {GREP_BELOW}: literal scan of the files"
    if files <= INDEX_UP_TO:
        return "index", f"{files} files in {GREP_BELOW}–{INDEX_UP_TO}: keyword index navigation"
    return "hybrid", f"{files} files > {INDEX_UP_TO}: semantic search (vector + keyword, fused)"
