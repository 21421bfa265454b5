"""The Index pane's model is plain data: grouping, counts and the filter without Textual."""

from __future__ import annotations

from memsearch_tui.engine.api.types import EntrySummary
from memsearch_tui.tui.panes.index.model import IndexModel, lineage


def s(entry_id: str, title: str, status: str = "active", tags: list[str] | None = None) -> EntrySummary:
    category = entry_id.rsplit("/", 1)[0] if "/" in entry_id else ""
    return EntrySummary(entry_id, title, status, category, "2026-11-30", tuple(tags or ()))


def test_model_counts_categories_recursively_and_flags_inactive():
    m = IndexModel.build(
        [s("a/b/x", "X"), s("a/b/y", "Y", "archived"), s("a/z", "Z"), s("c/w", "W", tags=["ops"])], ["a/b", "c", "d"]
    )
    assert m.counts == {"": 4, "a": 3, "a/b": 2, "c": 1}
    assert m.flagged == {"": 1, "a": 1, "a/b": 1}
    assert m.children[""] == ["a", "c", "d"] and m.children["a"] == ["a/b"]
    assert [r.id for r in m.entries_of["a/b"]] == ["a/b/x", "a/b/y"]  # active first
    assert m.category_count() == 4


def test_filter_matches_title_id_and_tag_case_folded_and_stops_at_the_limit():
    m = IndexModel.build([s("a/x", "Deploy"), s("a/y", "other", tags=["DEPLOY"]), s("b/deploy-z", "z")], [])
    hits, n = m.filter("deploy")
    assert n == 3 and sorted(hits) == ["a", "b"]
    assert m.filter("deploy", limit=2)[1] == 2
    assert m.filter("  ") == ({}, 0)


def test_lineage_and_first_paint_from_cached_totals():
    assert lineage("a/b") == ["a/b", "a", ""]
    m = IndexModel.from_totals({"a/b": (3, ""), "c": (1, "")}, ["a/b", "c"])
    assert m.partial and m.counts == {"a/b": 3, "a": 3, "": 4, "c": 1}


def test_model_module_does_not_import_textual():
    import inspect

    import memsearch_tui.tui.panes.index.model as model

    assert "textual" not in inspect.getsource(model)
