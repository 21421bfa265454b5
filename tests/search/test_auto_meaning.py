"""Issue 36 item 3: ``auto`` reaches the meaning leg when keyword hits are weak, misspelled
words are matched over the index's own vocabulary, and "auto never returns nothing when
another strategy finds something" holds — one test per way it could break (the index that
cannot be written: tests/journals/test_full_data_dir.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.search import Searcher, strategy, typos, weak
from tests.helpers import run_cli
from tests.search.conftest import lite_held, write_entry

NOTES = {
    "ops/rollback": (
        "Rollback",
        "To roll back a bad release, redeploy the previous image; rolling back takes two minutes.",
    ),
    "ops/backups": (
        "Backups",
        "The orders Postgres is dumped every night at 02:00 with pg_dump and kept for 30 days in S3.",
    ),
    "ops/oncall": ("On-call", "The on-call engineer answers pages within 15 minutes."),
    "mobile/app": ("Mobile app", "The Android app is built with Kotlin; the iOS app with Swift."),
    "ops/数据库": ("数据库备份", "订单库每天凌晨两点备份，保留三十天。"),
}


@pytest.fixture
def ops(memory) -> tuple[Path, Path]:
    root, project = memory
    for entry_id, (title, body) in NOTES.items():
        write_entry(root, entry_id, title, ["ops"], f"# {title}\n\n{body}\n")
    return root, project


def test_content_terms_and_coverage() -> None:
    assert weak.content_terms("when is the database backed up") == ["database", "backed", "up"]
    assert weak.coverage("when is the database backed up", ("backed",)) == (1, 3)
    assert weak.coverage("how do we roll back a deploy", ("rollback",)) == (2, 3)  # the compound covers both
    assert weak.weak("when is the database backed up", ("backed",)) is not None
    assert weak.weak("when is the database backed up", ("database", "backed")) is None
    assert weak.weak("rollback", ()) is None  # one content term: never weak


@pytest.mark.slow
def test_weak_keyword_hits_reach_the_meaning_leg(ops) -> None:
    root, project = ops
    q = "when is the database backed up"
    with Searcher(root, project) as s:
        keyword = s.search(q, strategy="index", k=3)
        auto = s.search(q, k=3)
    assert keyword.hits[0].id == "ops/rollback"  # the stem "back": what misled auto before
    assert auto.hits[0].id == "ops/backups", auto.reason
    assert "index's best hit covers 1 of 3 query terms" in auto.reason and auto.strategy.endswith("+vector")
    assert "ops/rollback" in [h.id for h in auto.hits]  # the keyword hit is kept, after the meaning leg's


@pytest.mark.slow
def test_weak_keyword_hits_reach_the_meaning_leg_when_auto_starts_with_hybrid(
    ops, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over 500 files ``auto`` starts with hybrid, where the same weak keyword score once
    outvoted the vectors (the fusion now cuts a weak leg's weight as well): the rule
    measures the keyword leg's best hit there too, and says so."""
    root, project = ops
    monkeypatch.setattr(strategy, "GREP_BELOW", 1)  # a stand-in for 500+ files: the rule is what is tested
    monkeypatch.setattr(strategy, "INDEX_UP_TO", 2)
    q = "when is the database backed up"
    with Searcher(root, project) as s:
        auto = s.search(q, k=3)
        strong = s.search("how do we roll back a release", k=3)
    assert "files > 2: semantic search" in auto.reason.split(";")[0], auto.reason
    assert auto.hits[0].id == "ops/backups" and auto.strategy == "hybrid+vector", auto.reason
    assert "hybrid's best keyword hit covers 1 of 3 query terms" in auto.reason
    assert "ops/rollback" in [h.id for h in auto.hits]  # the fused hits are kept, after the meaning leg's
    assert strong.hits[0].id == "ops/rollback" and strong.strategy == "hybrid" and "weak" not in strong.reason


@pytest.mark.slow
def test_a_strong_keyword_hit_stays_first(ops) -> None:
    root, project = ops
    with Searcher(root, project) as s:
        res = s.search("how do we roll back a release", k=3)
    assert res.hits[0].id == "ops/rollback" and "weak" not in res.reason


def test_a_question_the_model_cannot_read_keeps_its_keyword_hits(ops) -> None:
    root, project = ops
    for n in range(60):  # 50+ files: auto starts at the keyword index
        write_entry(root, f"bulk/n{n}", f"笔记 {n}", [], f"杂项内容 {n}\n")
    with Searcher(root, project) as s:
        res = s.search("订单库什么时候迁移到新机房", k=1)
    assert res.hits[0].id == "ops/数据库" and "weak" not in res.reason and "vector" not in res.strategy


