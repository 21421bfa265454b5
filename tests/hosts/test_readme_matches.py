"""README's hook snippets are what install writes (issue 20: the README said SessionEnd
must stay synchronous while install wrote it async)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from memsearch_tui.engine.hosts.wiring import Launch, hook_events, hook_group, server

README = Path(__file__).resolve().parents[2] / "README.md"
PLACEHOLDER = "/path/to/venv/bin/memsearch-tui"


def _hooks_section_snippets() -> list[dict]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### Hooks: `memsearch-tui --run-due`") : text.index("#### Moving over")]
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S)]


def test_the_readme_hook_snippets_are_what_install_writes() -> None:
    launch = Launch((PLACEHOLDER,))
    claude, codex = _hooks_section_snippets()
    for host, snippet in (("claude-code", claude), ("codex", codex)):
        assert snippet == {"hooks": {e: [hook_group(host, e, launch)] for e in hook_events(host)}}, host


def test_the_readme_server_entry_is_what_install_writes() -> None:
    text = README.read_text(encoding="utf-8")
    entry = server("claude-code", Launch((PLACEHOLDER,)))
    assert f'"type": "stdio", "command": "{PLACEHOLDER}"' in text and '"alwaysLoad": true' in text
    assert entry == {"type": "stdio", "command": PLACEHOLDER, "args": ["mcp"], "alwaysLoad": True}
    timeout = server("codex", Launch((PLACEHOLDER,)))["startup_timeout_sec"]
    assert re.search(rf"`startup_timeout_sec =\s+{timeout}`", text)
