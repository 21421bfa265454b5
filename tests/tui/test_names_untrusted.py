"""A task's human name is made from a proposal file's ``platform`` and ``task``: untrusted.

The Overview's pending-proposal line and Maintenance's list drew ``task_name(author, task)``
as it came; an OSC title sequence in a dropped proposal's platform reached the terminal
(and ate the rest of the line). The name now shows such characters as escapes."""

from __future__ import annotations

from memsearch_tui.tui.names import platform_name, task_name


def test_a_task_name_shows_escapes_and_keeps_known_names() -> None:
    name = task_name("claude-code\x1b]0;pwned\x07", "project_review\x1b[2J")
    assert "\x1b" not in name and "\x07" not in name, name
    assert name.startswith("claude code\\x1b]0;pwned") and "project review\\x1b[2J" in name, name
    assert task_name("claude-code", "project_review") == "Claude Code · project review"
    assert platform_name("我的-agent") == "我的 agent"
