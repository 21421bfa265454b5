"""A literal search that finds its cache locked by another writer still answers, and the
cache is kept.

"database is locked" (SQLite's busy timeout: a search typed in the app and an Enter search
both updating the cache, or two processes) was taken for a damaged cache: the cache was
deleted under the other writer and rebuilt (~36 CPU s at 1M chunks). Now the locked call
answers by scanning the files (exact, as the cache would be once updated) and leaves the
cache file, its rows and the other writer alone. Real SQLite connections hold the locks.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.search import grep_index
from memsearch_tui.engine.search.grep import grep, literal_search
from memsearch_tui.engine.search.sources import searched_files


@pytest.fixture
def mem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A store with an English and a Chinese entry, a project with one journal day; the
    busy wait cut to 0.2 s (the lock is held for the whole call either way)."""
    monkeypatch.setattr(grep_index, "MARGIN_NS", 50_000_000)
    monkeypatch.setattr(grep_index, "BUSY_S", 0.2, raising=False)
    root = tmp_path / "memory"
    (root / "projects").mkdir(parents=True)
    (root / "INDEX.md").write_text("# Memory\n", "utf-8")
    for name, body in (("alpha", "alpha deploys with kubectl.\n"), ("用户偏好", "喜欢深色主题。回滚时先通知。\n")):
        (root / f"projects/{name}.md").write_text(f"---\ntitle: {name}\nstatus: active\n---\n\n{body}", "utf-8")
    journals = tmp_path / "proj" / ".memsearch" / "memory"
    journals.mkdir(parents=True)
    (journals / "2026-11-29.md").write_text("## Session\n### 10:00\nkubectl rollback, 回滚\n", "utf-8")
    time.sleep(0.1)
    return root, tmp_path / "proj"


def _found(root: Path, project: Path, query: str) -> list[str]:
    return sorted(h.id for h in literal_search(root, project, query, 10).hits)


def _scanned(root: Path, project: Path, query: str) -> list[str]:
    return sorted(h.id for h in grep(searched_files(root, project, None, "all"), query, 10))


def _cache(root: Path) -> Path:
    return root / ".memsearch-tui" / grep_index.DB_NAME


def test_a_locked_update_answers_from_the_files_and_keeps_the_cache(mem) -> None:
    root, project = mem
    assert _found(root, project, "kubectl") == _scanned(root, project, "kubectl") != []
    cache = _cache(root)
    inode, rows = cache.stat().st_ino, _rows(cache)
    other = sqlite3.connect(cache, isolation_level=None)  # another search, mid-update
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT OR REPLACE INTO meta VALUES ('held', '1')")
    try:
        (root / "projects/alpha.md").write_text(
            "---\ntitle: alpha\nstatus: active\n---\n\nalpha now ships with 蓝绿部署 and zebractl.\n", "utf-8"
        )
        for query in ("zebractl", "蓝绿部署", "kubectl"):  # the new text found, the old gone: the files' answer
            assert _found(root, project, query) == _scanned(root, project, query)
        assert _found(root, project, "zebractl") == ["projects/alpha"]
        assert cache.stat().st_ino == inode  # not thrown away under the other writer
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert _rows(cache) == rows  # nothing rebuilt: the rows the cache held
    assert _found(root, project, "蓝绿部署") == ["projects/alpha"]  # the lock gone: the cache updates
    assert cache.stat().st_ino == inode


def test_a_cache_locked_as_it_opens_is_not_unlinked(mem) -> None:
    """A writer holding a rollback-journal lock on the cache as it is opened (its journal
    mode cannot change): the search scans the files, the other writer's file stays."""
    root, project = mem
    cache = _cache(root)
    cache.parent.mkdir(parents=True, exist_ok=True)
    other = sqlite3.connect(cache, isolation_level=None)
    other.execute("CREATE TABLE mine(x)")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("INSERT INTO mine VALUES (1)")
    try:
        assert _found(root, project, "回滚") == _scanned(root, project, "回滚") != []
        assert cache.exists()
        assert other.execute("SELECT count(*) FROM mine").fetchone() == (1,)
    finally:
        other.execute("COMMIT")
        other.close()
    assert sqlite3.connect(cache).execute("SELECT x FROM mine").fetchall() == [(1,)]  # its data intact


def test_a_damaged_cache_is_still_thrown_away(mem) -> None:
    """Only a lock is spared: a file that is no database is replaced, as before."""
    root, project = mem
    cache = _cache(root)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(b"not a database" * 100)
    assert _found(root, project, "kubectl") == _scanned(root, project, "kubectl")
    assert _rows(cache) > 0


def _rows(cache: Path) -> int:
    db = sqlite3.connect(cache)
    try:
        n: int = db.execute("SELECT count(*) FROM files").fetchone()[0]
        return n
    finally:
        db.close()
