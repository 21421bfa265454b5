"""`install` / `uninstall` through the CLI against sample settings files of Claude Code and Codex."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path

from memsearch_tui.engine.hosts.wiring import launcher
from tests.hosts.conftest import HostEnv, files_of

CLAUDE_SETTINGS = """{
  "permissions": {
    "allow": [
      "Bash(npm test)"
    ]
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [
          {
            "type": "command",
            "command": "prettier --write \\"$FILE\\""
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send done"
          }
        ]
      }
    ]
  }
}
"""
MCP_JSON = """{
  "mcpServers": {
    "github": {
      "command": "gh-mcp",
      "args": []
    }
  }
}
"""
CODEX_TOML = """# my codex settings
model = "gpt-5"  # the default model

[mcp_servers.docs]
command = "docs-mcp"   # keep me
args = ["--port", "0"]
"""


def _fixture(env: HostEnv) -> tuple[Path, Path, Callable[..., tuple[int, str]]]:
    return env.home, env.project, env.cli


def test_claude_code_project_install_merges_and_uninstall_restores(host_env):
    home, project, cli = _fixture(host_env)
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLAUDE_SETTINGS)
    (project / ".mcp.json").write_text(MCP_JSON)
    before = files_of(project)

    code, out = cli("install", "claude-code", "--dry-run")
    assert code == 0 and "+" in out and "--run-due --hook claude-code" in out
    assert files_of(project) == before  # dry run: nothing written

    code, out = cli("install", "claude-code", "--project", "--yes")
    assert code == 0, out
    data = json.loads(settings.read_text())
    ours = data["hooks"]["Stop"][-1]["hooks"][0]
    exe = launcher()[0]
    command = f"{exe} --memory-root {host_env.memory} --run-due --hook claude-code"
    assert ours == {"type": "command", "command": command, "timeout": 30, "async": True}
    assert data["hooks"]["SessionEnd"][0]["hooks"][0] == {"type": "command", "command": command, "timeout": 30}
    # what was there stays, byte for byte (same indentation, same order)
    old_post = CLAUDE_SETTINGS[CLAUDE_SETTINGS.index('    "PostToolUse"') : CLAUDE_SETTINGS.index('    "Stop"')]
    assert old_post in settings.read_text()
    assert '"command": "notify-send done"' in settings.read_text()
    servers = json.loads((project / ".mcp.json").read_text())["mcpServers"]
    assert servers["github"] == {"command": "gh-mcp", "args": []}
    assert servers["memsearch-tui"] == {
        "type": "stdio",
        "command": exe,
        "args": ["--memory-root", str(host_env.memory), "mcp"],
        "alwaysLoad": True,
    }
    skill = project / ".claude" / "skills" / "memsearch-tui" / "SKILL.md"
    assert skill.read_text().startswith("---\nname: memsearch-tui\n")
    assert (settings.parent / "settings.json.memsearch-tui.bak").read_text() == CLAUDE_SETTINGS

    code, out = cli("install", "claude-code", "--yes")
    assert code == 0 and "already installed" in out

    code, out = cli("uninstall", "claude-code", "--yes")
    assert code == 0, out
    assert files_of(project) == before  # back byte for byte, backups and skill gone


def test_uninstall_after_a_hand_edit_removes_only_our_entries(host_env):
    home, project, cli = _fixture(host_env)
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLAUDE_SETTINGS)
    assert cli("install", "claude-code", "--user", "--yes")[0] == 0
    assert "memsearch-tui" in json.loads((home / ".claude.json").read_text())["mcpServers"]
    data = json.loads(settings.read_text())
    data["model"] = "opus"  # the user edits the file after install
    settings.write_text(json.dumps(data, indent=2) + "\n")
    assert cli("uninstall", "claude-code", "--user", "--yes")[0] == 0
    after = json.loads(settings.read_text())
    assert after["model"] == "opus"
    assert after["hooks"] == json.loads(CLAUDE_SETTINGS)["hooks"]
    assert "SessionEnd" not in after["hooks"]
    assert not (home / ".claude.json").exists()  # install created it: it goes


def test_codex_install_keeps_toml_comments_and_uninstall_restores(host_env):
    home, project, cli = _fixture(host_env)
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(CODEX_TOML)
    hooks = home / ".codex" / "hooks.json"
    hooks.write_text('{\n  "hooks": {\n    "SessionStart": [\n      {\n        "hooks": []\n      }\n    ]\n  }\n}\n')
    before = files_of(home)

    code, out = cli("install", "codex", "--user", "--yes")
    assert code == 0, out
    text = config.read_text()
    assert text.startswith(CODEX_TOML)  # comments and layout kept; ours is appended
    parsed = tomllib.loads(text)
    assert parsed["mcp_servers"]["memsearch-tui"] == {
        "command": launcher()[0],
        "args": ["--memory-root", str(host_env.memory), "mcp"],
        "startup_timeout_sec": 30,
        "required": True,
    }
    assert parsed["mcp_servers"]["docs"]["command"] == "docs-mcp"
    h = json.loads(hooks.read_text())["hooks"]
    assert h["Stop"][0]["hooks"][0]["command"].endswith(" --run-due --hook codex")
    assert "async" not in h["Stop"][0]["hooks"][0]
    assert "SessionStart" in h
    assert (home / ".agents" / "skills" / "memsearch-tui" / "SKILL.md").is_file()

    assert cli("uninstall", "codex", "--user", "--yes")[0] == 0
    assert files_of(home) == before


def test_bad_settings_are_refused_without_writing(host_env):
    home, project, cli = _fixture(host_env)
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{ not json")
    code, out = cli("--json", "install", "claude-code", "--yes")
    assert code == 1 and "not valid JSON" in json.loads(out)["error"]["message"]
    assert settings.read_text() == "{ not json"
    assert not (project / ".mcp.json").exists()


def test_without_yes_on_a_pipe_only_the_diff_is_shown(host_env):
    home, project, cli = _fixture(host_env)
    code, out = cli("install", "codex")
    assert code == 0 and "add --yes" in out and "[mcp_servers.memsearch-tui]" in out
    assert not (project / ".codex").exists()
