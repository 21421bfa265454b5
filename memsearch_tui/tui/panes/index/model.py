"""What the Index pane shows, as plain data: categories, entry summaries, counts, filter hits.

No Textual here, so the grouping, counting and filtering are tested without an app.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memsearch_tui.engine.api.types import EntrySummary

FILTER_LIMIT = 500


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
    """Categories and entry summaries grouped for the tree (built in a worker)."""

    summaries: dict[str, EntrySummary] = field(default_factory=dict)
    entries_of: dict[str, list[EntrySummary]] = field(default_factory=dict)  # direct entries
    children: dict[str, list[str]] = field(default_factory=dict)  # category → subcategories
    counts: dict[str, int] = field(default_factory=dict)  # recursive entry counts
    flagged: dict[str, int] = field(default_factory=dict)  # recursive non-active counts
    error: str = ""
    partial: bool = False  # first paint from cached counts; entries are fetched per category

    @classmethod
    def from_totals(cls, totals: dict[str, tuple[int, str]], categories: list[str]) -> IndexModel:
        """Counts only, straight from the catalog cache: what the first frame needs."""
        m = cls(partial=True)
        m._add_categories(set(categories) | {c for c in totals if c})
        for category, (count, _updated) in totals.items():
            for node in lineage(category):
                m.counts[node] = m.counts.get(node, 0) + count
        return m

    @classmethod
    def build(cls, summaries: list[EntrySummary], categories: list[str]) -> IndexModel:
        m = cls()
        m._add_categories(set(categories) | {s.category for s in summaries if s.category})
        for s in summaries:
            m.summaries[s.id] = s
            m.entries_of.setdefault(s.category, []).append(s)
            for node in lineage(s.category):
                m.counts[node] = m.counts.get(node, 0) + 1
                if s.status != "active":
                    m.flagged[node] = m.flagged.get(node, 0) + 1
        for rows in m.entries_of.values():
            sort_rows(rows)
        return m

    def _add_categories(self, cats: set[str]) -> None:
        for c in list(cats):  # every ancestor exists as a category too
            parts = c.split("/")
            cats.update("/".join(parts[:i]) for i in range(1, len(parts)))
        for c in sorted(cats):
            self.children.setdefault(parent_of(c), []).append(c)

    def category_count(self) -> int:
        return sum(len(rows) for rows in self.children.values())

    def add_rows(self, category: str, rows: list[EntrySummary]) -> None:
        """Entries of one category fetched on demand while the model is partial."""
        sort_rows(rows)
        self.entries_of[category] = rows
        self.summaries.update((r.id, r) for r in rows)

    def filter(self, text: str, limit: int = FILTER_LIMIT) -> tuple[dict[str, list[EntrySummary]], int]:
        """Entries whose title, id or a tag contains ``text`` (case-folded), by category.

        Returns (hits by category, each sorted by title; number of hits, at most ``limit``).
        """
        q = text.strip().casefold()
        hits: dict[str, list[EntrySummary]] = {}
        n = 0
        if not q:
            return hits, 0
        for s in self.summaries.values():
            if q in s.title.casefold() or q in s.id.casefold() or any(q in t.casefold() for t in s.tags):
                hits.setdefault(s.category, []).append(s)
                n += 1
                if n >= limit:
                    break
        for rows in hits.values():
            rows.sort(key=lambda s: s.title.casefold())
        return hits, n


def sort_rows(rows: list[EntrySummary]) -> None:
    rows.sort(key=lambda s: (s.status != "active", s.title.casefold()))
