"""The resident BM25 index ranks exactly like FTS5, keeps up with file changes, and its
on-disk cache is disposable (deleted, damaged or outdated → rebuilt, never a crash)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.keyword_index import KeywordIndex, cache_path

QUERIES = [
    "deploy alpha",
    "deploying deployed",  # two tokens, one stem: two phrases, as in FTS5
    "dark theme",
    "偏好",
    "深色主题",
    "Postgres orders database",
    "the",  # only stopwords: still searched
    "flaky login test pytest",
    "Kubernetes Frankfurt shop",
    "zzz-nothing-matches",
    "café",
]


def extra_entries(root: Path, add_entry) -> None:
    """Enough rows that IDF and length normalisation matter (and differ between terms)."""
    for i in range(30):
        body = (
            f"# Note {i}\n\nWe deploy service {i} on Friday. "
            + ("The theme is dark. " * (i % 4))
            + ("Postgres " * (i % 3))
            + "\n\n## Café\n\nDeployed café notes "
            + "deploying " * (i % 2)
            + "\n"
        )
        add_entry(root, f"notes/n{i:02d}", f"Note {i}", ["deploy"] if i % 5 == 0 else [], body)


def same_ranking(s: Searcher, query: str, *, category: str | None = None, source: str = "all") -> None:
    fts = s.keyword_ranking(query, 1000, category, source, resident=False)
    ours = s.keyword_ranking(query, 1000, category, source, resident=True)
    assert sorted((round(x, 9), r.id) for r, x in ours) == sorted((round(x, 9), r.id) for r, x in fts), query
    assert [round(x, 9) for _, x in ours] == sorted((round(x, 9) for _, x in fts), reverse=True)


@pytest.fixture
def corpus(memory, add_entry):
    root, project = memory
    extra_entries(root, add_entry)
    return root, project


def test_scores_and_order_equal_fts5(corpus):
    root, project = corpus
    with Searcher(root, project) as s:
        s.refresh_chunks()
        for q in QUERIES:
            same_ranking(s, q)
        same_ranking(s, "deploy", category="notes")
        same_ranking(s, "deploy dark", source="store")
        same_ranking(s, "pytest Postgres", source="journal")
        top = s.keyword_ranking("deploy alpha", 3, None, "all", resident=True)
        assert len(top) == 3 and top[0][0].entry_id == "projects/alpha"


def test_a_warm_index_catches_up_with_added_changed_and_deleted_files(corpus, add_entry):
    root, project = corpus
    with Searcher(root, project) as s:
        s.refresh_chunks()
        idx = s.keyword_index()
        idx.rebuilt = False
        add_entry(root, "notes/kyoto", "Tea", [], "Green tea from a shop in Kyoto.\n")
        (root / "tools" / "editor.md").unlink()
        alpha = root / "projects" / "alpha.md"
        alpha.write_text(alpha.read_text().replace("Fly.io every Friday", "Render every Monday"))
        s.refresh_chunks()
        assert s.keyword_index() is idx and not idx.rebuilt  # caught up in place, no rebuild
        assert idx.changed > 0
        hits = s.keyword_ranking("Kyoto tea", 5, None, "all", resident=True)
        assert hits[0][0].entry_id == "notes/kyoto"
        assert not s.keyword_ranking("gruvbox", 5, None, "all", resident=True)
        assert not s.keyword_ranking("Fly.io", 5, None, "all", resident=True)
        for q in [*QUERIES, "Render Monday", "Kyoto"]:
            same_ranking(s, q)


def test_cache_is_reused_across_processes_and_catches_up(corpus, add_entry):
    root, project = corpus
    with Searcher(root, project) as s:
        s.refresh_chunks()
        assert s.keyword_index().rebuilt
        assert cache_path(s.manifest).is_file()
    add_entry(root, "notes/lisbon", "Coffee", [], "We buy beans from a roaster in Lisbon.\n")
    with Searcher(root, project) as s:  # a new process: loads the cache, applies the change log
        s.refresh_chunks()
        idx = s.keyword_index()
        assert not idx.rebuilt and idx.changed >= 1
        assert s.keyword_ranking("Lisbon roaster", 1, None, "all", resident=True)[0][0].entry_id == "notes/lisbon"
        for q in QUERIES:
            same_ranking(s, q)


@pytest.mark.parametrize("damage", [b"", b"not a zip at all", None])
def test_a_damaged_or_missing_cache_is_rebuilt(corpus, damage):
    root, project = corpus
    with Searcher(root, project) as s:
        s.refresh_chunks()
        s.keyword_index()
        path = cache_path(s.manifest)
    if damage is None:
        path.unlink()
    else:
        path.write_bytes(damage)
    with Searcher(root, project) as s:
        idx = s.keyword_index()
        assert idx.rebuilt
        same_ranking(s, "deploy alpha")
    assert path.stat().st_size > 100  # written again


def test_a_truncated_cache_is_rebuilt(corpus):
    root, project = corpus
    with Searcher(root, project) as s:
        s.refresh_chunks()
        s.keyword_index()
        path = cache_path(s.manifest)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with Searcher(root, project) as s:
        assert s.keyword_index().rebuilt
        same_ranking(s, "dark theme")


def test_a_new_epoch_or_a_trimmed_log_forces_a_rebuild(corpus, add_entry):
    root, project = corpus
    with Searcher(root, project) as s:
        s.refresh_chunks()
        s.keyword_index()
        s.manifest.new_fts_epoch()  # as after `vectors reset` / a schema rebuild
        s.manifest.commit()
        assert KeywordIndex(s.manifest).rebuilt
        add_entry(root, "notes/x", "X", [], "Quokka sightings on the island.\n")
        s.refresh_chunks()
        s.manifest.trim_fts_log(keep=0)  # the log no longer reaches back to the cache
        s.manifest.commit()
        idx = KeywordIndex(s.manifest)
        assert idx.rebuilt
        assert s.keyword_ranking("quokka", 1, None, "all", resident=True)[0][0].entry_id == "notes/x"


def test_many_changes_rebuild_instead_of_piling_up_deltas(memory, add_entry, monkeypatch):
    from memsearch_tui.engine.search import keyword_index

    monkeypatch.setattr(keyword_index, "REBUILD_MIN", 3)
    monkeypatch.setattr(keyword_index, "REBUILD_SHARE", 0.0)
    root, project = memory
    with Searcher(root, project) as s:
        s.refresh_chunks()
        idx = s.keyword_index()
        idx.rebuilt = False
        for i in range(5):
            add_entry(root, f"notes/m{i}", f"M{i}", [], f"Marmot number {i} lives here.\n")
        s.refresh_chunks()
        s.keyword_index()
        assert idx.rebuilt and idx.changed == 0
        same_ranking(s, "marmot")


@pytest.mark.slow
def test_vectors_index_and_upkeep_leave_a_cache_for_the_first_hybrid_search(corpus, add_entry):
    from memsearch_tui.engine.search import upkeep

    root, project = corpus
    with Searcher(root, project) as s:
        s.index()
        path = cache_path(s.manifest)
    assert path.is_file()
    path.unlink()
    add_entry(root, "notes/later", "Later", [], "A later note about Postgres.\n")
    assert upkeep(root, project)["result"] == "replaced"
    assert path.is_file()
    with Searcher(root, project) as s:
        assert s.keyword_index().rebuilt is False  # loaded, not built, by the first search
        ids = [r.entry_id for r, _ in s.keyword_ranking("later note", 5, None, "all", resident=True)]
    assert "notes/later" in ids
