"""Temp HOMEs laid out as Claude Code and Codex lay them out, and a git project."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory


@dataclass
class Hosts:
    home: Path
    claude: Path  # ~/.claude (or $CLAUDE_CONFIG_DIR)
    codex: Path  # ~/.codex (or $CODEX_HOME)
    project: Path
    memory_root: Path

    def slug_dir(self, root: Path | None = None) -> Path:
        """~/.claude/projects/<slug>/memory, the slug written out here by the documented
        rule (not by the code under test): every character outside [A-Za-z0-9] → '-'."""
        name = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(root or self.project))
        return self.claude / "projects" / name / "memory"

    def ls(self):
        with Memory(self.memory_root, self.project) as mem:
            return mem.agent_memory.ls()


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=30)


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def hosts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Hosts:
    """HOME in tmp_path, no CLAUDE_CONFIG_DIR / CODEX_HOME, a git project whose path has
    '_' and '.' in it (both become '-' in Claude Code's slug)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("MEMSEARCH_DIR", raising=False)
    project = tmp_path / "work" / "my_app._v2"
    project.mkdir(parents=True)
    git("init", "-q", cwd=project)
    return Hosts(home, home / ".claude", home / ".codex", project.resolve(), tmp_path / "memory")
