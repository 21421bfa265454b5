"""benchmarks/cost_curve.py (issue 37, the cost curve): its journals are the same bytes for the
same seed, and its small mode runs the whole path (generate, index and search through the API
on Milvus Lite, table, plot) in seconds. No timing is asserted: the numbers are the
benchmark's, in benchmarks/results/cost_curve.md."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def _journal_gen():
    sys.path.insert(0, str(BENCH))
    try:
        import journal_gen
    finally:
        sys.path.remove(str(BENCH))
    return journal_gen


def _cost_curve_and_corpus(tmp_path: Path):
    """benchmarks/cost_curve.py as a module, and a 100-turn corpus for it."""
    sys.path.insert(0, str(BENCH))
    try:
        import cost_curve
    finally:
        sys.path.remove(str(BENCH))
    corpus = tmp_path / "corpus"
    _journal_gen().generate(corpus, 100, per_day=100, seed=5)
    return cost_curve, corpus


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.md"))}


def test_the_journals_are_deterministic_english_and_chinese(tmp_path):
    gen = _journal_gen()
    assert gen.generate(tmp_path / "a", 250, per_day=100, seed=5) == 3
    gen.generate(tmp_path / "b", 250, per_day=100, seed=5)
    gen.generate(tmp_path / "c", 250, per_day=100, seed=6)
    a, b = _files(tmp_path / "a" / "project"), _files(tmp_path / "b" / "project")
    assert a == b and len(a) == 3
    assert a != _files(tmp_path / "c" / "project")
    text = b"".join(a.values()).decode()
    assert text.count("\n### ") == 250
    assert "用户" in text and "User:" in text


@pytest.mark.slow
def test_the_small_mode_runs_end_to_end(tmp_path):
    work = tmp_path / "work"
    proc = subprocess.run(
        [sys.executable, str(BENCH / "cost_curve.py"), "small", str(work)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    (row,) = [json.loads(line) for line in (work / "results.jsonl").read_text().splitlines()]
    assert row["backend"] == "lite" and "stopped" not in row
    assert row["chunks"] >= 300 and row["embedded"] == row["chunks"]
    for strategy in ("index", "vector", "hybrid"):
        assert row["search"][strategy]["ran"] == strategy and row["search"][strategy]["hits"] > 0
    assert row["disk_ours"] > 0 and row["disk_milvus_lite"] > 0
    assert "| lite | " in (work / "out" / "cost_curve.md").read_text()
    assert (work / "out" / "cost_curve.svg").read_text().startswith("<svg")
    kept = (work / "out" / "cost_curve.jsonl").read_text()  # the rows, for a later run to append to
    assert kept == (work / "results.jsonl").read_text()
    assert not (work / "corpus-300").exists()  # the generated data is deleted when done


def test_a_run_past_its_memory_cap_is_stopped_and_says_where(tmp_path):
    """The 1M rows run on a shared machine: a run whose process tree holds more than
    ``max_rss`` MB is killed, and its row says so with the RSS and its last progress line."""
    cost_curve, corpus = _cost_curve_and_corpus(tmp_path)
    row = cost_curve.run_child(corpus, tmp_path / "data", "lite", None, 1, 0, timeout=120, max_rss=1)
    assert row["stopped"].startswith("killed at the RSS cap (") and "> 1 MB" in row["stopped"], row
    assert "last: " in row["stopped"]


def test_a_resumed_run_keeps_what_a_stopped_run_left(tmp_path):
    """A stopped 1M run is resumed (``all --resume``): its data (the committed files and
    vectors, which ``index`` then re-uses) and its progress log are kept, not wiped."""
    cost_curve, corpus = _cost_curve_and_corpus(tmp_path)
    data = tmp_path / "data"
    (data / "state").mkdir(parents=True)
    (data / "state" / "kept").write_text("a stopped run's index")
    (data / "progress.log").write_text("10:00 files→manifest 500/10,000 journal days\n")
    row = cost_curve.run_child(corpus, data, "lite", None, 1, 0, timeout=120, max_rss=1, resume=True)
    assert "stopped" in row
    assert (data / "state" / "kept").read_text() == "a stopped run's index"
    assert (data / "progress.log").read_text().startswith("10:00 files→manifest 500/10,000")
    cost_curve.run_child(corpus, data, "lite", None, 1, 0, timeout=120, max_rss=1)
    assert not (data / "state" / "kept").exists()  # without resume: a fresh start


def test_a_shared_manifest_is_copied_without_its_keyword_cache_and_lock(tmp_path):
    """``all --manifest-from server``: the Lite row starts from the server row's manifest (the
    same files→manifest code), and builds its own keyword cache."""
    cost_curve, _ = _cost_curve_and_corpus(tmp_path)
    src = tmp_path / "data-server-10" / "state" / "index" / "memory-x"
    src.mkdir(parents=True)
    for name in ("manifest.sqlite3", "manifest.sqlite3-wal", "manifest.bm25.npz", "index.lock"):
        (src / name).write_text(name)
    dst = tmp_path / "data-lite-10" / "state"
    (dst / "old").mkdir(parents=True)
    cost_curve.share_manifest(tmp_path / "data-server-10" / "state", dst)
    got = sorted(str(p.relative_to(dst)) for p in dst.rglob("*") if p.is_file())
    assert got == ["index/memory-x/manifest.sqlite3", "index/memory-x/manifest.sqlite3-wal"]
    assert (dst / "index" / "memory-x" / "manifest.sqlite3").read_text() == "manifest.sqlite3"


def test_a_resumed_or_shared_run_splits_its_stages_honestly(tmp_path, monkeypatch):
    """Session 16's resumed 1M row loaded no model (no LOADING_MODEL mark): the whole run,
    keyword cache included, went into files→manifest and the vector stage came out negative
    (the row was fixed by hand). Each row's stages are now non-negative and add up to its
    index time: a resumed run with only the keyword cache to build, then a run on a manifest
    shared from another backend (its vectors forgotten before the measured index)."""
    from memsearch_tui.engine.search.manifest import Manifest

    cost_curve, corpus = _cost_curve_and_corpus(tmp_path)
    monkeypatch.setattr(Manifest, "replace_file", Manifest.replace_file)  # measure() wraps it: undone after
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "state"))
    fresh = cost_curve.measure(corpus, tmp_path / "state", "lite", 1, 0)
    assert fresh["embedded"] == fresh["chunks"] >= 100
    (index,) = (tmp_path / "state" / "index").iterdir()
    (index / "manifest.bm25.npz").unlink()  # stopped after the vectors, before the keyword cache
    resumed = cost_curve.measure(corpus, tmp_path / "state", "lite", 1, 0)
    assert resumed["embedded"] == 0 and resumed["keyword_wall"] > 0 and "forget_wall" not in resumed
    _assert_stages_add_up(fresh)
    _assert_stages_add_up(resumed)
    db = sqlite3.connect(index / "manifest.sqlite3")
    with db:
        db.execute("UPDATE meta SET value = 'http://127.0.0.1:1|cost_curve|default' WHERE key = 'vectors'")
    db.close()
    shared = cost_curve.measure(corpus, tmp_path / "state", "lite", 1, 0)
    assert shared["embedded"] == shared["chunks"] and shared["forget_wall"] > 0
    _assert_stages_add_up(shared)
    for strategy in ("index", "vector", "hybrid"):
        assert shared["search"][strategy]["hits"] > 0
    line = cost_curve.render([{**shared, "manifest_shared_with": "server"}], None).splitlines()[-1]
    assert "files→manifest: shared with the server row (its manifest copied; its vectors forgotten first: " in line


def _assert_stages_add_up(row: dict) -> None:
    parts = [row["chunks_wall"], row["vectors_wall"], row["keyword_wall"], row["hash_seconds"]]
    assert min(parts) >= 0, row
    assert sum(parts) == pytest.approx(row["index_wall"]), row
    assert row["chunks_wall"] < row["index_wall"] - row["keyword_wall"], row
    assert 0 <= row["chunks_cpu"] <= row["index_cpu"], row


def test_a_stopped_attempts_shared_copy_is_kept_and_its_leftovers_go(tmp_path):
    """At 1M the copy is 13 GB: a second attempt keeps the first one's copy of an unchanged
    file (same size and time) and drops what that attempt left (its WAL, Milvus Lite file, lock);
    a source file changed since is copied again."""
    cost_curve, _ = _cost_curve_and_corpus(tmp_path)
    src = tmp_path / "data-server-10" / "state"
    (src / "index" / "memory-x").mkdir(parents=True)
    (src / "index" / "memory-x" / "manifest.sqlite3").write_text("manifest")
    (src / "index" / "memory-x" / "owner").write_text("owner 1")
    dst = tmp_path / "data-lite-10" / "state"
    cost_curve.share_manifest(src, dst)
    kept = (dst / "index" / "memory-x" / "manifest.sqlite3").stat().st_ino
    for left in ("manifest.sqlite3-wal", "index.lock", "milvus.db/data"):
        (dst / "index" / "memory-x" / left).parent.mkdir(parents=True, exist_ok=True)
        (dst / "index" / "memory-x" / left).write_text("a stopped attempt's")
    (src / "index" / "memory-x" / "owner").write_text("owner 2, changed")
    cost_curve.share_manifest(src, dst)
    got = sorted(str(p.relative_to(dst)) for p in dst.rglob("*"))
    assert got == ["index", "index/memory-x", "index/memory-x/manifest.sqlite3", "index/memory-x/owner"]
    assert (dst / "index" / "memory-x" / "manifest.sqlite3").stat().st_ino == kept
    assert (dst / "index" / "memory-x" / "owner").read_text() == "owner 2, changed"
