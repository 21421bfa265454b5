"""A literal search that reads the cache while another process is building it still finds
the hits (trial #5 of session 18).

The second search read the cache before the first one's commit (an empty snapshot), then its
update waited for that commit, found nothing left to change and returned False: the stale,
empty read was kept and the CLI answered ok, 0 hits, ``files: 0``. Now a commit by another
connection since the read (SQLite's ``data_version``) makes the search ask again. Two real
processes: the other one holds the cache's write lock mid-build until this one has read.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.search import grep_index
from memsearch_tui.engine.search.grep import literal_search

#: another process's first build of the cache, whose COMMIT waits for a line on stdin
HOLDER = """
import sys
from pathlib import Path
from memsearch_tui.engine.search.grep_index import GrepIndex

index = GrepIndex(sys.argv[1])
real = index.db


class Held:
    def execute(self, sql, *args):
        if sql == "COMMIT":
            print("built", flush=True)
            sys.stdin.readline()
        return real.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(real, name)


index.db = Held()
index.update(Path(sys.argv[2]))
print("committed", flush=True)
"""


@pytest.fixture
def mem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A store of 30 entries (English and Chinese), a project with 20 journal days."""
    monkeypatch.setattr(grep_index, "MARGIN_NS", 50_000_000)
    root = tmp_path / "memory"
    (root / "projects").mkdir(parents=True)
    (root / "INDEX.md").write_text("# Memory\n", "utf-8")
    for i in range(15):
        for name, body in (
            (f"deploy-{i}", "Kubernetes rollout with kubectl."),
            (f"偏好-{i}", "喜欢深色主题。蓝绿部署。"),
        ):
            (root / f"projects/{name}.md").write_text(f"---\ntitle: {name}\nstatus: active\n---\n\n{body}\n", "utf-8")
    journals = tmp_path / "proj" / ".memsearch" / "memory"
    journals.mkdir(parents=True)
    for d in range(1, 21):
        (journals / f"2026-11-{d:02d}.md").write_text(f"## Session\n### 10:00\nday {d}: stale lock file\n", "utf-8")
    time.sleep(0.1)
    return root, tmp_path / "proj"


def _cache(root: Path) -> Path:
    return root / ".memsearch-tui" / grep_index.DB_NAME


def _rows(cache: Path) -> int:
    db = sqlite3.connect(cache)
    try:
        n: int = db.execute("SELECT count(*) FROM files").fetchone()[0]
        return n
    finally:
        db.close()


def _holder(root: Path, project: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    cmd = [sys.executable, "-c", HOLDER, str(root), str(project)]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None and proc.stdout.readline() == "built\n"  # mid-build, write lock held
    return proc


@pytest.mark.parametrize(("query", "expect"), [("Kubernetes", 15), ("蓝绿部署", 15), ("stale lock file", 20)])
def test_a_search_reading_during_another_build_finds_the_hits(mem, monkeypatch, query: str, expect: int) -> None:
    root, project = mem
    proc = _holder(root, project)
    cache = _cache(root)
    inode = cache.stat().st_ino  # the other process's cache, mid-build
    real_update = grep_index.GrepIndex.update

    def update(self, *args, **kwargs):  # this search has read the cache: let the other commit
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
        return real_update(self, *args, **kwargs)

    monkeypatch.setattr(grep_index.GrepIndex, "update", update)
    try:
        run = literal_search(root, project, query, 50)
    finally:
        out, _ = proc.communicate(timeout=60)
    assert out == "committed\n" and proc.returncode == 0
    assert len(run.hits) == expect
    assert run.files == 50  # 30 entries, 20 journal days: not "files: 0"
    assert cache.stat().st_ino == inode
    monkeypatch.setattr(grep_index.GrepIndex, "update", real_update)
    assert len(literal_search(root, project, query, 50).hits) == expect
    assert cache.stat().st_ino == inode and _rows(cache) == 50  # the other's cache kept, not rebuilt


def test_a_stalled_writer_on_a_small_cache_is_not_waited_for(mem, monkeypatch) -> None:
    """A cache of a few files locked by a writer that does not finish: the search answers
    from the files after a short wait (:data:`.grep_index.FEW_FILES_BUSY_S`), not after the
    whole busy wait (30 s here); the writer still holds its lock when the answer comes."""
    root, project = mem
    assert len(literal_search(root, project, "Kubernetes", 50).hits) == 15  # the cache built
    cache = _cache(root)
    inode = cache.stat().st_ino
    monkeypatch.setattr(grep_index, "BUSY_S", 30.0)
    (root / "projects/deploy-0.md").write_text("---\ntitle: deploy-0\nstatus: active\n---\n\n回滚 zebractl\n", "utf-8")
    other = sqlite3.connect(cache, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT OR REPLACE INTO meta VALUES ('held', '1')")
    done = threading.Event()
    held_at_answer: list[bool] = []

    def release() -> None:
        done.wait(20)
        held_at_answer.append(done.is_set())
        other.execute("ROLLBACK")

    t = threading.Thread(target=release)
    t.start()
    try:
        found = [h.id for h in literal_search(root, project, "zebractl", 50).hits]
        zh = [h.id for h in literal_search(root, project, "回滚", 50).hits]
        done.set()
    finally:
        done.set()
        t.join()
        other.close()
    assert held_at_answer == [True]  # answered while the other writer still held the lock
    assert found == zh == ["projects/deploy-0"]  # the files' answer: the new text
    assert cache.stat().st_ino == inode
