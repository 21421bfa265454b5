"""A rewrite that leaves a file's (mtime, size) as the index recorded them is still seen.

A file system stamps writes with a clock that moves in ticks, so an agent rewriting a
journal day within the tick of the index's read, at the same length, kept both: the old
turn stayed searchable and the new one was never found. The index now keeps such a row
"racy" (:data:`indexer.RACY`) and reads the file once more on the next sync. A clock that
ticks every ten minutes (``coarse_clock``) puts a file written just now "within the tick of
the read" on any machine. (A future mtime stood for that until session 18; it no longer
does: such a file was read again by every sync until its time came,
``test_stat_stamps.py``.)"""

from __future__ import annotations

import os
import time

import pytest

from memsearch_tui.engine.search import Searcher, indexer

TICK = 600 * 10**9


@pytest.fixture
def coarse_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system whose clock ticks every ten minutes: whatever was written in the last
    ten minutes may be rewritten within the tick of the read (the slowest test reads well
    within it); what is an hour old is not."""
    monkeypatch.setattr(indexer, "_tick", lambda ns: TICK, raising=False)


def _ids(root, project, query: str) -> list[str]:
    """A one-shot search's hits (a new Searcher each time, as the CLI runs)."""
    with Searcher(root, project) as s:
        return [h.path.rsplit("/", 1)[-1] for h in s.search(query, strategy="index", k=5).hits]


def _one_racy_day(root, project):
    """Every file aged an hour, then one journal day dated "within the tick of the read"
    (just now, on ``coarse_clock``): (that day, the age the others got)."""
    long_ago = time.time_ns() - 3_600 * 10**9
    for path in (*root.rglob("*.md"), *project.rglob("*.md")):
        os.utime(path, ns=(long_ago, long_ago))
    day = project / ".memsearch" / "memory" / "2024-05-01.md"
    now = time.time_ns()
    os.utime(day, ns=(now, now))
    return day, long_ago


def test_a_same_size_same_mtime_rewrite_of_a_day_is_searched(memory):
    root, project = memory
    day = project / ".memsearch" / "memory" / "2024-05-01.md"
    soon = time.time_ns() + 3_600 * 10**9  # "the same tick as the read", on any clock
    os.utime(day, ns=(soon, soon))
    assert "2024-05-01.md" in _ids(root, project, "Postgres")
    old = day.read_bytes()
    new = old.replace(b"Postgres", "达梦DB".encode())  # 8 bytes for 8: the same size
    assert len(new) == len(old) and new != old
    day.write_bytes(new)
    os.utime(day, ns=(soon, soon))  # and the same mtime
    assert "2024-05-01.md" in _ids(root, project, "达梦")
    assert "2024-05-01.md" not in _ids(root, project, "Postgres")


def test_a_racy_row_is_read_once_more_then_kept_quiet(memory, coarse_clock):
    """Once its mtime lies a tick behind the read, the row keeps it: later syncs read nothing."""
    from memsearch_tui.engine.search.indexer import RACY

    root, project = memory
    day, long_ago = _one_racy_day(root, project)
    with Searcher(root, project) as s:
        s.refresh_chunks()
        assert s.manifest.files()[str(day)].mtime_ns == RACY
        assert {p: r.mtime_ns for p, r in s.manifest.files().items() if p != str(day)} == {
            p: long_ago for p in s.manifest.files() if p != str(day)
        }
        os.utime(day, ns=(long_ago, long_ago))
        s.invalidate()
        assert s.refresh_chunks().changed == 0  # read again, the same text: only its row's mtime set
        assert s.manifest.files()[str(day)].mtime_ns == long_ago
        statements: list[str] = []
        s.manifest.db.set_trace_callback(statements.append)
        s.invalidate()
        s.refresh_chunks()
        s.manifest.db.set_trace_callback(None)
        assert not [q for q in statements if q.lstrip().upper().startswith(("UPDATE", "INSERT"))]


def test_hygiene_takes_the_vectors_of_a_racy_row(memory, coarse_clock):
    """A store entry indexed within a tick of its write is kept racy, not changed: the
    duplicate finder still takes its vectors (it called it "changed since indexing")."""
    import sqlite3

    import numpy as np

    from memsearch_tui.engine.hygiene.vectors import entry_vectors
    from memsearch_tui.engine.search.indexer import RACY

    root, project = memory
    entry = root / "projects" / "alpha.md"
    now = time.time_ns()  # "the same tick as the read", on coarse_clock
    os.utime(entry, ns=(now, now))
    with Searcher(root, project) as s:
        s.refresh_chunks()
        assert s.manifest.files()[str(entry)].mtime_ns == RACY
        path = s.s.manifest_path
    db = sqlite3.connect(path)  # the embedding is not what this is about: one vector for every chunk
    db.execute("UPDATE chunks SET vec = ?, embedded = 1", (np.ones(4, dtype=np.float32).tobytes(),))
    db.commit()
    db.close()
    vectors, why = entry_vectors(root, project)
    assert "projects/alpha" in vectors and why == ""


def test_upkeep_calls_an_index_up_to_date_when_its_racy_rows_read_again_unchanged(memory, coarse_clock):
    """The hook's upkeep reads a racy row again (as any sync does); the text unchanged, it
    replaced nothing: "none, index up to date", not "replaced" with nothing changed (which
    also kept the hook's fast path from recording the quiet run)."""
    from memsearch_tui.engine.search.indexer import RACY
    from memsearch_tui.engine.search.upkeep import upkeep

    root, project = memory
    day, long_ago = _one_racy_day(root, project)
    with Searcher(root, project) as s:
        s.index()
        assert s.manifest.files()[str(day)].mtime_ns == RACY
    os.utime(day, ns=(long_ago, long_ago))
    row = upkeep(root, project)
    assert (row["result"], row["reason"]) == ("none", "index up to date")
    with Searcher(root, project) as s:
        assert s.manifest.files()[str(day)].mtime_ns == long_ago  # read again and kept
