"""Shared helpers: a git project with journals, an isolated HOME, scripted providers."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from memsearch_tui.engine.memsearch.config import load_config

JOURNAL = """# 2026-11-28

## Session 09:00

### 09:05
<!-- session:s1 turn:t1 transcript:/tmp/s1.jsonl -->
- Decided to store vectors in Milvus Lite
- User prefers short answers
"""


@pytest.fixture()
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A project (git root) with one journal, an empty HOME and MEMSEARCH_DIR unset."""
    home = tmp_path / "home"
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / ".memsearch" / "memory").mkdir(parents=True)
    (project / ".memsearch" / "memory" / "2026-11-28.md").write_text(JOURNAL, encoding="utf-8")
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):  # the search index lives there
        monkeypatch.setenv(var, str(home / var.lower()))
    monkeypatch.delenv("MEMSEARCH_DIR", raising=False)
    monkeypatch.delenv("MEMSEARCH_TUI_IN_MAINTENANCE", raising=False)
    monkeypatch.setenv("MEMSEARCH_TUI_MEMORY_ROOT", str(tmp_path / "store"))
    monkeypatch.setenv("MEMSEARCH_TUI_STATE_DIR", str(tmp_path / "state"))  # the spend ledger
    return Env(tmp_path, home, project)


class Env:
    def __init__(self, tmp: Path, home: Path, project: Path) -> None:
        self.tmp, self.home, self.project = tmp, home, project
        self.mem = project / ".memsearch"
        self.store = tmp / "store"
        self.ledger = tmp / "state" / "spend.jsonl"

    def config_file(self, text: str) -> Path:
        path = self.home / ".memsearch" / "config.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def script(self, name: str, body: str) -> Path:
        """An executable shell script in tmp (a scripted provider)."""
        path = self.tmp / "bin" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
        return path

    def command_provider(
        self,
        script: Path,
        *,
        review: bool = True,
        tasks=("project_review",),
        timeout: float = 20,
        platform: str = "claude-code",
    ) -> None:
        blocks = "".join(f'[plugins.{platform}.{t}]\nenabled = true\nprovider = "scripted"\n\n' for t in tasks)
        self.config_file(
            f'# my settings\n{blocks}[llm.providers.scripted]\ntype = "command"\n'
            f'command = ["{script}"]\ntimeout_s = {timeout}\n\n[tui]\nreview = {str(review).lower()}\n'
        )

    def config(self):
        return load_config(self.project, home=self.home)


def answer_script(env: Env, json_text: str, name: str = "answer") -> Path:
    """A provider that swallows the prompt and prints ``json_text``."""
    quoted = json_text.replace("'", "'\"'\"'")
    return env.script(name, f"cat > /dev/null\nprintf '%s' '{quoted}'\n")
