"""Quitting the app while the vector index is built ends within a batch, and loses nothing.

The Search pane's exit closed the warm searcher, which waited for the lock the build held
to its end: minutes on a big memory, for someone who pressed q. The build now stops at its
next batch (``mem.search.stop_building``), everything embedded so far committed, and the
next index run completes it to the index a clean build makes (same chunk ids, each once).

The build is real (files listed and chunked, the manifest and Milvus Lite written); the
encoder is a stand-in, a vector from each text's hash (the model is not what is tested),
held in its embedding step: its second batch is in flight when the app begins to close the
searcher, and every later batch waits as a long build's would.
"""

from __future__ import annotations

import pytest

from tests.held_build import HeldEncoder, assert_completed_as_clean, hold_builds, journal_memory, quit_while_embedding


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_quitting_during_a_build_ends_at_once_and_the_next_index_completes_it(tmp_path, monkeypatch, lang):
    root, project = journal_memory(tmp_path, lang)
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    enc = HeldEncoder()
    hold_builds(monkeypatch, enc)

    quit_while_embedding(root, project, enc)
    assert enc.calls in (1, 2), enc.calls  # stopped at the batch in flight (or just before it)

    assert_completed_as_clean(tmp_path, root, project, monkeypatch, enc)
