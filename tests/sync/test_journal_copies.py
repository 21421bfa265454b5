"""Conflicted copies of journal days: detected per tool, never indexed, merged by review."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.curator import trash
from memsearch_tui.engine.curator.day_copies import list_copies, merged_day
from memsearch_tui.engine.history.undo import undo_last
from memsearch_tui.engine.memsearch.journal import journal_files, parse_journal
from memsearch_tui.engine.memsearch.sync_copies import copy_of
from memsearch_tui.engine.review import proposals
from memsearch_tui.engine.review.day_merge import propose
from memsearch_tui.engine.search.sources import project_files
from memsearch_tui.engine.store.store import Store

DAY = """# 2026-11-30

## Session 09:00

### 09:05
<!-- session:s1 turn:t1 transcript:/x/a.jsonl -->
- fixed the login test
- it was a race in the fixture

### 09:40
<!-- session:s1 turn:t2 transcript:/x/a.jsonl -->
- wrote the release notes
"""

COPY = """# 2026-11-30

## Session 09:00

### 09:05
<!-- session:s1 turn:t1 transcript:/x/a.jsonl -->
- fixed the login test
- it was a race in the fixture

### 09:20
<!-- session:s1 turn:t3 transcript:/x/a.jsonl -->
- bumped the CI cache key

## Session 14:00

