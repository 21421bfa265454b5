"""The Versions pane's first list asks the catalog for the entries marked as conflicts
(``Catalog.conflicted``): it read every row of the catalog for the few marked ones (~140 ms
of CPU at 100k entries, issue 37 item 5); a partial index holds the marked rows only, and a
catalog of this schema made before it gets the index when next opened."""

from __future__ import annotations

import sqlite3

from memsearch_tui.engine.store.catalog import Catalog
from memsearch_tui.engine.store.store import Store


def _rows(cat: Catalog, n: int, marked: dict[str, str]) -> None:
    """``n`` plain rows and the ``marked`` ones (id → error), straight into the table."""
    cat.db.executemany(
        "INSERT INTO entries (id, category, title, error, conflict) VALUES (?, 'notes', ?, ?, ?)",
        [(f"notes/e{i:05d}", f"Entry {i} 条目", "", 0) for i in range(n)]
        + [(i, "冲突 conflict", err, 1) for i, err in marked.items()],
    )


def _steps(db: sqlite3.Connection, fn):  # type: ignore[no-untyped-def]
    """``fn()`` and how many times SQLite's VM ran 10 instructions for it."""
    ticks = [0]

    def tick() -> int:
        ticks[0] += 1
        return 0

    db.set_progress_handler(tick, 10)
    try:
        return fn(), ticks[0]
    finally:
        db.set_progress_handler(None, 0)


def test_the_marked_entries_are_read_from_their_own_index(store: Store) -> None:
    cat = Catalog(store.root)
    _rows(cat, 3000, {"people/张三": "", "notes/zz-broken": "bad frontmatter", "notes/a-marked": ""})
    ids, steps = _steps(cat.db, cat.conflicted)
    assert ids == ["notes/a-marked", "people/张三"]  # readable ones, in id order
    assert steps < 30, steps  # 5dbfd6c: every one of the 3,003 rows (~900 here)
    cat.close()


def test_a_catalog_made_before_the_index_gets_it_when_opened(store: Store) -> None:
    cat = Catalog(store.root)
    _rows(cat, 2000, {"notes/m": ""})
    cat.db.execute("DROP INDEX IF EXISTS entries_conflict")
    cat.close()
    again = Catalog(store.root)
    ids, steps = _steps(again.db, again.conflicted)
    assert ids == ["notes/m"] and steps < 30, steps
    again.close()
