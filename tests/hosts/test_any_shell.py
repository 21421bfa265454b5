"""Issue 20 item 3: an install works from any shell and uninstall leaves nothing behind.

The hosts start hooks and servers from their own environment: a bare ``memsearch-tui``
is only found when our venv happens to be on that PATH, and then it reads ``~/memory``,
not the store install was given. Each test here failed on the installer it replaces.
"""

from __future__ import annotations

import json
import os
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.hosts.conftest import HostEnv, run_hook, snapshot


def _claude(env: HostEnv) -> tuple[dict, dict]:
    settings = json.loads((env.project / ".claude" / "settings.json").read_text())
    server = json.loads((env.project / ".mcp.json").read_text())["mcpServers"]["memsearch-tui"]
    return settings["hooks"], server


def test_the_commands_are_absolute_and_carry_the_store_install_was_given(host_env: HostEnv) -> None:
    assert host_env.cli("--project", str(host_env.project), "install", "claude-code", "--yes")[0] == 0
    hooks, server = _claude(host_env)
    assert Path(server["command"]).is_absolute() and os.access(server["command"], os.X_OK)
    assert server["args"][-5:] == ["--memory-root", str(host_env.memory), "--project", str(host_env.project), "mcp"]
    command = hooks["Stop"][0]["hooks"][0]["command"]
    assert command.startswith(server["command"] + " ")
    assert f"--memory-root {host_env.memory} --project {host_env.project} --run-due --hook claude-code" in command


def test_options_not_given_are_not_pinned(host_env: HostEnv) -> None:
    assert host_env.plain("install", "claude-code", "--yes")[0] == 0
    hooks, server = _claude(host_env)
    assert server["args"][-1:] == ["mcp"] and "--memory-root" not in server["args"]
    assert hooks["Stop"][0]["hooks"][0]["command"].endswith(" --run-due --hook claude-code")


def test_the_store_from_the_environment_is_pinned_too(host_env: HostEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMSEARCH_TUI_MEMORY_ROOT", str(host_env.memory))
    assert host_env.plain("install", "codex", "--yes")[0] == 0
    config = tomllib.loads((host_env.project / ".codex" / "config.toml").read_text())
    assert config["mcp_servers"]["memsearch-tui"]["args"] == ["--memory-root", str(host_env.memory), "mcp"]


def test_the_written_commands_run_with_nothing_on_path(host_env: HostEnv) -> None:
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    hooks, server = _claude(host_env)
    bare = {"HOME": str(host_env.home), "PATH": "/nonexistent"}
    version = subprocess.run(
        [server["command"], *server["args"][:-1], "--version"], env=bare, capture_output=True, text=True, timeout=120
    )
    assert version.returncode == 0 and version.stdout.startswith("memsearch-tui "), version.stderr
    hook = run_hook(hooks["SessionEnd"][0]["hooks"][0]["command"], bare, host_env.project)
    assert hook.returncode == 0, hook.stderr


def test_session_end_is_synchronous_and_stop_async_for_claude_code(host_env: HostEnv) -> None:
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    hooks, server = _claude(host_env)
    assert "async" not in hooks["SessionEnd"][0]["hooks"][0]  # async gets an empty stdin; `claude -p` kills it
    assert hooks["Stop"][0]["hooks"][0]["async"] is True
    assert server["alwaysLoad"] is True  # the first request waits for this server (see README)


def test_codex_hooks_have_no_async_and_the_server_is_required(host_env: HostEnv) -> None:
    assert host_env.cli("install", "codex", "--yes")[0] == 0
    hooks = json.loads((host_env.project / ".codex" / "hooks.json").read_text())["hooks"]
    assert list(hooks) == ["Stop"] and "async" not in hooks["Stop"][0]["hooks"][0]
    config = tomllib.loads((host_env.project / ".codex" / "config.toml").read_text())
    server = config["mcp_servers"]["memsearch-tui"]
    assert server["startup_timeout_sec"] == 30 and server["required"] is True  # the first request waits for it


def test_codex_says_the_project_must_be_trusted_and_how(host_env: HostEnv) -> None:
    code, out = host_env.cli("install", "codex", "--yes")
    assert code == 0 and "ignores" in out and "until the project is trusted" in out
    assert f'[projects."{host_env.project}"]' in out and 'trust_level = "trusted"' in out and "/hooks" in out
    code, out = host_env.cli("--json", "install", "codex", "--user", "--dry-run")
    advice = json.loads(out)["data"]["advice"]
    assert code == 0 and advice and not any("trust_level" in a for a in advice)  # user config needs no trust


def test_uninstall_removes_the_empty_folders_install_created_and_only_those(host_env: HostEnv) -> None:
    (host_env.project / ".claude").mkdir()
    (host_env.project / ".claude" / "notes.txt").write_text("mine\n")
    before = snapshot(host_env.project)
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    assert host_env.cli("install", "codex", "--yes")[0] == 0
    assert (host_env.project / ".claude" / "skills" / "memsearch-tui").is_dir()
    assert host_env.cli("uninstall", "codex", "--yes")[0] == 0
    code, out = host_env.cli("uninstall", "claude-code", "--yes")
    assert code == 0 and "removed empty folder" in out
    assert snapshot(host_env.project) == before  # .codex, .agents, .claude/skills gone; .claude kept


def test_a_folder_install_created_but_you_used_since_is_kept(host_env: HostEnv) -> None:
    assert host_env.cli("install", "codex", "--yes")[0] == 0
    (host_env.project / ".codex" / "mine.toml").write_text("x = 1\n")
    assert host_env.cli("uninstall", "codex", "--yes")[0] == 0
    assert (host_env.project / ".codex" / "mine.toml").read_text() == "x = 1\n"
    assert not (host_env.project / ".agents").exists()


def test_installing_again_with_another_store_replaces_our_entries(host_env: HostEnv, tmp_path: Path) -> None:
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    other = tmp_path / "other-store"
    assert host_env.plain("--memory-root", str(other), "install", "claude-code", "--yes")[0] == 0
    hooks, server = _claude(host_env)
    assert [len(hooks[e]) for e in ("Stop", "SessionEnd")] == [1, 1]
    assert str(other) in hooks["Stop"][0]["hooks"][0]["command"] and str(other) in server["args"]
    assert host_env.plain("uninstall", "claude-code", "--yes")[0] == 0
    assert not (host_env.project / ".claude").exists() and not (host_env.project / ".mcp.json").exists()


def test_an_install_made_by_the_previous_version_is_taken_out(host_env: HostEnv) -> None:
    """Records of the json.dumps installer ({"existed", "after"}) and its bare commands."""
    from memsearch_tui.engine.hosts.records import record_path

    settings = host_env.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = '{\n  "model": "opus"\n}\n'
    settings.write_text(original)
    legacy = {"type": "command", "command": "memsearch-tui --run-due --hook claude-code", "timeout": 30, "async": True}
    written = {"model": "opus", "hooks": {e: [{"hooks": [legacy]}] for e in ("Stop", "SessionEnd")}}
    settings.with_name("settings.json.memsearch-tui.bak").write_text(original)
    settings.write_text(json.dumps(written, indent=4) + "\n")  # then edited by hand: the sha no longer matches
    record = record_path(host_env.data, settings)
    record.parent.mkdir(parents=True)
    record.write_text(json.dumps({"path": str(settings), "existed": True, "after": "0" * 64}))
    assert host_env.cli("uninstall", "claude-code", "--yes")[0] == 0
    assert json.loads(settings.read_text()) == {"model": "opus"}
    assert not settings.with_name("settings.json.memsearch-tui.bak").exists()
