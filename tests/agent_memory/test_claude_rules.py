"""Claude Code's rules beyond the fixed files, as its 2.1.197 package has them: nested
CLAUDE.md (loaded on demand), ``@path`` imports (followed within the project or home, at
most 5 deep, each file once), ``autoMemoryEnabled`` (issue 33, item 1 leftovers)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.agent_memory.conftest import Hosts, write
from tests.helpers import run_cli


def kinds(listing, kind: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {Path(f.path).name: f.loads for f in listing.files if f.kind == kind}


def test_nested_claude_md_is_listed_as_loaded_on_demand(hosts: Hosts) -> None:
    write(hosts.project / "CLAUDE.md", "# top\n")
    nested = write(hosts.project / "services" / "api" / "CLAUDE.md", "- API 用 FastAPI\n")
    write(hosts.project / "node_modules" / "pkg" / "CLAUDE.md", "- not ours\n")
    write(hosts.project / ".venv" / "CLAUDE.md", "- not ours\n")
    found = hosts.ls()
    rows = [(f.path, f.loads, f.loaded_lines) for f in found.files if f.kind == "nested-instructions"]
    assert rows == [(str(nested), "on-demand", 0)]


def test_imports_are_followed_five_deep_each_once_never_out_of_the_project(hosts: Hosts, tmp_path: Path) -> None:
    p = hosts.project
    write(p / "CLAUDE.md", "See @docs/d1.md and @./docs/loop.md\nMail me@example.com\n```\n@docs/in_code.md\n```\n")
    for i in range(1, 6):  # d1 imports d2 ... d5 imports d6: d5 is at depth 5
        write(p / "docs" / f"d{i}.md", f"- level {i}\n@d{i + 1}.md\n")
    write(p / "docs" / "d6.md", "- level 6\n")
    write(p / "docs" / "in_code.md", "- only named in a code block\n")
    write(p / "docs" / "loop.md", "@../CLAUDE.md @loop.md\n- 循环\n")  # a cycle: listed once, ends
    outside = write(tmp_path / "outside.md", "- outside the project\n")
    write(p / "docs" / "d2.md", f"- level 2\n@d3.md\n@{outside}\n")
    found = hosts.ls()
    imported = kinds(found, "import")
    assert imported == {n: "full" for n in ("d1.md", "d2.md", "d3.md", "d4.md", "loop.md")}
    skipped = {Path(s.path).name: s.reason for s in found.skipped if s.kind == "import"}
    assert "Claude Code stops at 5" in skipped["d5.md"]
    assert "not followed" in skipped["outside.md"]
    assert "d6.md" not in skipped and "in_code.md" not in skipped  # never reached / not an import
    assert outside.read_text() == "- outside the project\n"


def test_an_import_through_a_link_out_of_the_project_is_not_followed(hosts: Hosts, tmp_path: Path) -> None:
    secret = write(tmp_path / "private" / "notes.md", "- private\n")
    os.symlink(secret, hosts.project / "notes.md")
    write(hosts.project / "CLAUDE.md", "@notes.md\n")
    found = hosts.ls()
    assert kinds(found, "import") == {}
    assert any(s.kind == "import" and "not followed" in s.reason for s in found.skipped)


def test_a_user_claude_md_may_import_from_home(hosts: Hosts) -> None:
    write(hosts.claude / "CLAUDE.md", "@~/dotfiles/agent-prefs.md\n")
    write(hosts.home / "dotfiles" / "agent-prefs.md", "- 回答用中文\n")
    assert kinds(hosts.ls(), "import") == {"agent-prefs.md": "full"}


def test_auto_memory_switched_off_is_said_and_nothing_counts_as_loaded(
    hosts: Hosts, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(hosts.slug_dir() / "MEMORY.md", "- uses pnpm\n")
    settings = write(hosts.claude / "settings.json", json.dumps({"autoMemoryEnabled": False}))
    found = hosts.ls()
    assert kinds(found, "auto-memory-index") == {"MEMORY.md": "off"}
    assert found.auto_memory_off == f"autoMemoryEnabled is false in {settings}"
    listed = run_cli("--memory-root", str(hosts.memory_root), "--project", str(hosts.project), "agent-memory", "ls")
    assert listed.code == 0
    out = listed.out
    assert "loaded: no (auto memory is off)" in out and "auto memory is not loaded" in out
    write(hosts.project / ".claude" / "settings.local.json", json.dumps({"autoMemoryEnabled": True}))
    assert kinds(hosts.ls(), "auto-memory-index") == {"MEMORY.md": "full"}  # local settings win over user settings
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1")
    assert hosts.ls().auto_memory_off == "CLAUDE_CODE_DISABLE_AUTO_MEMORY is set"
