"""What the Index pane shows, as plain data: categories, counts, rows fetched per category, filter hits.

No Textual here, so the grouping, counting and filtering are tested without an app.

The model never holds every entry: at 100k entries a summary each was most of the app's
memory and seconds of a worker sharing the interpreter with the UI. Counts come from the
catalog (one ``GROUP BY``); a category's rows are fetched when it is expanded and kept
while it is shown (``source.rows``); the filter asks the catalog (``source.find``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from memsearch_tui.engine.api.types import EntrySummary

FILTER_LIMIT = 500


class RowSource(Protocol):
    """Where a category's rows and the filter's hits come from (``mem.entries``)."""

    def rows(self, category: str) -> tuple[EntrySummary, ...]: ...

    def find(self, text: str, limit: int) -> tuple[EntrySummary, ...]: ...

    def summary(self, entry_id: str) -> EntrySummary | None: ...


class NoRows:
    """The source of a model with no store behind it (before the first load, an error)."""

    def rows(self, category: str) -> tuple[EntrySummary, ...]:
        return ()

    def find(self, text: str, limit: int) -> tuple[EntrySummary, ...]:
        return ()

    def summary(self, entry_id: str) -> EntrySummary | None:
        return None


@dataclass
class NodeData:
    kind: str  # "root" | "cat" | "entry" | "more"
    key: str  # category path or entry id
    offset: int = 0  # for "more": index of the next entry to add
    filled: bool = False


def parent_of(category: str) -> str:
    return category.rsplit("/", 1)[0] if "/" in category else ""


def lineage(category: str) -> list[str]:
    """``a/b`` → ``["a/b", "a", ""]``: the category and every ancestor up to the root."""
    out = [category]
    while category:
        category = parent_of(category)
        out.append(category)
    return out


@dataclass
class IndexModel:
    """Category counts for the tree, and the rows of the categories fetched so far."""

    source: RowSource = field(default_factory=NoRows)
    entries_of: dict[str, list[EntrySummary]] = field(default_factory=dict)  # fetched: direct entries
    summaries: dict[str, EntrySummary] = field(default_factory=dict)  # the fetched rows by id
    children: dict[str, list[str]] = field(default_factory=dict)  # category → subcategories
    counts: dict[str, int] = field(default_factory=dict)  # recursive entry counts
    direct: dict[str, int] = field(default_factory=dict)  # entries directly in a category
    flagged: dict[str, int] = field(default_factory=dict)  # recursive non-active counts
    error: str = ""
    partial: bool = False  # counts from the catalog as last saved; the disk is being re-checked

    @classmethod
    def from_tally(
        cls, tally: dict[str, tuple[int, int]], categories: list[str], source: RowSource, *, partial: bool = False
    ) -> IndexModel:
        """Counts straight from the catalog (``mem.entries.tally``): (entries, not active) per category."""
        m = cls(source=source, partial=partial)
        m._add_categories(set(categories) | {c for c in tally if c})
        for category, (count, not_active) in tally.items():
            m.direct[category] = count
            for node in lineage(category):
                m.counts[node] = m.counts.get(node, 0) + count
                if not_active:
                    m.flagged[node] = m.flagged.get(node, 0) + not_active
        return m

    def _add_categories(self, cats: set[str]) -> None:
        for c in list(cats):  # every ancestor exists as a category too
            parts = c.split("/")
            cats.update("/".join(parts[:i]) for i in range(1, len(parts)))
        for c in sorted(cats):
            self.children.setdefault(parent_of(c), []).append(c)

    def category_count(self) -> int:
        return sum(len(rows) for rows in self.children.values())

    @property
    def total(self) -> int:
        return self.counts.get("", 0)

    def rows(self, category: str) -> list[EntrySummary]:
        """The entries directly in ``category`` (active first, then by title), fetched once."""
        rows = self.entries_of.get(category)
        if rows is None:
            rows = list(self.source.rows(category)) if self.direct.get(category) else []
            sort_rows(rows)
            self.entries_of[category] = rows
            self.summaries.update((r.id, r) for r in rows)
        return rows

    def find(self, entry_id: str) -> EntrySummary | None:
        """Entry ``entry_id``'s row (asked of the catalog when its category was not fetched)."""
        s = self.summaries.get(entry_id)
        if s is None and self.total:
            s = self.source.summary(entry_id)
        return s

    def filter(self, text: str, limit: int = FILTER_LIMIT) -> tuple[dict[str, list[EntrySummary]], int]:
        """Entries whose title, id or a tag contains ``text`` (case-folded), by category.

        Returns (hits by category, each sorted by title; number of hits, at most ``limit``).
        """
        q = text.strip()
        hits: dict[str, list[EntrySummary]] = {}
        if not q or not self.total:
            return hits, 0
        found = self.source.find(q, limit)
        for s in found:
            hits.setdefault(s.category, []).append(s)
            self.summaries.setdefault(s.id, s)
        for rows in hits.values():
            rows.sort(key=lambda s: s.title.casefold())
        return hits, len(found)


def sort_rows(rows: list[EntrySummary]) -> None:
    rows.sort(key=lambda s: (s.status != "active", s.title.casefold()))
