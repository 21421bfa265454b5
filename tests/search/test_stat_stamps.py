"""The search index compares a file's ctime and inode too, and judges a future mtime by the
ctime (session 18).

- A future-dated file (a tar or ``cp -p``/rsync from a machine with a skewed clock, ``touch
  -d tomorrow``) was kept "racy" until its time came: every sync read it again.
- A same-size rewrite that puts the old mtime back (``cp -p``, ``touch -r``, ``rsync -t``)
  kept (size, mtime) as the index had them: the old text stayed searchable, the new was
  never found. The ctime, which no tool can set, tells.
- A manifest an older version wrote opens, gets the ctimes and inodes from a stat on its
  next sync (no file read, nothing embedded), and is compared by them from then on.

Real files in temp dirs, real SQLite; reads are counted at the indexer's one read.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.search import Searcher, indexer
from memsearch_tui.engine.search.embeddings import NumpyBertEncoder, resolve_model_path
from memsearch_tui.engine.search.indexer import sync_chunks, sync_vectors

HOUR = 3_600 * 10**9


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the indexer reads, in order."""
    seen: list[str] = []
    real = indexer.read_bounded

    def counting(path, limit):  # type: ignore[no-untyped-def]
        seen.append(str(path))
        return real(path, limit)

    monkeypatch.setattr(indexer, "read_bounded", counting)
    return seen


def _settled(path: Path) -> None:
    """Wait until ``path``'s ctime lies a clock tick behind now (``indexer``'s tick: 20 ms,
    or 2 s where the file system stamps whole seconds)."""
    ctime = path.stat().st_ctime_ns
    tick = 2 * 10**9 if ctime % 10**9 == 0 else 20 * 10**6
    while time.time_ns() - ctime <= tick:
        time.sleep(tick / 1e9 / 4 + 0.005)


def _names(s: Searcher, query: str) -> list[str]:
    s.invalidate()
    return [Path(h.path).name for h in s.search(query, strategy="index", k=10).hits]


def _aged(root: Path, project: Path) -> int:
    """Every file's mtime put an hour back (as a copy that keeps times leaves it)."""
    long_ago = time.time_ns() - HOUR
    for path in (*root.rglob("*.md"), *project.rglob("*.md")):
        os.utime(path, ns=(long_ago, long_ago))
    return long_ago


def test_a_future_dated_file_is_read_once_not_by_every_sync(memory, reads) -> None:
    root, project = memory
    _aged(root, project)
    day = project / ".memsearch" / "memory" / "2024-05-01.md"
    tomorrow = time.time_ns() + 24 * HOUR
    os.utime(day, ns=(tomorrow, tomorrow))  # touch -d tomorrow
    _settled(day)
    with Searcher(root, project) as s:
        s.refresh_chunks()
        assert reads.count(str(day)) == 1
        for _ in range(2):
            s.invalidate()
            assert s.refresh_chunks().changed == 0
        assert reads.count(str(day)) == 1  # not again: it was read at every sync
        assert s.manifest.files()[str(day)].mtime_ns == tomorrow


