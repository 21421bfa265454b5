"""A warm Searcher ranks a hybrid query exactly as a fresh one does.

A one-shot search ranks keywords with FTS5 and reads every candidate's text; a warm one
uses the resident BM25 index, remembers each chunk's script and speaker
(:meth:`Searcher.chunk_facts`) and starts the query's forward pass in a thread while the
keyword leg runs. None of that may change a result, and what it remembers must follow an
edit of the files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.search import Searcher

DAY = """\
# 2024-06-0{n}

## Session 10:00

### 10:0{n}
- Caroline: I painted a sunset over the lake last weekend, my best canvas so far.

### 10:1{n}
- Melanie: I went to the pottery class and made a blue bowl for my kids.

### 10:2{n}
- Caroline: The support group meets on Tuesdays; it helped me a lot this year.

### 10:3{n}
- Melanie: We camped in the mountains and watched the Perseid meteor shower.
"""

QUERIES = [
    "What did Caroline paint?",
    "What did Melanie make at the pottery class?",
    "When does the support group meet?",
    "meteor shower camping",
    "dark theme frontend",
    "深色主题",
    "Postgres orders database",
]


@pytest.fixture
def talk(memory):
    root, project = memory
    mem = project / ".memsearch" / "memory"
    for n in range(1, 4):
        (mem / f"2024-06-0{n}.md").write_text(DAY.format(n=n), encoding="utf-8")
    with Searcher(root, project) as s:
        s.index()
    return root, project


def ranked(res) -> list[tuple[str, float]]:
    return [(h.chunk_id, h.score) for h in res.hits]


def fresh(root: Path, project: Path, query: str, source: str = "all", k: int = 8) -> list[tuple[str, float]]:
    with Searcher(root, project) as s:
        return ranked(s.search(query, strategy="hybrid", k=k, source=source))


def test_a_warm_searcher_ranks_as_fresh_ones_do(talk):
    """Second round: resident keyword index, remembered chunk facts, the forward pass and
    the mirror scan in a thread; other depths and sources must not reuse a scan."""
    root, project = talk
    asks = [(q, src, k) for q in QUERIES for src, k in (("all", 8), ("journal", 3), ("store", 5))]
    want = {a: fresh(root, project, *a) for a in asks}
    assert want["What did Caroline paint?", "all", 8], "the speaker question finds turns"
    with Searcher(root, project) as s:
        for _ in range(2):
            for q, src, k in asks:
                assert ranked(s.search(q, strategy="hybrid", k=k, source=src)) == want[q, src, k], (q, src)
        assert s._kw_index is not None, "the warm rounds ran on the resident keyword index"


def test_remembered_chunk_facts_follow_an_edit(talk):
    """A turn's speaker changes in the file: the warm Searcher's boost follows it."""
    root, project = talk
    day = project / ".memsearch" / "memory" / "2024-06-02.md"
    q = "What did Caroline paint?"
    with Searcher(root, project) as s:
        assert any(h.path == str(day) for h in s.search(q, strategy="hybrid", k=8).hits)
        day.write_text(DAY.format(n=2).replace("- Caroline:", "- Melanie:"), encoding="utf-8")
        s.invalidate()
        after = s.search(q, strategy="hybrid", k=8)
        assert ranked(after) == fresh(root, project, q)
        facts = s.chunk_facts([h.chunk_id for h in after.hits], {})
        edited = [h for h in after.hits if h.path == str(day)]
        assert edited and all(facts[h.chunk_id][1] == "melanie" for h in edited)


def test_chunk_facts_read_the_text_or_the_manifest(talk):
    root, project = talk
    with Searcher(root, project) as s:
        res = s.search("support group Tuesdays", strategy="hybrid", k=3)
        cid = res.hits[0].chunk_id
        assert s.chunk_facts([cid], {}) == {cid: ("alpha", "caroline")}
        assert s.chunk_facts(["no-such-chunk"], {}) == {"no-such-chunk": ("none", None)}
        assert s.chunk_facts(["given"], {"given": "- Bob: 你好世界，今天天气很好"}) == {"given": ("cjk", "bob")}


def test_the_early_forward_pass_gives_the_vector_a_direct_encode_gives(talk, monkeypatch):
    root, project = talk
    with Searcher(root, project) as s:
        threaded = {q: ranked(s.search(q, strategy="vector", k=8)) for q in QUERIES[:4]}
        assert s._vector_queries == 4  # the first in line, the next three from the thread
    monkeypatch.setattr(Searcher, "_encode_early", lambda self, *args: None)
    with Searcher(root, project) as s:
        for q, want in threaded.items():
            assert ranked(s.search(q, strategy="vector", k=8)) == want, q
            assert ranked(s.search(q, strategy="hybrid", k=8)) == fresh(root, project, q)


def test_an_error_in_the_early_forward_pass_reaches_the_caller(talk, monkeypatch):
    root, project = talk

    def broken(self, query):
        raise MemsearchError("model folder unreadable")

    with Searcher(root, project) as s:
        s.search("meteor shower", strategy="hybrid", k=5)  # the first vector query encodes in line
        monkeypatch.setattr(Searcher, "_encode", broken)
        s.search("What did Caroline paint?", strategy="index", k=5)
        assert s._query_vec is None
        with pytest.raises(MemsearchError, match="model folder unreadable"):
            s.search("What did Caroline paint?", strategy="hybrid", k=5)
