"""Prompt structure and budget; answer parsing."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.maintenance.answer import AnswerError, parse_answer
from memsearch_tui.engine.maintenance.prompts import MAX_PROMPT_CHARS, build_prompt, task_prompt, task_text


def journals(tmp_path: Path, n: int, size: int) -> Path:
    d = tmp_path / "memory"
    d.mkdir()
    for i in range(1, n + 1):
        (d / f"2026-01-{i:02d}.md").write_text(f"DAY{i:02d}\n" + ("x" * size) + f"\nEND{i:02d}\n", encoding="utf-8")
    return d


def make(tmp_path: Path, d: Path, out_text: str | None = None, **kw) -> str:
    out = tmp_path / "PROJECT.md"
    if out_text is not None:
        out.write_text(out_text, encoding="utf-8")
    return build_prompt(
        template=task_text("project_review"),
        platform="codex",
        task="project_review",
        project=tmp_path,
        input_dir=d,
        output_file=out,
        digest="sha256:abc",
        **kw,
    )


def test_structure_and_placeholders(tmp_path: Path):
    d = journals(tmp_path, 14, 10)
    prompt = make(tmp_path, d, "# Existing notes\n")
    assert "{{" not in prompt
    assert "Task: project_review" in prompt and str(d) in prompt and str(tmp_path / "PROJECT.md") in prompt
    assert (
        prompt.index("## Existing output file")
        < prompt.index("# Existing notes")
        < prompt.index("## Recent memory journal entries")
        < prompt.index("DAY14")
        < prompt.index("## Changed input digest")
    )
    assert prompt.rstrip().endswith("sha256:abc")
    assert "DAY03" in prompt and "DAY02" not in prompt and "DAY01" not in prompt  # 12 newest
    assert prompt.index("DAY03") < prompt.index("DAY14")  # oldest first in the text


def test_budget_keeps_newest(tmp_path: Path):
    d = journals(tmp_path, 12, 20_000)
    prompt = make(tmp_path, d)
    assert len(prompt) <= MAX_PROMPT_CHARS
    assert "END12" in prompt and "DAY12" in prompt and prompt.rstrip().endswith("sha256:abc")
    assert "DAY01" not in prompt


def test_task_texts_separate_concerns():
    project, user = (
        task_text("project_review", source="memsearch-tui"),
        task_text("user_profile", source="memsearch-tui"),
    )
    assert "Decisions" in project and "Next steps" in project and "Do NOT record the user's personal" in project
    assert "No project facts" in user


def test_override_replaces_text(tmp_path: Path):
    f = tmp_path / "mine.md"
    f.write_text("Custom for {{AGENT_NAME}}", encoding="utf-8")
    assert task_text("project_review", str(f)) == "Custom for {{AGENT_NAME}}"
    missing = str(tmp_path / "missing.md")  # memsearch falls back to its packaged prompt; so do we
    assert task_text("project_review", missing, "memsearch-tui") == task_text("project_review", source="memsearch-tui")
    text, origin = task_prompt("project_review", missing, "memsearch-tui")
    assert origin == f"memsearch-tui (the [prompts] project_review file {missing} does not exist)"


@pytest.mark.parametrize(
    "raw, action, content",
    [
        ('{"action": "none", "reason": "nothing new"}', "none", ""),
        ('{"action":"replace","reason":"r","content":"# P\\n\\n- a"}', "replace", "# P\n\n- a\n"),
        (
            'Sure! Here it is:\n```json\n{"action": "replace", "reason": "r", "content": "x"}\n```\nDone.',
            "replace",
            "x\n",
        ),
        ('I think {"action": "none", "reason": "same"} is right', "none", ""),
        ('{"note": 1} then {"action": "none", "reason": "second object"}', "none", ""),
        ('```\n{"action": "none", "reason": "fence without lang"}\n```', "none", ""),
        (
            '{"action": "replace", "reason": "r", "content": "example: {\\"action\\": \\"none\\"}"}',
            "replace",
            'example: {"action": "none"}\n',
        ),
        ('{"action": "none", "reason": "same"}\n```json\n{"action": "none", "reason": "same"}\n```', "none", ""),
    ],
)
def test_answers_found(raw, action, content):
    a = parse_answer(raw)
    assert a.action == action and a.content == content


@pytest.mark.parametrize(
    "raw, message",
    [
        ("", "empty"),
        ("I could not do it.", "no JSON answer"),
        ('{"action": "delete", "reason": "x"}', "must be"),
        ('{"action": "replace", "reason": "x"}', "non-empty string content"),
        ('{"action": "replace", "reason": "x", "content": "   "}', "non-empty"),
        ('{"action": "replace", "reason": "x", "content": 5}', "content"),
        ('{"action": "none", "reason": 5}', "reason must be a string"),
        ('{"action": "replace", "reason": "x", "content": "trunc', "no JSON answer"),
        (
            '{"action": "none", "reason": "a"} or maybe {"action": "replace", "reason": "b", "content": "x"}',
            "2 different answer objects",
        ),
    ],
)
def test_bad_answers(raw, message):
    with pytest.raises(AnswerError, match=message):
        parse_answer(raw)