### 14:10
<!-- session:s2 turn:t1 transcript:/x/b.jsonl -->
- paired on the payment retry
"""

COPIES = {
    "2026-11-30 (conflicted copy).md": "dropbox/nextcloud",
    "2026-11-30 (Ana's conflicted copy 2026-11-30).md": "dropbox/nextcloud",
    "2026-11-30 (conflicted copy 2026-11-30 101112).md": "dropbox/nextcloud",
    "2026-11-30.sync-conflict-20261130-101112-ABCDEFG.md": "syncthing",
    "2026-11-30_conflict-20261130-101112.md": "owncloud",
    "2026-11-30-DESKTOP-AB12CD.md": "onedrive",
    "2026-11-30 2.md": "icloud",
    "2026-11-30 (1).md": "google-drive",
}


@pytest.mark.parametrize(("name", "tool"), sorted(COPIES.items()))
def test_each_sync_tools_copy_name_is_recognised(name: str, tool: str) -> None:
    found = copy_of(name, {"2026-11-30.md"})
    assert found is not None and found.day == "2026-11-30" and found.tool == tool


@pytest.mark.parametrize("name", ["2026-11-30.md", "2026-11-30-standup.md", "2026-11-30 2.md", "notes.md"])
def test_ordinary_names_are_not_copies(name: str) -> None:
    # "-standup" and " 2" are copies only beside their day; here the day is absent
    assert copy_of(name, set()) is None


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    mem = tmp_path / "proj" / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    for name, text in files.items():
        (mem / name).write_text(text)
    return tmp_path / "proj"


def test_a_copy_is_never_listed_or_indexed_as_a_day(tmp_path: Path) -> None:
    proj = _project(tmp_path, {"2026-11-30.md": DAY, "2026-11-30 (conflicted copy).md": COPY})
    assert [p.name for p in journal_files(proj / ".memsearch" / "memory")] == ["2026-11-30.md"]
    indexed = [Path(f.path).name for f in project_files(proj) if f.kind == "journal"]
    assert indexed == ["2026-11-30.md"]
    assert [c.path.name for c in list_copies(proj)] == ["2026-11-30 (conflicted copy).md"]


def test_the_merged_day_has_every_distinct_turn_once_in_time_order_with_sessions_kept() -> None:
    text = merged_day(DAY, [COPY], "2026-11-30")
    day = parse_journal(text, Path("2026-11-30.md"))
    assert [s.time for s in day.sessions] == ["09:00", "14:00"]
    assert [t.time for t in day.sessions[0].turns] == ["09:05", "09:20", "09:40"]
    assert text.count("fixed the login test") == 1
    assert "paired on the payment retry" in text and "bumped the CI cache key" in text
    assert text.startswith("# 2026-11-30\n")


def test_a_turn_without_anchor_is_matched_by_its_text() -> None:
    plain_day = "## Session 10:00\n\n### 10:01\n- looked at flaky tests\n"
    plain_copy = "## Session 10:00\n\n### 10:01\n- looked at flaky tests\n\n### 10:30\n- lunch\n"
    text = merged_day(plain_day, [plain_copy], "2026-11-30")
    assert text.count("looked at flaky tests") == 1 and "lunch" in text


def test_accepting_the_merge_writes_the_day_trashes_the_copy_and_undo_restores_both(tmp_path: Path) -> None:
    copy_name = "2026-11-30.sync-conflict-20261130-101112-ABCDEFG.md"
    proj = _project(tmp_path, {"2026-11-30.md": DAY, copy_name: COPY})
    root = tmp_path / "memory"
    Store(root).init()
    mem = proj / ".memsearch" / "memory"
    before = {p.name: p.read_bytes() for p in mem.iterdir()}
    made, problems = propose(proj)
    assert problems == [] and len(made) == 1
    again, _ = propose(proj)
    assert [p.id for p in again] == [made[0].id]  # no duplicate proposal for the same copies
    assert "bumped the CI cache key" in "\n".join(proposals.diff(proj, made[0].id))
    proposals.accept(proj, made[0].id, memory_root=root)
    assert sorted(p.name for p in mem.iterdir()) == ["2026-11-30.md"]
    assert "paired on the payment retry" in (mem / "2026-11-30.md").read_text()
    trashed = [p for p in (root / ".trash").rglob("*.md") if p.name != "INDEX.md"]
    assert len(trashed) == 1 and "journal_copy_file" in trashed[0].read_text()
    undo_last(root)
    assert {p.name: p.read_bytes() for p in mem.iterdir()} == before
    assert proposals.get(proj, made[0].id).status == "pending"


def test_a_trashed_copy_is_restored_under_its_own_name(tmp_path: Path) -> None:
    copy_name = "2026-11-30 (conflicted copy).md"
    proj = _project(tmp_path, {"2026-11-30.md": DAY, copy_name: COPY})
    store = Store(tmp_path / "memory")
    store.init()
    made, _ = propose(proj)
    proposals.accept(proj, made[0].id, memory_root=store.root)
    items = trash.list_trash(store.root)
    assert len(items) == 1
    trash.restore(store, items[0].key)
    assert (proj / ".memsearch" / "memory" / copy_name).read_text() == COPY


def test_a_copy_changed_since_the_proposal_is_refused_and_nothing_written(tmp_path: Path) -> None:
    copy_name = "2026-11-30 (conflicted copy).md"
    proj = _project(tmp_path, {"2026-11-30.md": DAY, copy_name: COPY})
    root = tmp_path / "memory"
    Store(root).init()
    made, _ = propose(proj)
    (proj / ".memsearch" / "memory" / copy_name).write_text(COPY + "\n### 15:00\n- more\n")
    with pytest.raises(Exception, match="changed or gone"):
        proposals.accept(proj, made[0].id, memory_root=root)
    assert (proj / ".memsearch" / "memory" / "2026-11-30.md").read_text() == DAY


def test_a_tampered_merge_proposal_naming_another_file_is_refused(tmp_path: Path) -> None:
    proj = _project(tmp_path, {"2026-11-30.md": DAY, "2026-11-30 (conflicted copy).md": COPY})
    made, _ = propose(proj)
    prop = made[0]
    prop.extra = {"copies": {"../../../.ssh/id_rsa": "sha256:x"}}
    proposals._save(proj, prop)
    assert "not a conflicted copy" in proposals.tamper_reason(proj, proposals.get(proj, prop.id))


def test_cli_journal_conflicts_lists_and_proposes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    mem = tmp_path / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    (mem / "2026-11-30.md").write_text(DAY)
    (mem / "2026-11-30 (conflicted copy).md").write_text(COPY)
    cli("init")
    out = cli("journal", "conflicts")
    assert out.code == 0 and "2026-11-30 (conflicted copy).md" in out.out
    merged = cli("--json", "journal", "conflicts", "--merge")
    assert merged.code == 0 and len(merged.json["data"]["merge"]["proposals"]) == 1
    doctor = cli("--json", "doctor")
    assert "conflicted cop" in doctor.out
