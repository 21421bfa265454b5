"""Store size by top-level category and status, from one catalog query (Overview pane)."""

from __future__ import annotations

from memsearch_tui.engine.curator import lifecycle
from memsearch_tui.engine.store.overview import category_stats
from memsearch_tui.engine.store.store import Store


def test_counts_roll_up_to_top_level_categories_by_status(store: Store) -> None:
    store.add("projects/web", "Alpha", "Alpha dashboard.\n")
    store.add("projects", "Beta", "Beta service.\n")
    store.add("people", "Dana", "Runs staging.\n")
    lifecycle.archive(store, "projects/beta")
    (store.root / "people" / "broken.md").write_bytes(b"---\ntitle: [unclosed\n---\nbody\n")

    stats = {s.category: s for s in category_stats(store)}
    assert stats["projects"].by_status == {"active": 1, "archived": 1}
    assert stats["projects"].total == 2
    assert stats["people"].by_status == {"active": 1, "unreadable": 1}
    assert [s.category for s in category_stats(store)][0] in ("projects", "people")


def test_no_store_no_stats(tmp_path) -> None:
    assert category_stats(Store(tmp_path / "nothing")) == []
    assert not (tmp_path / "nothing").exists()
