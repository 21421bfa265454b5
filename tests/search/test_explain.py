"""``search(..., explain=True)`` / ``search --explain``: each hit says which legs ranked it
where, with what weights and why, and which query terms it matched (issue 24)."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.api.search import result
from memsearch_tui.engine.api.serialise import to_json
from memsearch_tui.engine.search import Searcher
from tests.helpers import run_cli


def test_no_explain_unless_asked(memory):
    root, project = memory
    with Searcher(root, project) as s:
        res = s.search("dark theme", strategy="index")
    assert res.explain is None and all(h.explain is None for h in res.hits)
    wire = to_json(result(res))  # the wire says so with nulls, as it always has
    assert wire["explain"] is None and all(h["explain"] is None for h in wire["hits"])


def test_index_hits_name_their_rank_score_and_terms(memory):
    root, project = memory
    with Searcher(root, project) as s:
        res = s.search("deploying alpha", strategy="index", explain=True)
    first = res.hits[0].explain
    assert res.hits[0].id == "projects/alpha"
    assert first.tier == "index" and first.rank == 1 and first.keyword.rank == 1
    assert first.keyword.score == pytest.approx(res.hits[0].score)
    assert set(first.matched) == {"deploying", "alpha"}  # "deploying" matched "deploy" through the stemmer
    assert res.explain.terms == ("deploying", "alpha") and res.explain.model_languages == "English"


@pytest.mark.slow
def test_hybrid_explains_both_legs_and_the_language_rule(memory, add_entry):
    root, project = memory
    add_entry(root, "ops/面板", "监控面板", ["ops"], "Grafana 面板在运维手册里，登录以后按服务名筛选就能看到。\n")
    with Searcher(root, project) as s:
        en = s.search("frontend theme", strategy="hybrid", k=5, explain=True)
        zh = s.search("用户喜欢什么主题", strategy="hybrid", k=5, explain=True)
        mixed = s.search("grafana dashboards", strategy="hybrid", k=10, explain=True)
    top = en.hits[0].explain
    assert top.tier == "hybrid" and top.keyword.rank is not None and top.dense.rank is not None
    assert en.explain.weights.method == "convex" and en.explain.weights.dense == 0.5
    # a Chinese query: the English-only model does not vote on the keyword hits; its guesses
    # only fill the places after the last keyword hit
    assert zh.explain.weights.method == "keyword" and "reads English" in zh.explain.weights.why
    assert zh.hits[0].id == "people/用户偏好" and zh.hits[0].explain.dense.rank is None
    kw_hits = [h for h in zh.hits if h.explain.keyword.rank is not None]
    guesses = zh.hits[len(kw_hits) :]
    assert len(zh.hits) == 5 and guesses and all(h.explain.keyword.rank is None for h in guesses)
    assert all(h.explain.dense.rank is not None and "no keyword hit" in h.explain.weights.why for h in guesses)
    assert max(h.score for h in guesses) < min(h.score for h in kw_hits)
    # an English query that reaches a Chinese chunk: that chunk is scored by its keywords alone
    cn = next(h for h in mixed.hits if h.id == "ops/面板")
    assert cn.explain.weights.dense == 0.0 and "this chunk is in Chinese" in cn.explain.weights.why
    assert cn.explain.matched == ("grafana",) and mixed.hits[0].id == "ops/面板"


@pytest.mark.slow
def test_a_question_the_keywords_miss_still_gets_the_models_guesses(memory):
    """Hybrid is never worse than its best leg: a Chinese question none of whose words occur
    (keyword index: nothing) gets the vector ranking rather than no hit at all."""
    root, project = memory
    with Searcher(root, project) as s:
        assert s.search("犀牛", strategy="index", k=5).hits == []
        res = s.search("犀牛", strategy="hybrid", k=3)
        vec = s.search("犀牛", strategy="vector", k=3)
    assert [h.chunk_id for h in res.hits] == [h.chunk_id for h in vec.hits] and len(res.hits) == 3


def test_cli_explain_text_and_json(memory):
    root, project = memory
    base = ["--memory-root", str(root), "--project", str(project)]
    r = run_cli(*base, "search", "deploy alpha", "-s", "index", "--explain")
    assert r.code == 0
    out = r.out
    assert "explain: terms deploy, alpha" in out and "why: index · keyword #1" in out and "matched deploy, alpha" in out
    r = run_cli(*base, "--json", "search", "gruvbox", "--explain")
    assert r.code == 0
    data = r.json["data"]
    assert data["explain"]["terms"] == ["gruvbox"]
    hit = data["hits"][0]["explain"]
    assert hit["tier"] == "grep" and hit["matched"] == ["gruvbox"] and hit["rank"] == 1
    r = run_cli(*base, "--json", "search", "gruvbox")
    assert r.code == 0
    plain = r.json["data"]  # one shape on every face: the field is there, empty
    assert plain["explain"] is None and all(h["explain"] is None for h in plain["hits"])


def test_the_api_carries_explain_as_plain_data(memory):
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.api.serialise import to_json

    root, project = memory
    with Memory(root, project) as mem:
        plain = mem.search.query("deploy alpha", strategy="index")
        why = mem.search.query("deploy alpha", strategy="index", explain=True)
    assert plain.explain is None and plain.hits[0].explain is None
    data = to_json(why)
    assert data["hits"][0]["explain"]["keyword"]["rank"] == 1 and data["explain"]["terms"] == ["deploy", "alpha"]
    hit = ["tier", "rank", "score", "keyword", "dense", "weights", "matched", "boost"]
    assert list(data["hits"][0]["explain"]) == hit
    assert list(data["explain"]) == [
        "terms",
        "script",
        "model",
        "model_languages",
        "weights",
    ]  # the wire keys, in order
