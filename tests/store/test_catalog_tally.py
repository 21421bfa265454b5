"""The Index's reads from the catalog (``mem.entries.tally/rows/find/summary``): counts,
a category's rows and the filter without listing every entry, on a real store."""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.curator import lifecycle
from memsearch_tui.engine.store.catalog import Catalog
from memsearch_tui.engine.store.store import Store


def memory(store: Store, tmp_path: Path) -> Memory:
    return Memory(store.root, tmp_path / "project")


def seeded(store: Store) -> None:
    store.add("projects/web", "Alpha dashboard", "Alpha dashboard.\n", tags=["Frontend"])
    store.add("projects", "Beta", "Beta service.\n")
    store.add("people", "Dana", "Runs staging.\n")
    store.add("people", "数据库 选择", "我们选择了 PostgreSQL。\n", tags=["中文"])
    lifecycle.archive(store, "projects/beta")
    (store.root / "people" / "broken.md").write_bytes(b"---\ntitle: [unclosed\n---\nbody\n")


def test_tally_counts_direct_entries_and_the_not_active_ones(store: Store, tmp_path: Path) -> None:
    seeded(store)
    mem = memory(store, tmp_path)
    assert mem.entries.tally() == {"projects/web": (1, 0), "projects": (1, 1), "people": (3, 1)}
    (store.root / "people" / "dana.md").unlink()  # a change by hand: tally re-checks the disk
    assert mem.entries.tally()["people"] == (2, 1)


def test_cached_tally_is_none_before_a_catalog_and_never_reads_the_disk(store: Store, tmp_path: Path) -> None:
    mem = memory(store, tmp_path)
    assert not mem.entries.cached_tally()  # no catalog yet (or an empty one)
    seeded(store)
    mem.entries.tally()
    (store.root / "people" / "dana.md").unlink()
    assert mem.entries.cached_tally()["people"] == (3, 1)  # as last saved: the first frame's counts


def test_rows_are_one_category_with_its_archived_and_unreadable_entries(store: Store, tmp_path: Path) -> None:
    seeded(store)
    mem = memory(store, tmp_path)
    mem.entries.tally()
    assert {r.id for r in mem.entries.rows("projects")} == {"projects/archived/beta"}
    people = {r.id: r for r in mem.entries.rows("people")}
    assert len(people) == 3 and {"people/dana", "people/broken"} <= set(people)
    assert people["people/broken"].status == "invalid" and people["people/broken"].error
    assert mem.entries.summary("people/dana").title == "Dana"
    assert mem.entries.summary("people/nobody") is None


def test_find_matches_title_id_and_tag_case_folded_in_english_and_chinese(store: Store, tmp_path: Path) -> None:
    seeded(store)
    mem = memory(store, tmp_path)
    mem.entries.tally()
    assert [r.id for r in mem.entries.find("ALPHA", 10)] == ["projects/web/alpha-dashboard"]  # title
    assert [r.title for r in mem.entries.find("frontend", 10)] == ["Alpha dashboard"]  # a tag, case-folded
    assert [r.title for r in mem.entries.find("数据库", 10)] == ["数据库 选择"]
    assert [r.title for r in mem.entries.find("中文", 10)] == ["数据库 选择"]  # a Chinese tag
    assert [r.id for r in mem.entries.find("PEOPLE/BRO", 10)] == ["people/broken"]  # the id
    assert len(mem.entries.find("a", 2)) == 2  # the limit
    assert mem.entries.find('","', 10) == ()  # JSON quoting of the tags never makes a hit
    assert mem.entries.find("", 10) == ()


def test_the_filter_scans_a_narrow_index_and_fetches_only_candidates(store: Store, tmp_path: Path) -> None:
    """A filter that matches nothing read every wide row (bodies' heads and all: half a
    second at 100k entries); its scan now reads the (id, fold) index, in id order."""
    seeded(store)
    memory(store, tmp_path).entries.tally()
    cat = Catalog(store.root)
    statements: list[str] = []
    cat.db.set_trace_callback(statements.append)
    assert [s.id for s in cat.matching("数据库", 10)] == ["people/数据库-选择"]
    assert [s.id for s in cat.matching("FRONTEND", 10)] == ["projects/web/alpha-dashboard"]  # a tag, any case
    assert cat.matching("nothing like it", 10) == []
    cat.db.set_trace_callback(None)
    scan = next(s for s in statements if "instr(" in s)
    plan = " ".join(r[-1] for r in cat.db.execute("EXPLAIN QUERY PLAN " + scan))
    assert "COVERING INDEX entries_fold" in plan
    cat.close()
