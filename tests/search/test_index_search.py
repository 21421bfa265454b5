"""Index both memories incrementally and search them with every strategy (real Milvus Lite)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.search import Searcher, search, status
from memsearch_tui.engine.search import strategy as strat
from memsearch_tui.engine.search.milvus_backend import MilvusVectors


def ids(result):
    return [h.id for h in result.hits]


def test_index_covers_entries_journals_and_project_notes_but_not_trash(memory):
    root, project = memory
    with Searcher(root, project) as s:
        rep = s.index()
        assert rep.files == 6  # 4 entries + journal + PROJECT.md; not INDEX.md, not .trash
        assert rep.embedded == rep.new_chunks > 0
        paths = {Path(r.path).name for r in s.manifest.iter_chunks()}
        assert paths == {"alpha.md", "beta.md", "用户偏好.md", "editor.md", "2024-05-01.md", "PROJECT.md"}
        assert s.vectors.count() == rep.embedded


@pytest.mark.parametrize("strategy", ["grep", "index", "vector", "hybrid", "vector-milvus"])
def test_each_strategy_finds_an_exact_term(memory, strategy):
    root, project = memory
    config = MILVUS_DENSE if strategy.endswith("-milvus") else None
    strategy = strategy.removesuffix("-milvus")
    with Searcher(root, project, config=config) as s:
        res = s.search("gruvbox", strategy=strategy, k=3)
    assert res.strategy == strategy
    assert res.hits[0].id == "tools/editor"
    hit = res.hits[0]
    assert hit.source == "store" and hit.path.endswith("editor.md")
    assert "gruvbox" in hit.snippet
    lines = Path(hit.path).read_text().splitlines()[hit.start - 1 : hit.end]
    assert any("gruvbox" in ln for ln in lines)


def test_vector_and_hybrid_find_paraphrases_keyword_misses(memory):
    root, project = memory
    with Searcher(root, project) as s:
        vec = s.search("which code editor do I use", strategy="vector", k=3)
        hyb = s.search("which code editor do I use", strategy="hybrid", k=3)
        ship = s.search("when do we ship the web app", strategy="hybrid", k=2)
    assert vec.hits[0].id == "tools/editor"
    assert hyb.hits[0].id == "tools/editor"
    assert ship.hits[0].id == "projects/alpha" and "Deploy" in ship.hits[0].heading


def test_chinese_substring_matches_by_keyword_and_grep(memory):
    root, project = memory
    with Searcher(root, project) as s:
        for strategy in ("grep", "index", "hybrid"):
            res = s.search("深色主题", strategy=strategy, k=3)
            assert res.hits[0].id == "people/用户偏好", strategy
            assert "深色主题" in res.hits[0].snippet


def test_source_and_category_filters(memory):
    root, project = memory
    with Searcher(root, project) as s:
        s.index()
        journal = s.search("database", strategy="hybrid", source="journal", k=10)
        store = s.search("database", strategy="hybrid", source="store", k=10)
        cat = s.search("service", strategy="hybrid", category="projects/web", k=10)
        grep_cat = s.search("Go", strategy="grep", category="projects", k=10)
    assert journal.hits and all(h.source == "journal" for h in journal.hits)
    assert journal.hits[0].path.endswith("2024-05-01.md") and journal.hits[0].start == 10
    assert all(h.source == "store" for h in store.hits)
    assert ids(cat) == ["projects/web/beta"]
    assert ids(grep_cat) == ["projects/web/beta"]


def test_incremental_reindex_embeds_only_new_chunks_and_removes_deleted(memory):
    root, project = memory
    with Searcher(root, project) as s:
        first = s.index()
        again = s.index()
        assert (again.changed, again.embedded, again.deleted_vectors) == (0, 0, 0)
        before = s.vectors.count()
        # edit one section of alpha: only that chunk is new
        alpha = root / "projects" / "alpha.md"
        alpha.write_text(alpha.read_text().replace("every Friday afternoon", "every Monday morning"))
        edit = s.index()
        assert (edit.changed, edit.new_chunks, edit.embedded, edit.deleted_vectors) == (1, 1, 1, 1)
        assert s.vectors.count() == before
        # move beta to another category: old chunks deleted, new ones added
        beta = root / "projects" / "web" / "beta.md"
        (root / "services").mkdir()
        beta.rename(root / "services" / "beta.md")
        moved = s.index()
        assert moved.removed == 1 and moved.deleted_vectors >= 1
        assert s.search("resizes images", strategy="vector", k=1).hits[0].id == "services/beta"
        # delete a file: its vectors go
        (root / "tools" / "editor.md").unlink()
        gone = s.index()
        assert gone.removed == 1
        assert s.vectors.count() == s.manifest.counts()["embedded"]
        assert "tools/editor" not in ids(s.search("gruvbox", strategy="vector", k=10))
    assert first.files == 6


def test_search_picks_up_changes_without_explicit_index(add_entry, memory):
    root, project = memory
    with Searcher(root, project) as s:
        s.index()
        add_entry(root, "notes/new", "Coffee", [], "We buy beans from a roaster in Lisbon.\n")
        s.invalidate()  # the TUI after its own write; otherwise within max_staleness seconds
        res = s.search("Lisbon roaster", strategy="hybrid", k=1)
        add_entry(root, "notes/tea", "Tea", [], "Green tea from a shop in Kyoto.\n")
    assert res.hits[0].id == "notes/new"
    with Searcher(root, project) as fresh:  # a new Searcher (every CLI call) always checks
        assert fresh.search("Kyoto tea shop", strategy="hybrid", k=1).hits[0].id == "notes/tea"


def test_noop_reindex_imports_neither_torch_nor_pymilvus(memory, data_dir):
    root, project = memory
    with Searcher(root, project) as s:
        s.index()
    code = (
        "import sys, json; from pathlib import Path\n"
        "from memsearch_tui.engine.search import Searcher, upkeep\n"
        f"s = Searcher(Path({str(root)!r}), Path({str(project)!r}))\n"
        "rep = s.refresh_chunks(); row = upkeep(Path(%r), Path(%r))\n"
        "print(json.dumps([rep.changed, row['result'], [m for m in ('torch', 'pymilvus', 'sentence_transformers') if m in sys.modules]]))\n"
    ) % (str(root), str(project))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=os.environ.copy(), check=True
    )
    assert json.loads(out.stdout) == [0, "none", []]


def test_auto_strategy_follows_file_counts(add_entry, memory):
    root, project = memory
    assert strat.choose(49)[0] == "grep"
    assert strat.choose(50)[0] == "index" and strat.choose(500)[0] == "index"
    assert strat.choose(501)[0] == "hybrid"
    res = search(root, project, "gruvbox")
    assert res.strategy == "grep" and res.requested == "auto" and "6 files" in res.reason
    for i in range(50):
        add_entry(root, f"bulk/n{i}", f"Note {i}", [], f"filler note number {i}\n")
    res = search(root, project, "gruvbox")
    assert res.strategy == "index" and "56 files" in res.reason
    assert res.hits[0].id == "tools/editor"


def test_bad_arguments_are_refused_clearly(memory):
    root, project = memory
    with Searcher(root, project) as s:
        for kwargs, word in (({"strategy": "magic"}, "strategy"), ({"source": "web"}, "source"), ({"k": 0}, "-k")):
            with pytest.raises(InvalidInput, match=word):
                s.search("x", **kwargs)
        with pytest.raises(InvalidInput, match="empty"):
            s.search("   ")


def test_status_reports_backend_counts_and_drift(add_entry, memory):
    root, project = memory
    with Searcher(root, project) as s:
        s.index()
    st = status(root, project)
    assert st["backend"] == "milvus-lite" and st["uri"].endswith("milvus.db")
    assert st["collection"] == "memsearch_tui_chunks" and st["dims"] == 384
    assert st["files"] == 6 and st["vectors"] == st["chunks"]
    assert st["drift"] == {
        "unindexed_files": 0,
        "removed_files": 0,
        "pending_vectors": 0,
        "pending_deletes": 0,
        "orphan_chunks": 0,
        "missing_vectors": 0,
    }
    (root / "projects" / "alpha.md").unlink()
    add_entry(root, "x/y", "New", [], "text\n")
    st = status(root, project)
    assert st["drift"]["unindexed_files"] == 1 and st["drift"]["removed_files"] == 1


def test_dimension_mismatch_is_refused_with_a_pointer_to_reset(memory):
    root, project = memory
    with Searcher(root, project) as s:
        v = s.vectors
        v.ensure(8)  # a collection made by another (8-dim) model
        with pytest.raises(Exception, match="vectors reset"):
            s.index()


MILVUS_DENSE = {"tui": {"search": {"dense_search": "milvus"}}}


def test_milvus_search_and_the_in_process_mirror_agree(memory):
    root, project = memory
    with Searcher(root, project, config=MILVUS_DENSE) as s:
        s.index()
        assert not s.s.use_mirror
        via_milvus = s.dense_ranking("what runs in Frankfurt", 5, None, "all")
        via_mirror = s.mirror().search(s.query_encoder().encode(["what runs in Frankfurt"])[0], 5, s._scopes("all"))
    assert [c for c, _ in via_milvus] == [c for c, _ in via_mirror]
    assert [round(x, 4) for _, x in via_milvus] == [round(x, 4) for _, x in via_mirror]
    with Searcher(root, project) as s:
        assert s.s.use_mirror  # the default for embedded Lite
        assert s.search("what runs in Frankfurt", strategy="vector", k=1).hits[0].path.endswith("PROJECT.md")
        assert s._vectors is None  # searching opened neither Milvus nor its lock


def test_released_collection_is_loaded_again(memory):
    root, project = memory
    with Searcher(root, project, config=MILVUS_DENSE) as s:
        s.index()
        s.vectors.client.release_collection(s.s.collection)
        s.vectors._loaded = False
        assert s.search("gruvbox", strategy="vector", k=1).hits[0].id == "tools/editor"
    # and after closing and reopening the data dir
    with Searcher(root, project, config=MILVUS_DENSE) as s:
        assert s.search("gruvbox", strategy="vector", k=1).hits[0].id == "tools/editor"


def test_milvus_filter_strings_are_quoted(memory):
    root, project = memory
    with Searcher(root, project, config=MILVUS_DENSE) as s:
        s.index()
        res = s.search("anything", strategy="vector", category='we"ird/x', k=3)
    assert res.hits == []


def test_model_vectors_land_in_milvus_with_metadata(memory):
    root, project = memory
    with Searcher(root, project) as s:
        s.index()
        rows = s.vectors.client.query(
            s.s.collection, filter='kind == "journal"', output_fields=["path", "start_line", "end_line", "heading"]
        )
    assert {r["start_line"] for r in rows} == {5, 10}
    assert all(r["path"].endswith("2024-05-01.md") for r in rows)
    assert isinstance(MilvusVectors, type)


def test_status_before_any_index_creates_nothing(memory, tmp_path, monkeypatch):
    root, project = memory
    data = tmp_path / "fresh-data"
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(data))
    st = status(root, project)
    assert st["built"] is False and st["chunks"] == 0 and st["vectors"] == 0 and st["dims"] == 384
    assert st["drift"]["unindexed_files"] == 6
    assert not data.exists()
