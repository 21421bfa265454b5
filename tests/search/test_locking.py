"""Milvus Lite's one-process lock: a second process waits, then says which path; hooks defer."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from memsearch_tui.engine.core.errors import LockTimeout
from memsearch_tui.engine.search import Searcher, strategy, upkeep
from memsearch_tui.engine.search.milvus_backend import MilvusVectors, lite_locked
from tests.search.conftest import lite_held

pytestmark = pytest.mark.slow  # real model / Milvus: seconds per test


@pytest.fixture
def held(memory):
    """Index once, then let another process hold the Lite data dir until the test ends."""
    root, project = memory
    with Searcher(root, project) as s:
        s.index()
        uri = s.s.uri
    with lite_held(uri):
        yield root, project, uri


def test_second_process_waits_then_names_the_locked_path(held):
    root, project, uri = held
    assert lite_locked(uri and __import__("pathlib").Path(uri))
    t0 = time.monotonic()
    with pytest.raises(LockTimeout) as err:
        MilvusVectors(uri, "", "c", lock_wait=0.5)
    assert time.monotonic() - t0 >= 0.5
    assert uri in err.value.message and "locked" in err.value.message


def test_hook_upkeep_defers_instead_of_failing(held, add_entry):
    root, project, uri = held
    add_entry(root, "notes/late", "Late note", [], "written while the TUI holds the index\n")
    row = upkeep(root, project)
    assert row["platform"] == "store" and row["task"] == "vectors"
    assert row["result"] == "locked" and "1 changed" in row["reason"] and uri in row["reason"]
    # the keyword index already has it; the vector work waits in the manifest
    with Searcher(root, project) as s:
        assert s.search("TUI holds", strategy="index", k=1).hits[0].id == "notes/late"
        assert s.manifest.count_pending()[0] == 1


def test_auto_search_falls_back_to_keywords_when_vectors_are_locked(held, add_entry, monkeypatch):
    """``auto`` over the size where it starts with the vectors (500 files; the rule's bounds
    lowered as a stand-in, as in test_auto_meaning: 501 entries written and chunked cost ~2 s)."""
    root, project, uri = held
    monkeypatch.setattr(strategy, "GREP_BELOW", 1)
    monkeypatch.setattr(strategy, "INDEX_UP_TO", 2)
    add_entry(root, "bulk/n0", "Note 0", [], "filler 0\n")  # not in the vectors yet: they must be written
    with Searcher(root, project) as s:
        s.refresh_chunks()
        res = s.search("gruvbox colour", k=1)
        assert "files > 2: semantic search" in res.reason, res.reason  # auto chose the vectors' tier
        assert res.strategy == "index" and "unavailable" in res.reason and res.notes, (
            res.strategy,
            res.reason,
            res.notes,
        )
        assert res.hits[0].id == "tools/editor"
        with pytest.raises(LockTimeout):
            s.search("gruvbox colour", strategy="hybrid")


def test_upkeep_rows(memory, tmp_path, add_entry):
    root, project = memory
    assert upkeep(root, project)["result"] == "skip"  # never indexed: nothing to keep up
    with Searcher(root, project) as s:
        s.index()
    assert upkeep(root, project) == {
        "platform": "store",
        "task": "vectors",
        "result": "none",
        "reason": "index up to date",
    }
    add_entry(root, "notes/n", "N", [], "new words\n")
    row = upkeep(root, project)
    assert row["result"] == "replaced" and "1 embedded" in row["reason"]
    assert upkeep(tmp_path / "nowhere", tmp_path / "noproject")["result"] == "skip"


def test_index_lock_excludes_a_filelock_holder_in_another_process(memory):
    """The index lock is a plain flock (no filelock import on the search path): a process
    holding ``filelock.FileLock`` on the same file (an older memsearch-tui) still excludes it."""
    from memsearch_tui.engine.search.indexer import index_lock
    from memsearch_tui.engine.search.settings import load_settings

    root, project = memory
    s = load_settings(root, project)
    s.state_dir.mkdir(parents=True, exist_ok=True)
    holder = (
        "import sys; from filelock import FileLock; lock = FileLock(sys.argv[1]); lock.acquire(); "
        "print('held', flush=True); sys.stdin.readline()"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", holder, str(s.state_dir / "index.lock")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "held"
        with pytest.raises(LockTimeout, match="another process is indexing"), index_lock(s, timeout=0.3):
            pass
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    with index_lock(s, timeout=0.3), index_lock(s, timeout=0.3):  # free again, and re-entrant
        pass
