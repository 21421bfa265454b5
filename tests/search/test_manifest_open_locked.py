"""Opening a manifest the previous version wrote (no ``file_stamps``) now
writes (CREATE TABLE). If another connection holds the write lock past the busy timeout,
the "database is locked" is an OperationalError, a DatabaseError, which ``Manifest``
takes for a corrupt file: the whole index is renamed ``.corrupt`` and rebuilt (every
chunk re-embedded). On dfc9a86 the same open wrote nothing and kept the index."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.indexer import sync_chunks
from memsearch_tui.engine.search.manifest import Manifest


def test_an_old_manifest_opened_while_another_writer_holds_the_lock_is_not_set_aside(
    memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, project = memory
    with Searcher(root, project) as s:
        sync_chunks(s.s, s.manifest)
        path = Path(s.s.manifest_path)
    old = sqlite3.connect(path)  # the layout before session 18
    old.execute("DROP TABLE IF EXISTS file_stamps")
    old.commit()
    before = old.execute("SELECT count(*) FROM files").fetchone()[0]
    assert before > 0
    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: real(*a, **{**k, "timeout": 0.2}))  # not 30 s
    other = real(path, isolation_level=None)  # e.g. an index run of the previous version, mid-part
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT OR REPLACE INTO meta VALUES ('held', '1')")
    try:
        try:
            m = Manifest(path)
        except sqlite3.OperationalError:
            m = None  # an error the caller reports is fine; setting the index aside is not
        if m is not None:
            m.close()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert not path.with_suffix(".corrupt").exists()
    check = real(path)
    assert check.execute("SELECT count(*) FROM files").fetchone()[0] == before
    check.close()