def test_a_future_dated_file_rewritten_with_its_times_put_back_is_seen(memory, reads) -> None:
    """The racy rule's case on a future mtime: the same size, the same (future) mtime."""
    root, project = memory
    day = project / ".memsearch" / "memory" / "2024-05-01.md"
    tomorrow = time.time_ns() + 24 * HOUR
    os.utime(day, ns=(tomorrow, tomorrow))
    _settled(day)  # the row keeps the future mtime (not RACY): the ctime alone can tell the rewrite
    with Searcher(root, project) as s:
        assert "2024-05-01.md" in _names(s, "Postgres")
        assert s.manifest.files()[str(day)].mtime_ns == tomorrow
        old = day.read_bytes()
        new = old.replace(b"Postgres", "达梦DB".encode())  # 8 bytes for 8
        assert len(new) == len(old) and new != old
        day.write_bytes(new)
        os.utime(day, ns=(tomorrow, tomorrow))
        assert "2024-05-01.md" in _names(s, "达梦")
        assert "2024-05-01.md" not in _names(s, "Postgres")


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        ("memory/projects/alpha.md", "Fly.io every Friday", "Render every Monday"),
        ("memory/people/用户偏好.md", "深色主题", "蓝绿部署"),
        ("proj/.memsearch/memory/2024-05-01.md", "Postgres 16", "CockroachDB"),
    ],
)
def test_a_cp_p_rewrite_with_the_same_size_and_mtime_is_indexed(memory, tmp_path, path, old, new) -> None:
    """Settled files (an hour old, read long after), then a copy with different bytes of the
    same length and the same mtime put over one of them (``cp -p``: shutil.copy2)."""
    root, project = memory
    long_ago = _aged(root, project)
    target = tmp_path / path
    before = target.read_bytes()
    after = before.replace(old.encode(), new.encode())
    assert len(after) == len(before) and after != before
    word_old, word_new = old.split()[0], new.split()[0]
    with Searcher(root, project) as s:
        assert target.name in _names(s, word_old)
        assert target.name not in _names(s, word_new)
        copy = tmp_path / "elsewhere" / target.name
        copy.parent.mkdir()
        copy.write_bytes(after)
        os.utime(copy, ns=(long_ago, long_ago))
        shutil.copy2(copy, target)  # bytes, mode and times: cp -p
        st = target.stat()
        assert (st.st_size, st.st_mtime_ns) == (len(before), long_ago)
        assert target.name in _names(s, word_new)
        assert target.name not in _names(s, word_old)


class Counting:
    """The real index encoder, counting the texts it is given."""

    def __init__(self, inner) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.dim, self.texts = inner, inner.dim, []

    def encode(self, texts):  # type: ignore[no-untyped-def]
        self.texts += list(texts)
        return self.inner.encode(texts)


def test_an_index_without_stamps_is_filled_in_without_reads_or_embedding(memory, tmp_path, reads) -> None:
    """A manifest as the previous version left it (no ``file_stamps``): it opens, its next
    sync records every file's ctime and inode from a stat (no read, no encoder call, no chunk
    changed), and a ``cp -p`` rewrite after that is indexed."""
    import sqlite3

    root, project = memory
    long_ago = _aged(root, project)
    enc = Counting(NumpyBertEncoder(resolve_model_path(None)))
    with Searcher(root, project) as s:
        sync_chunks(s.s, s.manifest)
        assert sync_vectors(s.s, s.manifest, s.vectors, lambda n: enc)[0] > 0
        manifest = s.s.manifest_path
    old = sqlite3.connect(manifest)  # the layout before session 18
    old.execute("DROP TABLE IF EXISTS file_stamps")
    chunks = old.execute("SELECT id, embedded FROM chunks ORDER BY id").fetchall()
    old.commit()
    old.close()
    enc.texts.clear()
    reads.clear()
    with Searcher(root, project) as s:
        assert all(getattr(r, "ctime_ns", None) is None for r in s.manifest.files().values())
        rep = sync_chunks(s.s, s.manifest)
        assert (rep.changed, rep.new_chunks, rep.removed_chunks, reads) == (0, 0, 0, [])
        assert sync_vectors(s.s, s.manifest, s.vectors, lambda n: enc)[0] == 0
        assert enc.texts == []
        rows = s.manifest.files()
        stamps = {p: (getattr(r, "ctime_ns", None), getattr(r, "ino", None)) for p, r in rows.items()}
        assert rows and stamps == {p: (os.stat(p).st_ctime_ns, os.stat(p).st_ino) for p in rows}
        assert s.manifest.db.execute("SELECT id, embedded FROM chunks ORDER BY id").fetchall() == chunks
        entry = root / "people" / "用户偏好.md"
        copy = tmp_path / "copy.md"
        copy.write_bytes(entry.read_bytes().replace("深色主题".encode(), "蓝绿部署".encode()))
        os.utime(copy, ns=(long_ago, long_ago))
        shutil.copy2(copy, entry)
        assert "用户偏好.md" in _names(s, "蓝绿部署")
        assert reads == [str(entry)]  # that file alone read
        sync_vectors(s.s, s.manifest, s.vectors, lambda n: enc)
        assert 0 < len(enc.texts) <= 2  # its changed chunk alone embedded
