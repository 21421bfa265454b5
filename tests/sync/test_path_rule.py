"""The one path rule for names that arrive as text (a git tree, a rename): core/contained.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.core.contained import relpath_reason, write_reason


@pytest.mark.parametrize(
    "rel",
    [
        "/etc/passwd",
        "C:/x.md",
        "a/../b.md",
        "..",
        "a//b.md",
        "./a.md",
        ".git/config",
        "x/.GIT/c",
        "x/.git./c",
        "GIT~1/c",
        "a\\b.md",
        "esc\x1b[31m.md",
    ],
)
def test_the_path_rule_refuses_every_unsafe_spelling(rel: str) -> None:
    assert relpath_reason(rel) is not None


def test_the_path_rule_takes_ordinary_names(tmp_path: Path) -> None:
    for rel in ("notes/alpha.md", ".versions/notes/alpha/v1.md", "projects/web/用户偏好.md", "a.git/b.md"):
        assert relpath_reason(rel) is None and write_reason(tmp_path, rel) is None
