"""The search hit: one frozen record, made where a ranking makes it (:mod:`.ranking` for
the index, vector and hybrid tiers, :mod:`.grep` for the literal one) and handed as it is
to every face: ``engine.api`` re-exports it as ``SearchHit``, ``search --json`` and the
MCP ``search`` tool serialise it with ``to_json`` (its fields are the wire's keys, in
order), the app's search pane draws it.

The CLI's literal fast path races ``grep -ri`` and cannot afford ``dataclasses``: the
literal search hands it each hit's values in this record's field order
(:data:`.results.HIT_FIELDS`), which it writes as this record's JSON; a test holds the
two to the same keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memsearch_tui.engine.core.record import record

if TYPE_CHECKING:  # bound at run time by resolve_hints(): only a search that explains loads it
    from memsearch_tui.engine.search.explain import HitExplain


def resolve_hints() -> None:
    """Bind ``HitExplain`` in this module at run time, for the readers of the record's type
    hints (the MCP SDK builds the ``search`` tool's output schema from them). ``engine.api``
    calls it as it loads; the ranking does not, so a search that is not explained never
    imports :mod:`.explain` (a one-shot hybrid CLI search's budget, ``tests/search/test_cli_fast.py``)."""
    from memsearch_tui.engine.search.explain import HitExplain

    globals()["HitExplain"] = HitExplain


# The docstring below is the MCP search tool's schema description of a hit: clients see it
# (tests/mcp/tool_schemas.json). ``title`` is the entry's frontmatter title (the day for a
# journal, the file name for PROJECT.md and USER.md); ``explain`` is filled by
# ``search(..., explain=True)``.
@record
class SearchHit:
    """One hit: an entry id (store) or a file (journals, PROJECT.md, USER.md) and its lines.

    The same fields on every face (``search --json``, the MCP ``search`` tool, the app).
    """

    id: str
    path: str
    source: str  # store | journal
    kind: str  # entry | journal | project | user
    title: str
    heading: str
    lines: tuple[int, int]  # 1-based, inclusive
    snippet: str
    score: float
    turn: str = ""  # a journal hit: the heading of the turn it lies in
    chunk_id: str = ""  # the indexed chunk (index, vector and hybrid strategies)
    explain: HitExplain | None = None  # search(explain=True): legs, weights, matched terms

    @property
    def start(self) -> int:
        """The first line of the hit (1-based)."""
        return self.lines[0]

    @property
    def end(self) -> int:
        """The last line of the hit (1-based, inclusive)."""
        return self.lines[1]