@pytest.mark.slow
@pytest.mark.parametrize(
    ("query", "fixed", "first"),
    [
        ("postgress dump", "postgress → postgres", "ops/backups"),
        ("rollbak", "rollbak → rollback", "ops/rollback"),
        ("andriod kotlin", "andriod → android", "mobile/app"),
    ],
)
def test_misspelled_words_match_the_index_vocabulary(ops, query: str, fixed: str, first: str) -> None:
    root, project = ops
    with Searcher(root, project) as s:
        res = s.search(query, k=3, explain=True)
    assert res.hits[0].id == first, res.reason
    assert res.reason.endswith(f"spelling: {fixed}") and res.query == query
    assert res.explain is not None and res.explain.spelling == (fixed,)


def test_explain_prints_the_spelling(ops) -> None:
    root, project = ops
    r = run_cli("--memory-root", str(root), "--project", str(project), "search", "rollbak", "-s", "index", "--explain")
    rc, out = r.code, r.out
    assert rc == 0 and "explain: spelling rollbak → rollback" in out and "ops/rollback" in out


def test_words_the_index_holds_or_too_short_are_not_corrected(ops) -> None:
    root, project = ops
    write_entry(root, "ops/kube", "Kube", [], "Use kubectl rollout undo. Ask the entrepreneur.\n")
    with Searcher(root, project) as s:
        res = s.search("kubectl", strategy="index", k=3)  # written a moment ago: in the vocabulary, not "fixed"
        short = s.search("rol", strategy="index", k=3)  # 3 letters: never corrected ("roll" is 1 edit away)
        assert typos.corrections(s.manifest.db, "the ci of 2026 and 数据库") == []
        # English words the memory lacks are spelled right: "pager" is not "pages", "bike" not "bake"
        assert typos.corrections(s.manifest.db, "who carries the pager on a bike") == []
        assert [f.describe() for f in typos.corrections(s.manifest.db, "who carries the pagse")] == ["pagse → pages"]
        assert typos.corrections(s.manifest.db, "entrepreneurial journeys") == []  # a longer word, not a typo
    assert res.hits[0].id == "ops/kube" and "spelling" not in res.reason
    assert "spelling" not in short.reason


@pytest.mark.slow
def test_a_word_no_keyword_finds_gets_the_meaning_legs_guesses(ops) -> None:
    root, project = ops
    with Searcher(root, project) as s:
        vector = s.search("zeppelin", strategy="vector", k=3)
        auto = s.search("zeppelin", k=3)
    assert vector.hits and auto.hits, auto.reason
    assert auto.strategy == "grep+index+hybrid"


@pytest.mark.slow
def test_a_time_window_holding_nothing_is_the_plain_search(ops, monkeypatch: pytest.MonkeyPatch) -> None:
    root, project = ops
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-30T12:00:00Z")  # the only journal day is 2024-05-01
    with Searcher(root, project) as s:
        res = s.search("yesterday", k=3)
        timed = s.search("the database backups yesterday", k=3)
    assert res.hits and res.reason.endswith("nothing dated in it")
    assert timed.hits[0].id == "ops/backups"
    assert timed.reason.endswith("time window yesterday = 2026-11-29: nothing dated in it")


@pytest.mark.slow
def test_vectors_busy_during_a_weak_fall_through_keep_the_keyword_hits(ops) -> None:
    root, project = ops
    with Searcher(root, project) as s:
        s.index()
        uri = s.s.uri
    write_entry(root, "ops/late", "Late", [], "Written while another process holds the vectors.\n")  # vectors due
    with lite_held(uri), Searcher(root, project) as s:
        res = s.search("when is the database backed up", k=3)
    assert res.hits and res.hits[0].id == "ops/rollback", res.reason
    assert "vectors unavailable, stayed with grep+index" in res.reason and res.notes


def test_vectors_disabled_keep_the_keyword_hits(ops, tmp_path: Path) -> None:
    root, project = ops
    config = tmp_path / "home" / ".memsearch" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[milvus]\nuri = 5\n", encoding="utf-8")
    r = run_cli(
        "--memory-root", str(root), "--project", str(project), "--json", "search", "when is the database backed up"
    )
    rc, data = r.code, r.json["data"]
    assert rc == 0 and data["hits"][0]["id"] == "ops/rollback"
    assert "vector" not in data["strategy"] and "weak" not in data["reason"]
