"""Issue 31 item 11: README and docs as a new user reads them. The quick start says where the
command is after the first step; no paragraph is printed twice; every hook snippet a person
copies names the script by its absolute path (a host's PATH does not hold our venv)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def _sentences(text: str) -> list[str]:
    """Sentences of the prose outside code blocks and tables (a paragraph's lines joined)."""
    paras, fenced, cur = [], False, []
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or not line.strip() or line.lstrip().startswith(("|", "#")):
            paras.append(" ".join(cur))
            cur = []
            continue
        cur.append(line.strip())
    paras.append(" ".join(cur))
    return [x.strip() for p in paras for x in re.split(r"(?<=[.;])\s+", p) if len(x.strip()) > 25]


def test_no_readme_sentence_is_said_twice_in_one_section() -> None:
    for section in README.split("\n## "):
        said = _sentences(section)
        twice = sorted({x for x in said if said.count(x) > 1})
        assert twice == [], section.splitlines()[0]


def test_the_quick_start_says_where_the_command_is_and_it_is_there() -> None:
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert ".venv/bin/memsearch-tui" in quick and "source .venv/bin/activate" in quick
    install = (REPO / "scripts" / "install.sh").read_text(encoding="utf-8")
    assert re.search(r"(^|\s)\.venv\b", install), "install.sh makes .venv in the repository"
    script = Path(sys.executable).parent / "memsearch-tui"  # this checkout's own .venv in CI
    out = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "memsearch-tui" in out.stdout
    demo = (REPO / "scripts" / "demo.sh").read_text(encoding="utf-8")
    assert "--memory-root .demo/memory --project .demo/project" in demo
    assert ".venv/bin/memsearch-tui --memory-root .demo/memory --project .demo/project" in quick


def test_every_hook_snippet_names_the_script_by_its_absolute_path() -> None:
    docs = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    commands = [
        (p.name, cmd)
        for p in docs
        for cmd in re.findall(r'"command":\s*"([^"]*--run-due[^"]*)"', p.read_text(encoding="utf-8"))
    ]
    assert len(commands) >= 6
    bare = [(name, cmd) for name, cmd in commands if not cmd.startswith("/")]
    assert bare == []
