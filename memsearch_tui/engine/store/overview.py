"""Store size by top-level category and status, for the TUI's Overview pane and ``stats``.

Read-only: one grouped SQL query over the derived catalog (refreshed against the disk
first), so a 100k-entry store answers without parsing a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memsearch_tui.engine.store.catalog import Catalog
from memsearch_tui.engine.store.store import Store

STATUSES = ("active", "archived", "expired")


@dataclass
class CategoryStats:
    """Entries below one top-level category, counted by status (``other``: unreadable)."""

    category: str
    by_status: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.by_status.values())


def category_stats(store: Store, *, fresh: bool = True) -> list[CategoryStats]:
    """One row per top-level category (nested categories roll up), largest first; with
    ``fresh`` False, as the catalog last saved them (no stat of every file: a first frame)."""
    if not store.exists():
        return []
    cat = store.catalog() if fresh else Catalog(store.root)
    rows = cat.db.execute(
        "SELECT category, CASE WHEN error != '' THEN 'unreadable' ELSE status END, count(*) FROM entries GROUP BY 1, 2"
    )
    out: dict[str, CategoryStats] = {}
    for category, status, n in rows:
        top = (category or "(root)").split("/", 1)[0]
        stats = out.setdefault(top, CategoryStats(top))
        key = status if status in STATUSES or status == "unreadable" else "other"
        stats.by_status[key] = stats.by_status.get(key, 0) + n
    return sorted(out.values(), key=lambda s: (-s.total, s.category))
