"""The literal search as you type over a big memory (issue 37 item 5): it can be stopped
mid-scan, hands over the best of the files scanned so far first (saying so), and its full
answer is the one ``ORDER BY n DESC, path LIMIT k`` gave, in English and Chinese.

Small real stores; ``grep_query.STEPS`` set to 1 makes SQLite look at the watch at every
step, so "mid-scan" happens on a few files without any timing.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.api.search import Superseded
from memsearch_tui.engine.search import grep_index, grep_query
from memsearch_tui.engine.search.grep import SO_FAR, grep_search
from memsearch_tui.engine.search.grep_index import GrepIndex
from memsearch_tui.engine.search.grep_query import Watch, watching
from memsearch_tui.engine.search.scopes import STORE_SCOPE, project_scope

DAYS = 12


@pytest.fixture
def mem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A store and a project with a dozen journal days; "deploy" and "回滚" occur a
    different number of times in most, the same number in some (ties go by path)."""
    monkeypatch.setattr(grep_index, "MARGIN_NS", 50_000_000)
    root = tmp_path / "memory"
    (root / "projects").mkdir(parents=True)
    (root / "INDEX.md").write_text("# Memory\n", "utf-8")  # a store (a folder without one is not searched)
    for i, (en, zh) in enumerate([(3, 1), (1, 4), (2, 2)]):
        body = "deploy the web tier. " * en + "先回滚再说。" * zh
        (root / f"projects/note{i}.md").write_text(f"---\ntitle: N{i}\nstatus: active\n---\n\n{body}\n", "utf-8")
    journals = tmp_path / "proj" / ".memsearch" / "memory"
    journals.mkdir(parents=True)
    for d in range(1, DAYS + 1):
        turns = "".join(f"### 10:{t:02d}\nwe deploy again; 部署后回滚\n" for t in range(d % 5))
        (journals / f"2026-11-{d:02d}.md").write_text(f"## Session\n{turns}quiet day\n", "utf-8")
    time.sleep(0.1)
    return root, tmp_path / "proj"


def ordered(index: GrepIndex, needle: str, k: int, scopes: list[str]) -> list[tuple[str, int]]:
    """What the cache answered before the ranking moved out of SQL (5dbfd6c's statement)."""
    sql = (
        "SELECT f.path, (length(f.low) - length(replace(f.low, ?, ''))) / ? AS n FROM files f "
        f"WHERE f.scope IN ({','.join('?' * len(scopes))}) AND instr(f.low, ?) > 0 ORDER BY n DESC, f.path LIMIT ?"
    )
    return [tuple(r) for r in index.db.execute(sql, [needle, len(needle), *scopes, needle, k])]  # type: ignore[misc]


@pytest.mark.parametrize("needle", ["deploy", "回滚", "e", "部署后", "quiet day"])
@pytest.mark.parametrize("k", [1, 4, 30])
def test_the_ranking_kept_as_rows_come_is_sqls_order(mem, needle, k) -> None:
    root, project = mem
    grep_search(root, project, needle, k)  # builds the cache
    index = GrepIndex(root)
    scopes = [STORE_SCOPE, project_scope(project)]
    try:
        got = [(m.path, m.count) for m in index.matches([needle], k, scopes, "all", None)]
        assert got == ordered(index, needle, k, scopes) and got
    finally:
        index.close()


def test_a_stopped_search_ends_mid_scan_and_answers_nothing(mem, monkeypatch) -> None:
    root, project = mem
    grep_search(root, project, "deploy", 5)  # the cache built: the scan below is the query's
    monkeypatch.setattr(grep_query, "STEPS", 1)
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 3  # after the scan began: SQLite's progress handler asks

    monkeypatch.setattr("memsearch_tui.engine.search.grep.PARTIAL_FILES", 0)
    told: list[object] = []
    with watching(Watch(stop, told.append, after=0)), pytest.raises(Superseded):
        grep_search(root, project, "deploy", 5)
    # the first "yes" (the 4th ask, inside the scan) stopped it; one more ask tells that
    # interruption from a damaged cache (which would be thrown away and rebuilt)
    assert len(asked) == 5
    with watching(Watch(lambda: True, told.append)), pytest.raises(Superseded):
        grep_search(root, project, "回滚", 5)  # superseded before it began: no scan at all
    assert len(told) <= 1  # at most the first part, never a full answer


def test_the_first_part_comes_first_then_the_full_answer(mem, monkeypatch) -> None:
    """Through the API as the app calls it: the partial result says it is partial and holds
    hits of the full search's files; the full result equals the unwatched search's."""
    root, project = mem
    monkeypatch.setattr(grep_query, "STEPS", 1)
    monkeypatch.setattr("memsearch_tui.engine.api.search.PARTIAL_AFTER", 0.0)
    monkeypatch.setattr("memsearch_tui.engine.search.grep.PARTIAL_FILES", 0)  # this memory counts as big
    with Memory(root, project) as m:
        for query in ("deploy", "回滚"):
            plain = m.search.query(query, k=5, strategy="grep")
            parts: list = []
            full = m.search.query(query, k=5, strategy="grep", stop=lambda: False, partial=parts.append)
            assert [(h.id, h.score, h.lines) for h in full.hits] == [(h.id, h.score, h.lines) for h in plain.hits]
            assert len(parts) == 1 and full.notes == plain.notes
            first = parts[0]
            assert first.notes[0] == SO_FAR.format(n=len(first.hits), s=float(first.took_ms) / 1000)
            assert first.files == plain.files and len(first.hits) <= 5
            matching = {h.id for h in m.search.query(query, k=50, strategy="grep").hits}
            assert {h.id for h in first.hits} <= matching and all(h.title for h in first.hits)


