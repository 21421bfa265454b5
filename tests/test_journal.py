"""Journal parsing: days, sessions, turns, every known anchor, tolerance of hand edits."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memsearch_tui.engine.memsearch.journal import load_journals, parse_anchor, parse_journal

SAMPLE = """# 2026-03-02

## Session 09:15

### 09:16
<!-- session:abc turn:t1 transcript:/home/u/.claude/projects/p/abc.jsonl -->
- Decided to use Milvus Lite
- Wrote the loader;
  continued on a second line

### 09:40
<!-- session:abc rollout:/home/u/.codex/sessions/rollout-1.jsonl -->
- Codex turn

Some hand-written note
## Session 14:02 afternoon
<!-- session:s2 transcript:/tmp/t.jsonl -->
### 14:03
<!-- session:s2 turn:7 db:/home/u/.local/share/opencode/opencode.db -->
- opencode turn
<!-- future-agent thing:1 -->
### 14:10
<!-- something else entirely -->
* star bullet
"""


def test_structure_and_line_numbers(tmp_path: Path):
    day = parse_journal(SAMPLE, tmp_path / "2026-03-02.md")
    assert day.date == "2026-03-02" and day.heading_line == 1
    assert [s.time for s in day.sessions] == ["09:15", "14:02"]
    s1, s2 = day.sessions
    assert [t.time for t in s1.turns] == ["09:16", "09:40"]
    t1 = s1.turns[0]
    assert t1.line == 5 and t1.anchor.line == 6 and t1.end_line == 10
    assert t1.bullets == ["Decided to use Milvus Lite", "Wrote the loader; continued on a second line"]
    assert s1.turns[1].other == [(15, "Some hand-written note")]
    assert s2.title == "afternoon" and s2.anchors[0].agent == "session-transcript"
    assert s2.turns[0].anchor.agent == "session-db"
    assert s2.turns[0].other == [(21, "<!-- future-agent thing:1 -->")]  # second comment kept
    assert s2.turns[1].anchor.agent == "unknown" and s2.turns[1].bullets == ["star bullet"]
    assert len(day.turns) == 4


def test_known_anchors():
    cc = parse_anchor("<!-- session:abc turn:t1 transcript:/a b/c.jsonl -->", 3)
    assert cc.agent == "claude-code" and cc.fields["transcript"] == "/a b/c.jsonl" and cc.line == 3
    assert cc.session_id == "abc" and cc.source == "/a b/c.jsonl"
    cx = parse_anchor("<!-- session:019a rollout:/x/rollout.jsonl -->")
    assert cx.agent == "codex" and cx.source == "/x/rollout.jsonl"
    assert parse_anchor("<!-- session:1 transcript:/p -->").agent == "session-transcript"
    assert parse_anchor("<!-- session:1 turn:4 db:/d.db -->").agent == "session-db"
    unknown = parse_anchor("<!-- hello -->")
    assert unknown.agent == "unknown" and unknown.raw == "<!-- hello -->"
    assert parse_anchor("- not a comment") is None


def test_tolerant_of_garbage(tmp_path: Path):
    text = "### 08:00\n- turn without session\n\x00weird\n## Session 25:99x\n####\n"
    day = parse_journal(text, tmp_path / "notes.md")
    assert day.date == ""
    assert day.sessions[0].title == "(no session heading)"
    assert day.sessions[0].turns[0].bullets == ["turn without session"]
    assert day.line_count == 5


def test_load_journals_newest_first(tmp_path: Path):
    mem = tmp_path / "memory"
    (mem / "sub").mkdir(parents=True)
    (mem / "2026-01-01.md").write_text("## Session 10:00\n", encoding="utf-8")
    (mem / "2026-02-01.md").write_bytes(b"# 2026-02-01\n- bad \xff byte\n")
    (mem / "sub" / "2026-01-15.md").write_text("", encoding="utf-8")
    (mem / "README.md").write_text("x", encoding="utf-8")
    days = load_journals(mem)
    assert [d.date for d in days] == ["2026-02-01", "2026-01-15", "2026-01-01", ""]
    assert days[0].bullets == ["bad \ufffd byte"]
    assert load_journals(tmp_path / "missing") == []


LINES = st.sampled_from(
    [
        "# 2026-01-01",
        "## Session 10:00",
        "### 10:01",
        "<!-- session:a turn:b transcript:/t -->",
        "<!-- session:a rollout:/r -->",
        "<!-- odd -->",
        "- bullet",
        "  continued",
        "text",
        "",
        "## Other",
        "####",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(LINES, st.text(max_size=30)), max_size=40))
def test_never_raises_and_keeps_every_line(lines):
    text = "\n".join(lines)
    day = parse_journal(text, Path("2026-01-01.md"))
    n = len(text.splitlines())
    assert day.line_count == n
    for s in day.sessions:
        assert 1 <= s.line <= max(s.end_line, s.line) <= n
        for t in s.turns:
            assert s.line <= t.line <= t.end_line <= n
    kept = [ln for _, ln in day.other] + [
        ln for s in day.sessions for _, ln in s.other + [x for t in s.turns for x in t.other]
    ]
    for _number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.strip().startswith(("#", "<!--", "-", "*", "+")) and not line[:1].isspace():
            assert line in kept  # plain unknown lines are never dropped
