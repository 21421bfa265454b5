"""The keyword cache is built in bounded memory: batch by batch, each batch's postings summed,
sorted and set aside, then placed in the final arrays (all postings held at once passed 8 GB
at 1M chunks), and the index built in parts equals the one built in one pass exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memsearch_tui.engine.search import keyword_index
from memsearch_tui.engine.search.indexer import sync_chunks
from memsearch_tui.engine.search.keyword_index import KeywordIndex, cache_path
from memsearch_tui.engine.search.manifest import Manifest
from memsearch_tui.engine.search.settings import load_settings
from memsearch_tui.engine.search.tokenize import query_tokens

TURNS = [
    "Deployed the checkout service; deploying again on Friday after the deploy freeze",
    "订单表死锁已修复，加了重试；部署怎么回滚",
    "Pinned nginx to 1.25 after the TLS error, tests testing tested",
    "缓存预热竞争：临时办法是固定 Redis 版本",
    "The café's Postgres orders table: a deadlock, then a migration",
]
QUERIES = ["deploy checkout", "deadlock orders", "回滚", "缓存预热", "tests nginx", "café", "the"]


def journals(project: Path, days: int) -> None:
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    for d in range(1, days + 1):
        text = f"# 2024-06-{d:02d}\n\n## Session 09:00\n"
        for i, turn in enumerate(TURNS[: 2 + d % 4]):
            text += f"\n### 09:{i:02d}\n<!-- session:s{d} turn:{i} transcript:/t.jsonl -->\n- {turn} (day {d})\n"
        (mem / f"2024-06-{d:02d}.md").write_text(text, encoding="utf-8")


def by_term(idx: KeywordIndex) -> dict[str, tuple[bytes, bytes]]:
    """Each term's postings (slots and weighted frequencies, exact bytes), keyed by the term."""
    out = {}
    for term, t in idx.terms.items():
        lo, hi = int(idx.indptr[t]), int(idx.indptr[t + 1])
        out[term] = (idx.post_slot[lo:hi].tobytes(), idx.post_f[lo:hi].tobytes())
    return out


def rows(idx: KeywordIndex) -> tuple[object, ...]:
    return (idx.rids.tolist(), idx.dl.tolist(), idx.scope.tolist(), idx.is_entry.tolist(), idx.entries.tolist())


def test_built_in_parts_it_holds_one_batch_at_a_time_and_equals_one_pass(tmp_path, data_dir, monkeypatch):
    project = tmp_path / "proj"
    journals(project, 9)
    s = load_settings(tmp_path / "memory", project, {})
    m = Manifest(s.manifest_path)
    sync_chunks(s, m)

    monkeypatch.setattr(keyword_index, "TOKENIZE_BATCH", 10**6)
    one = KeywordIndex(m)
    assert one.rebuilt and len(one.rids) > 20
    total = len(one.post_slot)

    held: list[int] = []
    monkeypatch.setattr(keyword_index, "TOKENIZE_BATCH", 3)
    monkeypatch.setattr(keyword_index, "_held", held.append)
    cache_path(m).unlink()
    parts = KeywordIndex(m)
    assert parts.rebuilt
    # every posting passed through a batch of 3 rows, and no batch held more than a few rows' worth
    assert len(held) == -(-len(one.rids) // 3)
    assert sum(held) >= total
    assert max(held) <= total // 5

    assert by_term(parts) == by_term(one)
    assert rows(parts) == rows(one)
    assert parts.scope_names == one.scope_names
    assert np.array_equal(parts.indptr[1:] - parts.indptr[:-1], [len(by_term(one)[t][0]) // 4 for t in parts.terms])
    for q in QUERIES:
        got = parts.rank(query_tokens(q), 50, parts.scope_names)
        assert got == one.rank(query_tokens(q), 50, one.scope_names), q
        assert got is None or got, q  # each query finds something (or is FTS5's)
        fts = sorted((r.rid, round(x, 9)) for r, x in m.keyword(q, 50))
        assert got is None or sorted((rid, round(x, 9)) for rid, x in got) == fts, q

    loaded = KeywordIndex(m)  # the cache it wrote loads as the same index
    assert not loaded.rebuilt
    assert by_term(loaded) == by_term(one) and rows(loaded) == rows(one)
    assert not list(cache_path(m).parent.glob(".bm25-build-*"))  # no temporary file left
    m.close()


def test_a_full_disk_beside_the_cache_still_builds_it_in_memory(tmp_path, data_dir, monkeypatch):
    """Review of session 16: the streamed build's temporary file is refused by a full disk
    (ENOSPC, a real tmpfs): the search still gets its index (built again in memory, the same
    postings), no cache is written and nothing is left on that disk."""
    from tests.faults import fill, tmpfs

    project = tmp_path / "proj"
    journals(project, 4)
    s = load_settings(tmp_path / "memory", project, {})
    m = Manifest(s.manifest_path)
    sync_chunks(s, m)
    monkeypatch.setattr(keyword_index, "TOKENIZE_BATCH", 3)
    one = KeywordIndex(m)
    with tmpfs(tmp_path / "disk", size="1m") as disk:
        monkeypatch.setattr(keyword_index, "cache_path", lambda _m: disk / "manifest.bm25.npz")
        fill(disk)
        full = KeywordIndex(m)
        assert full.rebuilt
        assert by_term(full) == by_term(one) and rows(full) == rows(one)
        assert full.rank(query_tokens("deploy checkout"), 50, full.scope_names) == one.rank(
            query_tokens("deploy checkout"), 50, one.scope_names
        )
        assert sorted(p.name for p in disk.iterdir()) == [".fill"]
    m.close()