def test_journal_days_that_link_out_of_the_project_stay_out(mem, tmp_path) -> None:
    """The containment rule, now checked once per folder and per link instead of per day."""
    root, project = mem
    outside = tmp_path / "outside.md"
    outside.write_text("## Session\nzebra secret outside\n", "utf-8")
    journals = project / ".memsearch" / "memory"
    (journals / "2026-12-01.md").symlink_to(outside)
    (journals / "2026-12-02.md").symlink_to(journals / "2026-11-01.md")
    (journals / "2026-11-30.md").write_text("## Session\nzebra inside\n", "utf-8")
    rows, _ = grep_search(root, project, "zebra", 10)
    assert [Path(r[1]).name for r in rows] == ["2026-11-30.md"]
    rows, _ = grep_search(root, project, "quiet day", 50)
    assert "2026-12-02.md" in {Path(r[1]).name for r in rows}  # a link inside the project counts


def test_the_typed_search_explains_its_hits_as_the_searcher_does_without_a_model(mem) -> None:
    """The as-you-type path does not open the warm searcher (its model choice read 400
    files: 2-3 s at 1M): each hit's explain record is the searcher's, the query's names no
    model, and the app's explain view then leaves the model line out."""
    from memsearch_tui.tui.panes.search_extras import explain_text

    root, project = mem
    with Memory(root, project) as m:
        typed = m.search.query("deploy", k=5, strategy="grep", explain=True, stop=lambda: False)
        assert m.search.warm.searcher is None  # not opened
        for query in ("deploy", "回滚"):
            typed = m.search.query(query, k=5, strategy="grep", explain=True, stop=lambda: False)
            plain = m.search.query(query, k=5, strategy="grep", explain=True)
            assert [h.explain for h in typed.hits] == [h.explain for h in plain.hits] and typed.hits
            assert typed.explain is not None and plain.explain is not None
            assert (typed.explain.terms, typed.explain.script) == (plain.explain.terms, plain.explain.script)
            assert typed.explain.model == "" and plain.explain.model
            text = explain_text(typed.hits[0], typed.explain, 1)
            assert "model" not in text and "query terms" in text


def test_a_small_memory_gets_its_whole_answer_only(mem, monkeypatch) -> None:
    """Under ``PARTIAL_FILES`` files the scan is quick: no first part drawn just before the
    whole list (a flicker), however long this machine takes."""
    root, project = mem
    monkeypatch.setattr(grep_query, "STEPS", 1)
    monkeypatch.setattr("memsearch_tui.engine.api.search.PARTIAL_AFTER", 0.0)
    with Memory(root, project) as m:
        parts: list = []
        full = m.search.query("deploy", k=5, strategy="grep", stop=lambda: False, partial=parts.append)
        assert full.hits and parts == []


def test_a_first_part_that_fails_is_raised_and_the_cache_kept(mem, monkeypatch) -> None:
    """The first part is handed over from inside SQLite's progress handler: an error there
    (the app gone as it was drawn) interrupted the statement, was taken for a damaged cache
    and threw the cache away (435 MB rebuilt at 1M). Now it is raised as itself."""
    root, project = mem
    monkeypatch.setattr("memsearch_tui.engine.search.grep.PARTIAL_FILES", 0)  # this memory counts as big
    grep_search(root, project, "回滚", 5)  # the cache built
    cache = GrepIndex(root)
    path = cache.path
    cache.close()
    monkeypatch.setattr(grep_query, "STEPS", 1)

    def partial(_found: object) -> None:
        raise RuntimeError("the app is gone")

    before = Path(path).stat().st_ino
    with watching(Watch(lambda: False, partial, after=0)), pytest.raises(RuntimeError, match="the app is gone"):
        grep_search(root, project, "回滚", 5)
    assert Path(path).stat().st_ino == before  # the same cache, not a rebuilt one


def test_a_watched_literal_search_keeps_its_time_window(mem) -> None:
    """``since``/``until`` filter a literal search; the watched path (no warm searcher)
    dropped them and answered every day."""
    root, project = mem
    with Memory(root, project) as m:
        for query in ("deploy", "回滚"):
            plain = m.search.query(query, k=30, strategy="grep", source="journal", since="2026-11-10")
            typed = m.search.query(
                query, k=30, strategy="grep", source="journal", since="2026-11-10", stop=lambda: False
            )
            assert [h.id for h in typed.hits] == [h.id for h in plain.hits]
            assert plain.hits and {Path(h.path).name for h in plain.hits} <= {"2026-11-11.md", "2026-11-12.md"}


def test_a_first_part_that_fails_while_the_files_are_checked_is_raised(mem, monkeypatch) -> None:
    """The cache's answer drawn while the files are checked comes from a timer's thread: an
    error there was only printed, and the search answered as if drawn. Now the search raises
    it. (The check is held until the first part is handed over: no timing.)"""
    import threading

    root, project = mem
    monkeypatch.setattr("memsearch_tui.engine.search.grep.PARTIAL_FILES", 0)  # this memory counts as big
    grep_search(root, project, "deploy", 5)  # the cache built
    monkeypatch.setattr(grep_query, "STEPS", 10**9)  # the scan hands nothing over: the timer does
    told = threading.Event()
    update = GrepIndex.update

    def held(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        told.wait(10)
        return update(self, *args, **kwargs)

    monkeypatch.setattr(GrepIndex, "update", held)

    def partial(_run: object) -> None:
        told.set()
        raise RuntimeError("the app is gone 应用已关闭")

    with watching(Watch(lambda: False, partial, after=0)), pytest.raises(RuntimeError, match="应用已关闭"):
        grep_search(root, project, "zebra 斑马", 5)  # in no file: no row, so the scan hands nothing over
    assert told.is_set()
