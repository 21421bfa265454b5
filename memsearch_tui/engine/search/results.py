"""What a search returns: hits with where they are, and which strategy ran and why.

Named tuples rather than dataclasses: ``dataclasses`` imports ``inspect`` (5–10 ms), and
the literal search runs on a path that must start faster than ``grep``. Both are
immutable once built.
"""

from __future__ import annotations

from collections import namedtuple

_HIT_FIELDS = "id path source kind heading start end score snippet chunk_id"
_RESULT_FIELDS = "query strategy requested reason hits files took_ms notes"


class Hit(namedtuple("Hit", _HIT_FIELDS, defaults=("",))):
    """One result: an entry id (store) or a file path (journals), and the lines it covers.

    ``source`` is store|journal, ``kind`` entry|journal|project|user.
    """

    __slots__ = ()

    def as_dict(self) -> dict:
        d = self._asdict()
        d["lines"] = [self.start, self.end]
        return d


class SearchResult(namedtuple("SearchResult", _RESULT_FIELDS, defaults=((), 0, 0.0, ()))):
    """The hits, the strategy that ran (and the one asked for), why, and how long it took."""

    __slots__ = ()

    def as_dict(self) -> dict:
        return {
            "query": self.query,
            "strategy": self.strategy,
            "requested": self.requested,
            "reason": self.reason,
            "files": self.files,
            "took_ms": round(self.took_ms, 1),
            "notes": list(self.notes),
            "hits": [h.as_dict() for h in self.hits],
        }
