"""A vector build's progress counts one thing, and a stop is honoured inside a batch.

- ``progress(done, total)`` counted texts embedded plus vectors written, so every face
  showed twice the chunks (the Search pane's ``embedded 17136/40006 chunks`` for 20,003,
  the cost curve's ``vectors 0/2,000,000`` for 1M: trial s19 #2, #6). Now it counts the
  texts through the model (the slow part), or the vectors written when none is left to embed.
- The stop (the app quitting) was asked only between batches of up to 256 texts: a quit
  waited 8-15 s at 10,000 days with a blank terminal (trial s19 #3). Now it is asked every
  ``STOP_EVERY`` texts inside a batch, and the texts embedded so far are kept.

Real builds (files, manifest, Milvus Lite); the encoder is a stand-in, a vector from each
text's hash (tests/held_build.py), counting its calls.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from memsearch_tui.engine.search import Searcher, indexer
from memsearch_tui.engine.search.stopping import BuildStopped
from memsearch_tui.engine.store.store import Store
from tests.held_build import text_vector

TURNS = {
    "en": lambda n: f"Moved the nightly backup job {n} to the new storage bucket and checked restore {n}",
    "zh": lambda n: f"第{n}次：把夜间备份任务{n}迁到新的存储桶，并检查了恢复流程{n}",
}
DAYS, PER_DAY = 4, 75  # 300 texts: batches of 16, 32, 64, 128, then the rest


class CountingEncoder:
    dim = 8

    def __init__(self, stop: threading.Event | None = None, stop_after: int = 0) -> None:
        self.sizes: list[int] = []
        self.stop, self.stop_after = stop, stop_after

    def encode(self, texts: list[str]) -> np.ndarray:
        if self.stop is not None and sum(self.sizes) >= self.stop_after:
            self.stop.set()  # the user quits while this call runs
        self.sizes.append(len(texts))
        return np.array([text_vector(t) for t in texts], np.float32)


def _memory(tmp_path: Path, lang: str) -> tuple[Path, Path]:
    root, project = tmp_path / "memory", tmp_path / "proj"
    Store(root).init()
    (project / ".git").mkdir(parents=True)
    days = project / ".memsearch" / "memory"
    days.mkdir(parents=True)
    for d in range(DAYS):
        text = f"# 2026-10-{d + 1:02d}\n\n## Session 08:00\n"
        for i in range(PER_DAY):
            n = d * PER_DAY + i
            text += f"\n### 08:{i:02d}\n<!-- session:s{d} turn:{i} transcript:/t.jsonl -->\n- {TURNS[lang](n)}\n"
        (days / f"2026-10-{d + 1:02d}.md").write_text(text, encoding="utf-8")
    return root, project


def _chunks(s: Searcher) -> int:
    return int(s.manifest.db.execute("SELECT count(*) FROM chunks").fetchone()[0])


@pytest.fixture
def memory(tmp_path, monkeypatch, request):
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return _memory(tmp_path, request.param)


@pytest.mark.parametrize("memory", ["en", "zh"], indirect=True)
def test_a_builds_progress_ends_at_its_number_of_texts_not_twice_the_chunks(memory, monkeypatch) -> None:
    root, project = memory
    enc = CountingEncoder()
    monkeypatch.setattr(Searcher, "_encoder_for", lambda self, n: enc)
    told: list[tuple[int, int]] = []
    with Searcher(root, project) as s:
        s.index(progress=lambda done, total: told.append((done, total)))
        chunks = _chunks(s)
    assert chunks >= DAYS * PER_DAY
    assert told[0] == (0, sum(enc.sizes)), told[:3]  # the texts through the model
    assert told[-1] == (sum(enc.sizes), sum(enc.sizes)), told[-3:]
    assert max(t for _, t in told) <= chunks, (told[-1], chunks)


@pytest.mark.parametrize("memory", ["en", "zh"], indirect=True)
def test_a_stop_during_a_batch_ends_it_before_the_batchs_end_keeping_what_was_embedded(memory, monkeypatch) -> None:
    root, project = memory
    monkeypatch.setattr(indexer, "STOP_EVERY", 32, raising=False)  # as on one core (the default follows the cores)
    first_four = indexer.FIRST_BATCH * (1 + 2 + 4)  # 112 texts before the fourth batch (128 texts)
    stop = threading.Event()
    enc = CountingEncoder(stop, stop_after=first_four)
    monkeypatch.setattr(Searcher, "_encoder_for", lambda self, n: enc)
    with Searcher(root, project, stop=stop) as s, pytest.raises(BuildStopped):
        s.index()
    assert sum(enc.sizes) == first_four + 32, enc.sizes  # one call into the fourth batch, not its 128
    with Searcher(root, project) as s:
        kept = int(s.manifest.db.execute("SELECT count(*) FROM textvecs").fetchone()[0])
        assert kept == sum(enc.sizes)  # every text embedded before the stop is kept
        chunks = _chunks(s)
    rest = CountingEncoder()
    monkeypatch.setattr(Searcher, "_encoder_for", lambda self, n: rest)
    told: list[tuple[int, int]] = []
    with Searcher(root, project) as s:
        s.index(progress=lambda done, total: told.append((done, total)))
        assert s.manifest.count_pending()[0] == 0
    assert sum(rest.sizes) == chunks - kept  # nothing embedded twice
    assert told[-1] == (chunks - kept, chunks - kept), told[-3:]  # the texts left: the resumed build's count
