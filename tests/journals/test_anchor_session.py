"""``--session ID`` with an anchor session id selects that session's turns only, also when
two sessions' turns sit under one ``## Session`` heading (docs/journals.md: the anchor id
selects)."""

from __future__ import annotations

from pathlib import Path

SHARED = """# 2026-11-29

## Session 10:00

### 10:01
<!-- session:a turn:a1 -->
- Turn one of session a

### 10:02
<!-- session:a turn:a2 -->
- Turn two of session a

### 10:03
<!-- session:b turn:b1 -->
- Turn of session b, under the same heading
"""


def _day(proj: Path, text: str = SHARED) -> Path:
    path = proj / ".memsearch" / "memory" / "2026-11-29.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_anchor_session_id_forgets_only_its_own_turns(cli, proj):
    day = _day(proj)
    r = cli("journal", "forget", "2026-11-29", "--session", "a", "--reason", "wrong")
    assert r.code == 0, r.err
    text = day.read_text(encoding="utf-8")
    assert "session a" not in text and "Turn of session b, under the same heading" in text
    assert "## Session 10:00" in text  # the shared heading stays, with b's turn


def test_an_anchor_session_id_with_a_turn_picks_that_sessions_turn(cli, proj):
    day = _day(proj)
    assert cli("journal", "forget", "2026-11-29", "--session", "b", "--turn", "10:03", "--reason", "x").code == 0
    assert "session b" not in day.read_text(encoding="utf-8")
    assert cli("journal", "forget", "2026-11-29", "--session", "b", "--turn", "10:01", "--reason", "x").code == 1


def test_interleaved_sessions_under_one_heading_are_refused_unchanged(cli, proj):
    mixed = SHARED.replace("session:a turn:a2", "session:b turn:b0").replace("session:b turn:b1", "session:a turn:a3")
    day = _day(proj, mixed)  # a, b, a
    before = day.read_bytes()
    r = cli("journal", "forget", "2026-11-29", "--session", "a", "--reason", "wrong")
    assert r.code == 1 and "interleaved" in r.err
    assert day.read_bytes() == before


def test_the_heading_time_still_selects_the_whole_heading(cli, proj):
    day = _day(proj)
    assert cli("journal", "forget", "2026-11-29", "--session", "10:00", "--reason", "all").code == 0
    assert "Turn" not in day.read_text(encoding="utf-8")
