"""The Index pane's model is plain data: grouping, counts and the filter without Textual."""

from __future__ import annotations

from memsearch_tui.engine.api.types import EntrySummary
from memsearch_tui.tui.panes.index.model import IndexModel, lineage


def s(entry_id: str, title: str, status: str = "active", tags: list[str] | None = None) -> EntrySummary:
    category = entry_id.rsplit("/", 1)[0] if "/" in entry_id else ""
    return EntrySummary(entry_id, title, status, category, "2026-11-30", tuple(tags or ()))


class Rows:
    """A small fake catalog (the model's grouping is the point here; the real catalog's
    queries are tested in tests/store/test_catalog_tally.py); counts what was fetched."""

    def __init__(self, rows: list[EntrySummary]) -> None:
        self.all = rows
        self.fetched: list[str] = []

    def tally(self) -> dict[str, tuple[int, int]]:
        out: dict[str, tuple[int, int]] = {}
        for r in self.all:
            n, off = out.get(r.category, (0, 0))
            out[r.category] = (n + 1, off + (r.status != "active"))
        return out

    def rows(self, category: str) -> tuple[EntrySummary, ...]:
        self.fetched.append(category)
        return tuple(r for r in self.all if r.category == category)

    def find(self, text: str, limit: int) -> tuple[EntrySummary, ...]:
        q = text.casefold()
        hits = [
            r
            for r in self.all
            if q in r.title.casefold() or q in r.id.casefold() or any(q in t.casefold() for t in r.tags)
        ]
        return tuple(hits[:limit])

    def summary(self, entry_id: str) -> EntrySummary | None:
        return next((r for r in self.all if r.id == entry_id), None)


def model_of(rows: list[EntrySummary], categories: list[str]) -> tuple[IndexModel, Rows]:
    src = Rows(rows)
    return IndexModel.from_tally(src.tally(), categories, src), src


def test_model_counts_categories_recursively_and_flags_inactive():
    m, src = model_of(
        [s("a/b/x", "X"), s("a/b/y", "Y", "archived"), s("a/z", "Z"), s("c/w", "W", tags=["ops"])], ["a/b", "c", "d"]
    )
    assert m.counts == {"": 4, "a": 3, "a/b": 2, "c": 1}
    assert m.flagged == {"": 1, "a": 1, "a/b": 1}
    assert m.children[""] == ["a", "c", "d"] and m.children["a"] == ["a/b"]
    assert src.fetched == []  # counting fetched no row
    assert [r.id for r in m.rows("a/b")] == ["a/b/x", "a/b/y"]  # active first
    m.rows("a/b")
    assert src.fetched == ["a/b"]  # a category's rows are fetched once, when asked for
    assert m.category_count() == 4


def test_filter_matches_title_id_and_tag_case_folded_and_stops_at_the_limit():
    m, _ = model_of([s("a/x", "Deploy"), s("a/y", "other", tags=["DEPLOY"]), s("b/deploy-z", "z")], [])
    hits, n = m.filter("deploy")
    assert n == 3 and sorted(hits) == ["a", "b"]
    assert m.filter("deploy", limit=2)[1] == 2
    assert m.filter("  ") == ({}, 0)


def test_lineage_and_first_paint_from_the_cached_tally():
    assert lineage("a/b") == ["a/b", "a", ""]
    m = IndexModel.from_tally({"a/b": (3, 1), "c": (1, 0)}, ["a/b", "c"], Rows([]), partial=True)
    assert m.partial and m.counts == {"a/b": 3, "a": 3, "": 4, "c": 1}
    assert m.flagged == {"a/b": 1, "a": 1, "": 1} and m.direct == {"a/b": 3, "c": 1}


def test_model_module_does_not_import_textual():
    import inspect

    import memsearch_tui.tui.panes.index.model as model

    assert "textual" not in inspect.getsource(model)
