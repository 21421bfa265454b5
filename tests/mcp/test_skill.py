"""memsearch_tui/skills/memsearch-tui/SKILL.md: valid frontmatter a host can load, and the three lessons."""

from __future__ import annotations

import yaml

from tests.mcp.conftest import REPO

SKILL = REPO / "memsearch_tui" / "skills" / "memsearch-tui" / "SKILL.md"


def test_skill_frontmatter_and_content():
    text = SKILL.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    meta = yaml.safe_load(head)
    assert meta["name"] == SKILL.parent.name == "memsearch-tui"
    assert 0 < len(meta["description"]) <= 1024
    assert set(meta) == {"name", "description"}  # only the cross-host fields
    for lesson in ("When to search", "without duplicating", "may wait for review"):
        assert lesson in body
