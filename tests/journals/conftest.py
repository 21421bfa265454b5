"""A project with memsearch journals and a store, an isolated HOME and search data dir."""

from __future__ import annotations

from pathlib import Path

import pytest

DAY = "2026-11-28"
# Two sessions, a turn time that occurs in both, an unknown anchor and a hand-written note.
JOURNAL = """# 2026-11-28

## Session 09:00

### 09:05
<!-- session:s1 turn:t1 transcript:/tmp/s1.jsonl -->
- Fixed the flaky login test by mocking the system clock
- The staging password is hunter2-staging

### 09:40
<!-- session:s1 turn:t2 transcript:/tmp/s1.jsonl -->
<!-- reviewer:alice mood:happy -->
- Migrated the orders database to Postgres 16

## Session 14:00

### 09:05
<!-- session:s2 rollout:/tmp/r2.jsonl -->
- Wrote the release notes for version 2.4
note written by hand, not a bullet
"""


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store) -> Path:
    """tmp_path is the project (the `cli` fixture's --project), tmp_path/memory the store;
    journals under .memsearch/memory."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMSEARCH_DIR", raising=False)
    (tmp_path / ".git").mkdir()
    mem = tmp_path / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    (mem / f"{DAY}.md").write_text(JOURNAL, encoding="utf-8")
    (mem / "2026-11-27.md").write_text(
        "# 2026-11-27\n\n## Session 10:00\n\n### 10:01\n<!-- session:s0 turn:t0 transcript:/tmp/s0.jsonl -->\n"
        "- Chose Fly.io for hosting\n",
        encoding="utf-8",
    )
    return tmp_path


@pytest.fixture
def day_path(proj: Path) -> Path:
    return proj / ".memsearch" / "memory" / f"{DAY}.md"
