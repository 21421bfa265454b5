"""A forget outlives the trash: a conflicted copy made before it never brings the turn back.

The merge used to learn what was forgotten or redacted from the trash's journal records
alone; once the trash was purged, the forgotten turn came back from an older copy (the
redacted one was flagged as a clash, its secret offered again). Each forget or redaction
now also writes a small record (anchor ids and a hash of the text, never the text) to the
memory root's state folder, which a purge leaves alone and a restore undoes.
"""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.core.state_files import JOURNAL_FORGOTTEN, state_file
from memsearch_tui.engine.curator import journals, trash
from memsearch_tui.engine.history.undo import undo_last
from memsearch_tui.engine.review import proposals
from memsearch_tui.engine.review.day_merge import propose
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.store.trash_index import list_trash
from tests.sync.test_journal_copies import COPY, DAY, _project

COPY_NAME = "2026-11-30 (conflicted copy).md"
SECRET = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa"
# the day and an older copy, both made before the forget: a turn with a secret in it
WITH_SECRET = DAY.replace("- it was a race in the fixture", f"- it was a race in the fixture, token {SECRET}")
OLD_COPY = (
    COPY.replace("- it was a race in the fixture", f"- it was a race in the fixture, token {SECRET}")
    + "\n### 09:40\n<!-- session:s1 turn:t2 transcript:/x/a.jsonl -->\n- wrote the release notes\n- 写了发布说明\n"
)


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    day = WITH_SECRET.replace("- wrote the release notes\n", "- wrote the release notes\n- 写了发布说明\n")
    proj = _project(tmp_path, {"2026-11-30.md": day})
    Store(tmp_path / "memory").init()
    return proj, tmp_path / "memory"


def _purge_all(root: Path) -> None:
    trash.purge(Store(root), trash.purge_candidates(root, everything=True), yes=True)
    assert list_trash(root) == []


def test_a_forget_and_a_redaction_are_remembered_after_the_trash_is_purged(tmp_path: Path) -> None:
    proj, root = _setup(tmp_path)
    journals.forget(root, proj, "2026-11-30", turn="09:40", reason="wrong")
    journals.redact(root, proj, "2026-11-30", turn="09:05", pattern=SECRET, reason="leaked token")
    _purge_all(root)
    (proj / ".memsearch" / "memory" / COPY_NAME).write_text(OLD_COPY)  # synced in late, made before

    found, problems = propose(proj, root)
    assert problems == [], problems  # before: the secret came back and the merge was refused
    (made,) = found
    assert "wrote the release notes" not in made.content and "发布说明" not in made.content
    assert SECRET not in made.content and "[redacted]" in made.content
    assert "bumped the CI cache key" in made.content and "paired on the payment retry" in made.content  # not forgotten
    assert made.extra["left_out"] == ["09:05 (s1:t1)", "09:40 (s1:t2)"] and made.extra["clashes"] == []
    assert "forgotten or redacted since the copy was made, left out" in made.reason

    record = state_file(root, JOURNAL_FORGOTTEN).read_text(encoding="utf-8")
    assert SECRET not in record and "release notes" not in record and "发布说明" not in record  # no text kept
    assert "race in the fixture" not in record
    proposals.accept(proj, made.id, memory_root=root)
    day = (proj / ".memsearch" / "memory" / "2026-11-30.md").read_text(encoding="utf-8")
    assert SECRET not in day and "release notes" not in day


def test_a_session_forgotten_whole_stays_out_after_a_purge_with_turns_the_day_never_had(tmp_path: Path) -> None:
    proj, root = _setup(tmp_path)
    journals.forget(root, proj, "2026-11-30", session="09:00", reason="the whole session was wrong")
    _purge_all(root)
    laptop_turn = "\n### 09:50\n<!-- session:s1 turn:t9 transcript:/x/a.jsonl -->\n- only the laptop wrote this\n"
    (proj / ".memsearch" / "memory" / COPY_NAME).write_text(
        OLD_COPY.replace("\n## Session 14:00", laptop_turn + "\n## Session 14:00")
    )
    (made,), _ = propose(proj, root)
    assert "only the laptop wrote this" not in made.content and "fixed the login test" not in made.content
    assert "paired on the payment retry" in made.content  # another session: kept


def test_a_restored_turn_is_not_left_out_any_more_and_undo_takes_the_record_back(tmp_path: Path) -> None:
    proj, root = _setup(tmp_path)
    out = journals.forget(root, proj, "2026-11-30", turn="09:40", reason="wrong")
    journals.restore(root, out["trash_key"])  # the turn is back: the record forgets it
    journals.forget(root, proj, "2026-11-30", turn="09:05", reason="private")
    undo_last(root)  # the second forget undone: its record line goes with it
    _purge_all(root)
    changed = OLD_COPY.replace("- wrote the release notes\n", "- wrote the release notes on the laptop\n").replace(
        "it was a race in the fixture", "it was a race in the fixture setup"
    )
    (proj / ".memsearch" / "memory" / COPY_NAME).write_text(changed)
    (made,), _ = propose(proj, root)
    assert made.extra["left_out"] == []  # nothing is forgotten now
    assert sorted(made.extra["clashes"]) == ["09:05 (s1:t1)", "09:40 (s1:t2)"]  # both texts kept, said
    assert "on the laptop" in made.content and "fixture setup" in made.content
