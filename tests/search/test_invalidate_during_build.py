"""A file change while the vectors are built neither waits for the build nor is lost.

The vector build (``Searcher.index``) holds the searcher's lock for the whole embedding,
minutes on a big journal. ``invalidate`` (the TUI's file watcher, on the UI thread) and
``note_changed`` (an API write) took that lock too, so the app froze until the build
ended (trial #3). They now queue the change; the next search catches up with it.

The build here is real (files listed, chunked, the manifest written) up to the embedding,
which a stand-in holds until the test lets it go: the model itself is not what is tested.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from memsearch_tui.engine.search import Searcher, searcher
from memsearch_tui.engine.store.store import Store

DAY = "# 2026-12-01\n\n## Session 10:00\n\n### 10:00 ETL\n- rewrote the ETL retry loop\n- 重写了重试循环\n"
WAIT = 10.0  # seconds: far beyond a lock-free call, far below the held build's limit


class HeldBuild:
    """``Searcher.index`` run in a thread, held in its embedding step until ``go``."""

    def __init__(self, s: Searcher, monkeypatch: pytest.MonkeyPatch) -> None:
        self.embedding, self.go = threading.Event(), threading.Event()
        self.errors: list[BaseException] = []

        def held_sync_vectors(*a: object, **kw: object) -> tuple[int, int]:
            self.embedding.set()
            assert self.go.wait(60), "the test never let the build go on"
            return 0, 0

        monkeypatch.setattr(searcher, "sync_vectors", held_sync_vectors)
        monkeypatch.setattr(Searcher, "_open_vectors", lambda self: _NoVectors())
        self.thread = threading.Thread(target=self._run, args=(s,), daemon=True)

    def _run(self, s: Searcher) -> None:
        try:
            s.index()
        except BaseException as exc:  # reported by the test
            self.errors.append(exc)

    def __enter__(self) -> HeldBuild:
        self.thread.start()
        assert self.embedding.wait(60), "the build never reached its embedding"
        return self

    def __exit__(self, *exc: object) -> None:
        self.go.set()
        self.thread.join(60)
        assert not self.thread.is_alive() and self.errors == []


class _NoVectors:
    """The vector store the held build never writes to."""

    def close(self) -> None:
        pass


def _store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    root, project = tmp_path / "memory", tmp_path / "proj"
    Store(root).init()
    (project / ".git").mkdir(parents=True)
    day = project / ".memsearch" / "memory" / "2026-12-01.md"
    day.parent.mkdir(parents=True)
    day.write_text(DAY, encoding="utf-8")
    return root, project, day


def _returns_at_once(call: object) -> bool:
    t = threading.Thread(target=call, daemon=True)  # type: ignore[arg-type]
    t.start()
    t.join(WAIT)
    return not t.is_alive()


def _found(s: Searcher, query: str) -> list[str]:
    return [h.path for h in s.search(query, strategy="index", k=5).hits]


@pytest.mark.parametrize("tell", ["invalidate", "note_changed"])
def test_a_change_during_the_build_returns_at_once_and_is_searched_after(tmp_path, monkeypatch, tell):
    root, project, day = _store(tmp_path, monkeypatch)
    with Searcher(root, project) as s:
        assert _found(s, "zebrafish") == []  # the listing is warm: a stale one would miss the line
        with HeldBuild(s, monkeypatch):
            with day.open("a", encoding="utf-8") as f:
                f.write("- appended by agent: zebrafish tank 斑马鱼缸\n")
            call = s.invalidate if tell == "invalidate" else lambda: s.note_changed([day])
            assert _returns_at_once(call), f"{tell} waited for the vector build"
        assert [Path(p).name for p in _found(s, "zebrafish")] == [day.name]
        assert [Path(p).name for p in _found(s, "斑马鱼缸")] == [day.name]


def test_a_change_during_the_build_s_file_reading_is_not_lost(tmp_path, monkeypatch):
    """The build sets its freshness check after reading the files: an invalidation queued
    while it read them must still make the next search read them again."""
    root, project, day = _store(tmp_path, monkeypatch)
    real_sync_chunks = searcher.sync_chunks
    s = Searcher(root, project)

    def sync_then_change(*a: object, **kw: object) -> object:
        rep = real_sync_chunks(*a, **kw)  # the build read the files; then an agent writes
        with day.open("a", encoding="utf-8") as f:
            f.write("- late line: walrus 海象\n")
        assert _returns_at_once(s.invalidate)
        return rep

    monkeypatch.setattr(searcher, "sync_chunks", sync_then_change)
    with s, HeldBuild(s, monkeypatch):
        pass
    monkeypatch.setattr(searcher, "sync_chunks", real_sync_chunks)
    with s:
        assert [Path(p).name for p in _found(s, "walrus")] == [day.name]
        assert [Path(p).name for p in _found(s, "海象")] == [day.name]
