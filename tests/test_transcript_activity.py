"""Transcripts as conversations (Claude Code, Codex, plain) and journal activity per day."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from memsearch_tui.engine.memsearch import transcript as tr
from memsearch_tui.engine.memsearch.activity import activity


def _jsonl(path: Path, objs: list) -> Path:
    path.write_text("".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objs), encoding="utf-8")
    return path


def test_claude_code_turns_and_anchor(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path / "s.jsonl",
        [
            {"type": "summary", "summary": "not a message"},
            {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "why did it fail?"}},
            {
                "type": "assistant",
                "uuid": "a1",
                "message": {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "Looking."},
                        {"type": "tool_use", "name": "Bash", "input": {"command": "ls"}},
                    ],
                },
            },
            {
                "type": "user",
                "uuid": "r1",
                "message": {"role": "user", "content": [{"type": "tool_result", "content": "a.txt"}]},
            },
            "this line is not json {",
            {"type": "user", "uuid": "u2", "message": {"role": "user", "content": "thanks"}},
        ],
    )
    t = tr.load_transcript(path)
    assert [m.role for m in t.messages] == ["user", "assistant", "tool", "tool", "user"]
    assert t.messages[2].text == 'Bash({"command": "ls"})' and t.messages[3].text == "→ a.txt"
    assert t.skipped == 1
    assert t.index_of("2") == 4 and t.index_of("1") == 0  # the Nth user message
    assert t.index_of("u2") == 4 and t.index_of("nope") == 0  # or a message id


def test_codex_rollout_and_bounds(tmp_path: Path, monkeypatch) -> None:
    path = _jsonl(
        tmp_path / "rollout.jsonl",
        [
            {
                "type": "response_item",
                "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
            },
            {"type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{}"}},
            {
                "type": "response_item",
                "payload": {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": "x" * 50}],
                },
            },
        ],
    )
    monkeypatch.setattr(tr, "MAX_CHARS", 10)
    t = tr.load_transcript(path)
    assert [m.role for m in t.messages] == ["user", "tool", "assistant"]
    assert t.messages[2].text.startswith("x" * 10) and t.messages[2].text.endswith("(cut)")
    monkeypatch.setattr(tr, "MAX_MESSAGES", 2)
    assert tr.load_transcript(path).truncated


def test_activity_counts_turns_of_recent_days_only(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    mem.mkdir()
    (mem / "2026-11-30.md").write_text("# 2026-11-30\n## Session 09:00\n### 09:00 a\n- x\n### 09:05 b\n- y\n")
    (mem / "2026-11-28.md").write_text("## Session 10:00\n### 10:00 c\n")
    (mem / "2025-01-01.md").write_text("### 10:00 too old\n")
    (mem / "notes.md").write_text("### 10:00 undated\n")
    days = activity(mem, 7)  # the fixed clock: 2026-11-30
    assert len(days) == 7 and min(days) == date(2026, 11, 24)
    assert days[date(2026, 11, 30)] == 2 and days[date(2026, 11, 28)] == 1 and sum(days.values()) == 3
