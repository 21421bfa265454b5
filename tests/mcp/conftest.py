"""A temp store + project + home for MCP tests, and a way to start the real server.

The server runs as ``memsearch-tui mcp`` in a subprocess (the SDK's stdio client starts
it), with HOME pointing at a temp folder whose ``~/.memsearch/config.toml`` sets the
write mode: exactly how a user configures it.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory

REPO = Path(__file__).resolve().parents[2]
FLY = "We deploy the shop to Fly.io every Friday afternoon, after the smoke tests pass."
KEY = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
JOURNAL = """\
# 2026-11-29

## Session 09:00

### 09:05
<!-- session:s1 turn:1 transcript:/t/s1.jsonl -->
- Set up the deploy pipeline for the shop
- Pasted a key by mistake: token = ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8
"""


@dataclass
class Env:
    root: Path
    project: Path
    home: Path
    data: Path

    def write_mode(self, mode: str) -> None:
        cfg = self.home / ".memsearch" / "config.toml"
        cfg.parent.mkdir(parents=True, exist_ok=True)
        cfg.write_text(f'[tui.mcp]\nwrites = "{mode}"\n', encoding="utf-8")

    def environ(self) -> dict[str, str]:
        return {
            "HOME": str(self.home),
            "PYTHONPATH": str(REPO),
            "MEMSEARCH_TUI_DATA_DIR": str(self.data),
            "MEMSEARCH_TUI_NOW": os.environ.get("MEMSEARCH_TUI_NOW", ""),
            "PATH": os.environ.get("PATH", ""),
        }

    def argv(self, *args: str) -> list[str]:
        """The CLI as a subprocess command line (this checkout's code)."""
        return [
            sys.executable,
            "-c",
            "import sys; from memsearch_tui.cli import main; main(sys.argv[1:])",
            "--memory-root",
            str(self.root),
            "--project",
            str(self.project),
            *args,
        ]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    e = Env(tmp_path / "memory", tmp_path / "proj", tmp_path / "home", tmp_path / "data")
    monkeypatch.setenv("HOME", str(e.home))
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(e.data))
    monkeypatch.delenv("MEMSEARCH_DIR", raising=False)
    e.home.mkdir()
    mem = e.project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    (mem / "2026-11-29.md").write_text(JOURNAL, encoding="utf-8")
    (e.project / ".memsearch" / "PROJECT.md").write_text("# Project\n\nThe shop runs on Kubernetes.\n")
    with Memory(e.root, e.project) as m:
        m.store.init()
        m.entries.add("ops", "Deploy day", FLY, ["deploy"])
        m.entries.add("people", "Code review", "Alice reviews every database migration before merge.", ["review"])
    return e
