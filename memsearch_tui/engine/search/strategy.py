"""``auto``: pick a strategy by how many files are searched (the seed's rule).

Under 50 files a literal grep is instant and exact; from 50 to 500 the keyword index
(titles, headings, BM25 over chunks: the "index navigation" tier) finds notes without a
full scan; beyond 500 keyword matching returns noise, so the semantic tier runs — as
hybrid (dense + keyword, fused), which beat dense alone in every measurement we ran.

The tier chosen by size is only the first choice: a natural-language question ("how do we
roll back a deploy") occurs literally nowhere, so a multi-word query whose tier returns
fewer than k hits falls through to the next tier (grep → index → hybrid), keeping the
hits found so far first. ``auto`` therefore never returns nothing when a later tier
finds something; the reason says which tiers ran and why.
"""

from __future__ import annotations

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.text import plural

STRATEGIES = ("auto", "grep", "index", "vector", "hybrid")
SOURCES = ("all", "store", "journal")
GREP_BELOW = 50
INDEX_UP_TO = 500


def choose(files: int) -> tuple[str, str]:
    """(strategy, reason) for ``auto``."""
    if files < GREP_BELOW:
        return "grep", f"{plural(files, 'file')} < {GREP_BELOW}: literal scan of the files"
    if files <= INDEX_UP_TO:
        return "index", f"{plural(files, 'file')} in {GREP_BELOW}–{INDEX_UP_TO}: keyword index navigation"
    return "hybrid", f"{plural(files, 'file')} > {INDEX_UP_TO}: semantic search (vector + keyword, fused)"


TIERS = ("grep", "index", "hybrid")


def next_tier(ran: str, query: str, found: int, k: int) -> str | None:
    """The tier ``auto`` falls through to after ``ran`` found ``found`` hits, or None.

    Only a multi-word query falls through: one word that a literal scan does not find is
    not there (a keyword or semantic match of one word adds noise, not answers).
    """
    if found >= k or len(query.split()) < 2 or ran not in TIERS:
        return None
    at = TIERS.index(ran)
    return TIERS[at + 1] if at + 1 < len(TIERS) else None


def checked(query: str | None, strategy: str, k: int, source: str, category: str | None) -> tuple[str, str | None]:
    """(query, category) cleaned up, or InvalidInput naming what is wrong with the request."""
    query = (query or "").strip()
    if not query:
        raise InvalidInput("empty query: give the words to search for")
    if strategy not in STRATEGIES:
        raise InvalidInput(f"unknown strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")
    if source not in SOURCES:
        raise InvalidInput(f"unknown source {source!r}: choose one of {', '.join(SOURCES)}")
    if not isinstance(k, int) or k < 1 or k > 1000:
        raise InvalidInput(f"-k {k}: expected 1–1000")
    return query, (category or "").strip("/") or None
