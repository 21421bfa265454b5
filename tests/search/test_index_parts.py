"""A big first index commits in bounded parts (one transaction for 1M chunks grew SQLite's
WAL to 9.1 GB), and a crash between two parts leaves whole files indexed: the next run
finishes the rest and ends where one uninterrupted run ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.search import indexer
from memsearch_tui.engine.search.indexer import sync_chunks
from memsearch_tui.engine.search.manifest import Manifest
from memsearch_tui.engine.search.settings import load_settings

DAYS = 12
TURNS = [
    "Moved the orders table to Postgres 16",
    "订单表死锁已修复，加了重试",
    "Pinned nginx to 1.25 after the TLS error",
]


def journals(project: Path) -> None:
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    for d in range(1, DAYS + 1):
        text = f"# 2024-06-{d:02d}\n\n## Session 09:00\n"
        for i, turn in enumerate(TURNS):
            text += f"\n### 09:{i:02d}\n<!-- session:s{d} turn:{i} transcript:/t.jsonl -->\n- {turn} (day {d})\n"
        (mem / f"2024-06-{d:02d}.md").write_text(text, encoding="utf-8")


def state(m: Manifest) -> tuple[object, ...]:
    """What an index leaves: files, chunk ids, keyword rows, the words they index."""
    q = m.db.execute
    return (
        sorted(r[0] for r in q("SELECT path FROM files")),
        sorted(r[0] for r in q("SELECT id FROM chunks")),
        q("SELECT count(*) FROM fts").fetchone()[0],
        sorted(r.id for r, _ in m.keyword("Postgres", 100)),
        sorted(r.id for r, _ in m.keyword("死锁", 100)),
    )


class Crash(Exception):
    """Stands in for the process dying (a kill lands between two statements)."""


def test_a_crash_mid_build_keeps_the_committed_parts_and_the_next_run_repairs(tmp_path, data_dir, monkeypatch):
    project = tmp_path / "proj"
    journals(project)
    s = load_settings(tmp_path / "memory", project, {})
    # ~4 rows (the file + 3 turns, each a chunk) a file: a part is ~2 files
    monkeypatch.setattr(indexer, "PART_ROWS", 8, raising=False)
    real, calls = indexer.chunk_file, []

    def dies_at_the_ninth_file(*args, **kwargs):
        calls.append(1)
        if len(calls) == 9:
            raise Crash
        return real(*args, **kwargs)

    monkeypatch.setattr(indexer, "chunk_file", dies_at_the_ninth_file)
    m = Manifest(s.manifest_path)
    with pytest.raises(Crash):
        sync_chunks(s, m)
    m.db.rollback()  # what the dead process's open transaction becomes
    m.close()

    m = Manifest(s.manifest_path)
    kept = len(state(m)[0])
    assert 6 <= kept <= 8, kept  # the parts before the crash are on disk; the 9th file is not
    assert state(m)[2] == len(state(m)[1]) == 3 * kept  # whole files: every chunk with its keyword row
    monkeypatch.setattr(indexer, "chunk_file", real)
    rep = sync_chunks(s, m)
    assert rep.changed == DAYS - kept  # the committed files are not read again
    repaired = state(m)
    m.close()

    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "fresh"))
    fresh = load_settings(tmp_path / "memory", project, {})
    one = Manifest(fresh.manifest_path)
    sync_chunks(fresh, one)
    assert (
        repaired == state(one)
        and len(repaired[1]) == 3 * DAYS
        and len(repaired[3]) >= DAYS
        and len(repaired[4]) >= DAYS
    )
    one.close()
