"""The keyword cache is mapped, not read (issue 37 item 5: at 1M chunks reading the whole
``manifest.bm25.npz``, 3 GB, made the first BM25 query take 28.9 s): its arrays load as
``np.memmap``; a cache cut short or damaged is refused and rebuilt, never trusted; a cache
written by the old ``np.savez`` writer still loads (mapped) and ranks the same."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.keyword_index import ARRAYS, KeywordIndex, cache_path
from tests.search.test_keyword_index import QUERIES, extra_entries, same_ranking


@pytest.fixture
def corpus(memory, add_entry):
    root, project = memory
    extra_entries(root, add_entry)
    add_entry(root, "notes/zh", "偏好", [], "我们偏好深色主题，部署在法兰克福。\n")
    return root, project


def built(root, project):
    with Searcher(root, project) as s:
        s.refresh_chunks()
        assert s.keyword_index().rebuilt
        return cache_path(s.manifest)


def test_the_cache_loads_mapped_and_ranks_like_fts5(corpus):
    root, project = corpus
    path = built(root, project)
    with Searcher(root, project) as s:
        idx = s.keyword_index()
        assert not idx.rebuilt
        for name in ARRAYS:
            assert isinstance(getattr(idx, name), np.memmap), name
        assert idx.post_f.ctypes.data % 8 == 0 and idx.post_slot.ctypes.data % 4 == 0  # aligned in the file
        for q in QUERIES:
            same_ranking(s, q)
    with np.load(path, allow_pickle=False) as z:  # still a plain .npz for numpy
        assert json.loads(str(z["meta"]))["format"] == 1 and len(z["post_slot"]) == len(idx.post_slot)


def test_a_cache_cut_short_anywhere_is_rebuilt(corpus):
    root, project = corpus
    path = built(root, project)
    data = path.read_bytes()
    with zipfile.ZipFile(path) as zf:
        post = zf.getinfo("post_f.npy")
    for cut in (len(data) - 1, post.header_offset + 200, len(data) // 2, 10):
        path.write_bytes(data[:cut])
        with Searcher(root, project) as s:
            idx = s.keyword_index()
            assert idx.rebuilt, cut
            same_ranking(s, "dark theme")
        assert path.read_bytes() == data  # written again, whole
    with Searcher(root, project) as s:
        assert isinstance(s.keyword_index().post_f, np.memmap)


def test_postings_damaged_inside_the_file_are_not_trusted(corpus):
    """The zip's CRC is no longer read (that would read the whole file): a posting list a
    query reads is checked, the query answered by FTS5 and the cache rebuilt."""
    root, project = corpus
    path = built(root, project)
    with Searcher(root, project) as s:
        idx = s.keyword_index()
        tid = idx.terms[idx.stemmer.terms(["deploy"])["deploy"][0]]
        at = int(idx.indptr[tid])
        where = idx.post_slot.offset + 4 * at  # the term's first posting in the file
        del idx
    data = bytearray(path.read_bytes())
    data[where : where + 4] = np.int32(10**6).tobytes()  # a row that does not exist
    path.write_bytes(bytes(data))
    with Searcher(root, project) as s:
        idx = s.keyword_index()
        assert not idx.rebuilt
        same_ranking(s, "deploy alpha")  # FTS5's answer, not the damaged postings
        assert idx.damaged and not path.exists()
        same_ranking(s, "deploy alpha")
        assert idx.rebuilt and not idx.damaged and path.is_file()
        hits = s.keyword_ranking("deploy", 3, None, "all", resident=True)
        assert hits and idx.rank(["deploy"], 3, idx.scope_names) is not None


def test_an_old_npz_cache_still_loads_mapped_and_answers_the_same(corpus):
    """A cache written before session 17 (``np.savez``: members not aligned) is not thrown
    away: it maps as it is."""
    root, project = corpus
    path = built(root, project)
    with np.load(path, allow_pickle=False) as z:
        members = {k: z[k] for k in z.files}
    with open(path, "wb") as fh:  # the old writer, exactly
        np.savez(fh, **members)
    with Searcher(root, project) as s:
        idx = s.keyword_index()
        assert not idx.rebuilt
        assert isinstance(idx.post_f, np.memmap) and isinstance(idx.entries, np.memmap)
        for q in [*QUERIES, "偏好 部署"]:
            same_ranking(s, q)
        same_ranking(s, "deploy", category="notes")
        same_ranking(s, "deploy dark", source="store")
        (root / "notes" / "n03.md").unlink()  # a removal applied to the mapped rows
        s.refresh_chunks()
        assert not s.keyword_index().rebuilt and s.keyword_index().changed
        same_ranking(s, "deploy dark")
        ours = s.keyword_ranking("deploy dark", 50, None, "all", resident=True)
    with Searcher(root, project) as s:
        fresh = KeywordIndex(s.manifest)
    assert fresh.rebuilt is False  # the cache, still the old writer's file, caught up once more
    assert fresh.rank(["deploy", "dark"], 50, fresh.scope_names) == [(r.rid, x) for r, x in ours]
