"""A person's memories laid out on disk: a store, a git project with journals, and the
hosts' own memory files under a temp HOME (as tests/agent_memory lays them out)."""

from __future__ import annotations

import hashlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.store.store import Store


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=30)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@dataclass
class World:
    home: Path
    project: Path
    root: Path

    def entry(
        self, entry_id: str, body: str, *, title: str = "", updated: str = "2026-11-20", status: str = "active"
    ) -> Path:
        """An entry file written as a person's editor would (``Store.add`` refuses secrets
        and duplicates: hygiene exists for the ones already there)."""
        title = title or entry_id.rsplit("/", 1)[-1].replace("-", " ")
        meta = (
            f"---\ntitle: {title}\nstatus: {status}\ncreated: 2026-10-01\nupdated: {updated}\n"
            "version: 1\ntags: []\nrelated: []\n---\n"
        )
        return write(self.root / f"{entry_id}.md", meta + body.rstrip("\n") + "\n")

    def claude_memory(self) -> Path:
        """Claude Code's auto-memory MEMORY.md for the project (the documented slug rule)."""
        name = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(self.project))
        return self.home / ".claude" / "projects" / name / "memory" / "MEMORY.md"

    def journal(self, day: str, text: str) -> Path:
        return write(self.project / ".memsearch" / "memory" / f"{day}.md", text)

    def tracked(self, *paths: str) -> None:
        for p in paths:
            write(self.project / p, "x\n")
        git("add", "-A", cwd=self.project)

    def scan(self, *kinds: str):
        with Memory(self.root, self.project) as mem:
            return mem.hygiene.scan(list(kinds) or None)


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "MEMSEARCH_DIR"):
        monkeypatch.delenv(var, raising=False)
    project = (tmp_path / "proj").resolve()
    project.mkdir()
    git("init", "-q", cwd=project)
    root = tmp_path / "memory"
    Store(root).init()
    return World(home, project, root)


def hashes(*folders: Path) -> dict[str, str]:
    """sha256 of every file under ``folders`` (hidden ones included), by path; the store's
    private state folder (caches any read refreshes) left out."""
    out = {}
    for folder in folders:
        for dirpath, dirs, names in os.walk(folder):
            dirs[:] = [d for d in dirs if d != ".memsearch-tui"]
            for n in names:
                p = Path(dirpath) / n
                out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out
