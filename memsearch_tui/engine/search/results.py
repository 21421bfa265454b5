"""What a search returns: which strategy ran and why, with its hits (:class:`.hit.SearchHit`).

A named tuple rather than a dataclass: ``dataclasses`` imports ``inspect`` (5–10 ms), and
the literal search runs on a path that must start faster than ``grep``. Immutable once
built. :data:`HIT_FIELDS` is the hit record's field order, for that path's JSON.
"""

from __future__ import annotations

import re
from collections import namedtuple

# SearchHit's fields, in order: the keys of a hit on the wire (tests/search/test_one_hit_record.py)
HIT_FIELDS = ("id", "path", "source", "kind", "title", "heading", "lines", "snippet", "score", "turn", "chunk_id")
_RESULT_FIELDS = "query strategy requested reason hits files took_ms notes explain"

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (this path races grep)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import NamedTuple

    from memsearch_tui.engine.search.explain import QueryExplain
    from memsearch_tui.engine.search.hit import SearchHit

    # One hit's values in SearchHit's field order, but ``explain`` (the literal search's rows).
    HitValues = tuple[str, str, str, str, str, str, tuple[int, int], str, float, str, str]

    class _ResultFields(NamedTuple):
        """What the checker sees of the ``namedtuple`` below (same fields, same defaults)."""

        query: str
        strategy: str
        requested: str
        reason: str
        hits: Sequence[SearchHit] = ()
        files: int = 0
        took_ms: float = 0.0
        notes: Sequence[str] = ()
        explain: QueryExplain | None = None

else:
    _ResultFields = namedtuple("SearchRun", _RESULT_FIELDS, defaults=((), 0, 0.0, (), None))


class SearchRun(_ResultFields):
    """The hits, the strategy that ran (and the one asked for), why, and how long it took."""

    __slots__ = ()


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
