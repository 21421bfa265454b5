"""The first meaning search in a fresh project gets its final answer as soon as the build at
open has embedded its last text (issue 36 item 6b): from the vectors in the manifest, before
the build has opened Milvus Lite and filled it (its start, insert and flush took ~1 s more of
the answer's wait), and that answer is the one the finished index gives. The build opens Milvus
Lite only after the embedding (its pure-Python start held the GIL the forward pass needs), so a
build stopped while embedding never opens it.

Real files in temp dirs (English and Chinese); the one stand-in holds the vector store's
opening, so the test can ask while the build waits there (what is tested is the answer then)."""

from __future__ import annotations

import threading

import pytest

_FILLERS = ["Lunch", "Coffee", "Standup", "午饭", "Break", "Call with Ana", "Reviewed a PR", "开会", "Walk", "Email"]
_EN = (
    "To keep the Redis cache fast we pin the hot keys in memory, batch the writes and set a short "
    "expiry, so page loads dropped from 900 ms to 120 ms"
)
_ZH = "为了让缓存保持快速，我们把热键常驻内存，批量写入，并设置较短的过期时间，页面加载从九百毫秒降到一百二十毫秒"
_OFF = (
    "Renamed the cache folders of old scanned photos: cache/photos-2019 and cache/misc now live "
    "under archive/, because the cache names confused people; 整理了旧照片的缓存文件夹"
)


def _day(texts: list[str]) -> str:
    turns = [
        f"### 09:{i:02d}\n<!-- session:cafe turn:{i} transcript:/t/cafe.jsonl -->\n- {t}\n"
        for i, t in enumerate(texts, 1)
    ]
    return "# 2024-05-02\n\n## Session 09:00\n\n" + "\n".join(turns)


def _hold_vector_store(monkeypatch) -> tuple[threading.Event, threading.Event, threading.Event, list[int]]:
    """(every text embedded, the opening reached, go, texts embedded when reached): the
    vector store's opening waits for ``go``."""
    from memsearch_tui.engine.search import indexer
    from memsearch_tui.engine.search.searcher import Searcher

    all_in, reached, go, seen = threading.Event(), threading.Event(), threading.Event(), []
    embedded: list[int] = []
    real_open, real_step = Searcher._open_vectors, indexer._Progress.step

    def step(self, n: int) -> None:
        real_step(self, n)
        embedded.append(self.done)
        if self.done >= self.total:
            all_in.set()

    def held_open(self):
        seen.append(embedded[-1] if embedded else 0)
        reached.set()
        assert go.wait(120), "the test never let the build go on"
        return real_open(self)

    monkeypatch.setattr(indexer._Progress, "step", step)
    monkeypatch.setattr(Searcher, "_open_vectors", held_open)
    return all_in, reached, go, seen


def _hits(res) -> list[tuple[str, tuple[int, int] | None, str, float]]:
    return [(h.id, h.lines, h.snippet, round(h.score, 6)) for h in res.hits]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "expected"),
    [("how do we keep the cache fast", "Redis cache fast"), ("怎样让缓存保持快速", "缓存保持快速")],
    ids=["en", "zh"],
)
def test_the_final_meaning_answer_comes_before_the_vector_store_is_filled(
    memory, monkeypatch, question, expected
) -> None:
    """Asked once every text is embedded (``wait_all_meaning``) while the build waits for
    the vector store: the answer has no "meaning coming" or "meaning over N of M" note, and
    equals (ids, lines, snippets, scores) the answer after the whole build. Before: it said
    the meaning results were still coming and the app asked again after Milvus was filled."""
    from memsearch_tui.engine.api import MEANING_COMING, Memory

    root, project = memory
    day = project / ".memsearch" / "memory" / "2024-05-02.md"
    day.write_text(_day([*_FILLERS[:5], _OFF, *_FILLERS[5:], _EN, _ZH, "Done"]), encoding="utf-8")
    all_in, reached, go, seen = _hold_vector_store(monkeypatch)
    with Memory(root, project, share=True) as mem:
        mem.search.prepare()
        try:
            assert all_in.wait(120) and reached.wait(120)  # the build waits for the vector store: nothing in it
            early = mem.search.query(question, strategy="hybrid", k=3)
            assert not mem.warm.built.is_set()
            assert MEANING_COMING not in early.notes and not any(n.startswith("meaning over") for n in early.notes)
            assert mem.search.wait_all_meaning(0)  # what the app waits for before it asks again
        finally:
            go.set()
        assert mem.search.wait_built(120)
        full = mem.search.query(question, strategy="hybrid", k=3)
    assert seen and seen[0] > 0  # opened after the texts were embedded, not beside them
    assert early.strategy == full.strategy == "hybrid"
    assert expected in full.hits[0].snippet
    assert _hits(early) == _hits(full)


def test_a_build_stopped_while_embedding_never_opens_the_vector_store(memory, monkeypatch) -> None:
    """The app quits during the build at open: the build stops at its next batch, its texts
    so far kept, without starting Milvus Lite (nothing was written to it; before, its start
    ran beside the embedding and the stop's flush waited for it)."""
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.search import indexer
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.searcher import Searcher
    from memsearch_tui.engine.search.settings import load_settings

    root, project = memory
    day = project / ".memsearch" / "memory" / "2024-05-02.md"
    day.write_text(_day([*_FILLERS, _EN, _ZH, _OFF]), encoding="utf-8")
    monkeypatch.setattr(indexer, "FIRST_BATCH", 2)
    opened: list[bool] = []
    real_open = Searcher._open_vectors
    monkeypatch.setattr(Searcher, "_open_vectors", lambda self: opened.append(True) or real_open(self))
    real_step = indexer._Progress.step
    with Memory(root, project, share=True) as mem:

        def step(self, n: int) -> None:
            real_step(self, n)
            mem.search.stop_building()  # the app quits after the first batch

        monkeypatch.setattr(indexer._Progress, "step", step)
        mem.search.prepare()
        assert mem.search.wait_built(120)
    assert not opened
    m = Manifest(load_settings(root, project).manifest_path)
    try:
        kept = m.db.execute("SELECT count(*) FROM textvecs").fetchone()[0]
        assert kept == 2 and m.count_pending()[0] > 0  # the first batch kept, the rest for the next run
    finally:
        m.close()
