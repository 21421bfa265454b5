"""``auto``: pick a strategy by how many files are searched (the seed's rule).

Under 50 files a literal grep is instant and exact; from 50 to 500 the keyword index
(titles, headings, BM25 over chunks: the "index navigation" tier) finds notes without a
full scan; beyond 500 keyword matching returns noise, so the semantic tier runs — as
hybrid (dense + keyword, fused), which beat dense alone in every measurement we ran.

The tier chosen by size is only the first choice: a natural-language question ("how do we
roll back a deploy", 「证书怎么续期？」) occurs literally nowhere, so a question whose tier
returns fewer than k hits falls through to the next tier (grep → index → hybrid), keeping
the hits found so far first. A question is several words — and a Chinese or Japanese
sentence has no spaces, so a CJK run of three or more characters (more than one
two-character word) counts as several. Whatever the query, a literal scan that finds
nothing always tries the keyword index (stemming and compounds find "rollbacks" for
"rollback"), and a word the keyword index misses too reaches the vectors. ``auto``
therefore never returns nothing when a later tier finds something;
the reason says which tiers ran and why.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.search.tokenize import CJK_CHARS

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


@lru_cache(maxsize=1)
def _cjk_sentence() -> re.Pattern[str]:
    """Three CJK characters in a row; compiled on first use (the class takes ~4 ms)."""
    return re.compile(f"[{CJK_CHARS}]{{3,}}")


def is_question(query: str) -> bool:
    """Several words: split by spaces, or a CJK run longer than one two-character word."""
    return len(query.split()) >= 2 or _cjk_sentence().search(query) is not None


def next_tier(ran: str, query: str, found: int, k: int) -> str | None:
    """The tier ``auto`` falls through to after ``ran`` found ``found`` hits, or None.

    A question (:func:`is_question`) falls through while it has fewer than ``k`` hits; a
    single word only when a tier found nothing: from the literal scan to the keyword index
    (its stemmed, compound-aware match), and from there to the vectors only when the
    keyword index found nothing either (their best guesses rather than nothing: ``auto``
    never returns nothing when another strategy finds something).
    """
    if found >= k or ran not in TIERS:
        return None
    if not is_question(query) and found > 0:
        return None
    at = TIERS.index(ran)
    return TIERS[at + 1] if at + 1 < len(TIERS) else None


def why_next(ran: str, query: str, found: int, k: int, nxt: str) -> str:
    """The reason-line clause for falling through from ``ran`` to ``nxt``."""
    what = "a question" if is_question(query) else "a word the literal scan did not find"
    return f"{ran} found {found} of {k} for {what}, fell through to {nxt}"


def checked(query: str | None, strategy: str, k: int, source: str, category: str | None) -> tuple[str, str | None]:
    """(query, category) cleaned up, or InvalidInput naming what is wrong with the request."""
    query = (query or "").strip()
    if not query:
        raise InvalidInput("empty query: give the words to search for")
    if not query.isascii():
        try:
            query.encode("utf-8")
        except UnicodeEncodeError as exc:  # a JSON "\ud800": no file holds it, no output can carry it
            at = f"U+{ord(query[exc.start]):04X}"
            raise InvalidInput(f"the query holds a lone surrogate ({at}), which is not text: send UTF-8") from None
    if strategy not in STRATEGIES:
        raise InvalidInput(f"unknown strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")
    if source not in SOURCES:
        raise InvalidInput(f"unknown source {source!r}: choose one of {', '.join(SOURCES)}")
    if not isinstance(k, int) or k < 1 or k > 1000:
        raise InvalidInput(f"-k {k}: expected 1–1000")
    return query, (category or "").strip("/") or None
