"""A build asked to stop while it reads and chunks the files, or loads the model, stops there.

The stop flag (quitting the app, ``mem.search.stop_building``) was asked only between two
embedding batches: a first build on a big memory read and chunked every file, then loaded
the model, before it looked. Now it is asked between two files (those read so far are
committed whole, the rest keep their old rows, so the next run reads them) and right after
the model's first load. The build is real (files listed and chunked, the manifest and Milvus
Lite written); the encoder is a stand-in, held in nothing.
"""

from __future__ import annotations

import threading

import pytest

import memsearch_tui.engine.search.indexer as indexer
from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.stopping import BuildStopped
from tests.held_build import EXIT_WAIT, HeldEncoder, assert_completed_as_clean, journal_memory


def _setup(tmp_path, monkeypatch, lang):
    root, project = journal_memory(tmp_path, lang)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    enc, loads = HeldEncoder(held=False), []

    def encoder_for(self: Searcher, n: int) -> HeldEncoder:
        loads.append(n)
        return enc

    monkeypatch.setattr(Searcher, "_encoder_for", encoder_for)
    return root, project, enc, loads


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stop_while_files_are_read_ends_the_build_before_the_next_file(tmp_path, monkeypatch, lang) -> None:
    root, project, enc, loads = _setup(tmp_path, monkeypatch, lang)
    reading, quit_, reads = threading.Event(), threading.Event(), []
    real_read = indexer.read_bounded

    def read_bounded(path, limit):  # the second file's read waits for the user to quit
        reads.append(path)
        if len(reads) == 2:
            reading.set()
            assert quit_.wait(EXIT_WAIT), "the test never quit"
        return real_read(path, limit)

    monkeypatch.setattr(indexer, "read_bounded", read_bounded)
    mem = Memory(root, project)
    outcome: list[BaseException | None] = []

    def build() -> None:
        try:
            mem.vectors.index()
            outcome.append(None)
        except BaseException as exc:  # what it raised is the test's to check
            outcome.append(exc)

    worker = threading.Thread(target=build, daemon=True)
    worker.start()
    assert reading.wait(EXIT_WAIT), "the build never read its second file"
    total = len(indexer.all_files(root, project))
    assert total >= 3, total  # a file left after the one in flight
    mem.search.stop_building()  # the app quits while the build reads its files
    quit_.set()
    worker.join(EXIT_WAIT)
    assert not worker.is_alive()
    assert isinstance(outcome[0], BuildStopped), outcome
    assert len(reads) == 2, f"{len(reads)} of {total} files read after the stop"
    assert loads == [] and enc.calls == 0  # no model loaded, nothing embedded
    mem.close()
    monkeypatch.setattr(indexer, "read_bounded", real_read)
    assert_completed_as_clean(tmp_path, root, project, monkeypatch, enc)  # the manifest is whole


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stop_during_the_first_model_load_ends_the_build_right_after_it(tmp_path, monkeypatch, lang) -> None:
    root, project, enc, loads = _setup(tmp_path, monkeypatch, lang)
    mem = Memory(root, project)
    own_vectors = []

    def encoder_for(self: Searcher, n: int) -> HeldEncoder:  # the app quits while the model loads
        loads.append(n)
        mem.search.stop_building()
        return enc

    monkeypatch.setattr(Searcher, "_encoder_for", encoder_for)
    real_own = indexer._own_vectors
    monkeypatch.setattr(indexer, "_own_vectors", lambda *a, **k: own_vectors.append(1) or real_own(*a, **k))
    with pytest.raises(BuildStopped):
        mem.vectors.index()
    assert len(loads) == 1 and enc.calls == 0
    assert own_vectors == [], "the build went on to read texts to embed after the stop"
    mem.close()
    assert_completed_as_clean(tmp_path, root, project, monkeypatch, enc)
