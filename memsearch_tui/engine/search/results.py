"""What a search returns: hits with where they are, and which strategy ran and why.

Named tuples rather than dataclasses: ``dataclasses`` imports ``inspect`` (5–10 ms), and
the literal search runs on a path that must start faster than ``grep``. Both are
immutable once built.
"""

from __future__ import annotations

import re
from collections import namedtuple

_HIT_FIELDS = "id path source kind heading start end score snippet chunk_id title turn explain"
_RESULT_FIELDS = "query strategy requested reason hits files took_ms notes explain"

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (this path races grep)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, NamedTuple

    from memsearch_tui.engine.search.explain import HitExplain, QueryExplain

    class _HitFields(NamedTuple):
        """What the checker sees of the ``namedtuple`` below (same fields, same defaults)."""

        id: str
        path: str
        source: str
        kind: str
        heading: str
        start: int
        end: int
        score: float
        snippet: str
        chunk_id: str = ""
        title: str = ""
        turn: str = ""
        explain: HitExplain | None = None

    class _ResultFields(NamedTuple):
        """What the checker sees of the ``namedtuple`` below (same fields, same defaults)."""

        query: str
        strategy: str
        requested: str
        reason: str
        hits: Sequence[Hit] = ()
        files: int = 0
        took_ms: float = 0.0
        notes: Sequence[str] = ()
        explain: QueryExplain | None = None

else:
    _HitFields = namedtuple("Hit", _HIT_FIELDS, defaults=("", "", "", None))
    _ResultFields = namedtuple("SearchRun", _RESULT_FIELDS, defaults=((), 0, 0.0, (), None))


class Hit(_HitFields):
    """One result: an entry id (store) or a file path (journals), and the lines it covers.

    ``source`` is store|journal, ``kind`` entry|journal|project|user. ``title`` is the
    entry's frontmatter title (the day for a journal, the file name for PROJECT.md and
    USER.md); ``turn`` is the journal turn's heading (``### 14:05 …``) the hit lies in.
    ``explain`` (:class:`.explain.HitExplain`) is filled by ``search(..., explain=True)``.
    """

    __slots__ = ()

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = self._asdict()
        d["lines"] = [self.start, self.end]
        if self.explain is None:
            del d["explain"]
        else:
            d["explain"] = self.explain.as_dict()
        return d


class SearchRun(_ResultFields):
    """The hits, the strategy that ran (and the one asked for), why, and how long it took."""

    __slots__ = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "strategy": self.strategy,
            "requested": self.requested,
            "reason": self.reason,
            "files": self.files,
            "took_ms": round(self.took_ms, 1),
            "notes": list(self.notes),
            "hits": [h.as_dict() for h in self.hits],
            **({"explain": self.explain.as_dict()} if self.explain is not None else {}),
        }


_TITLE = re.compile(r"^title:\s*(.*?)\s*$", re.M)
_DAY = re.compile(r"(\d{4}-\d{2}-\d{2})[^/\\]*\.md$")
TURN_PREFIX = "### "


def title_of(kind: str, path: str, text: str) -> str:
    """What a person calls the file a hit is in (reads only the frontmatter of ``text``).

    Entries: the ``title:`` of the frontmatter, else the file name; journals: the day;
    PROJECT.md / USER.md: their name. Cheap enough for the literal-search path.
    """
    if kind == "entry":
        if text.startswith("---"):
            end = text.find("\n---", 3)
            m = _TITLE.search(text, 3, end if end > 0 else min(len(text), 4096))
            if m and m.group(1):
                return m.group(1).strip("\"'")
        return path.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".md")
    if kind == "journal":
        m = _DAY.search(path)
        return m.group(1) if m else path.replace("\\", "/").rsplit("/", 1)[-1]
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def turn_of(kind: str, heading: str) -> str:
    """The turn heading (``### HH:MM …``) in a chunk's heading path or a grep hit's heading."""
    if kind != "journal" or not heading:
        return ""
    last = heading.split(" > ")[-1].strip()
    return last if last.startswith(TURN_PREFIX) else ""
