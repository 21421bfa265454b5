"""The files install writes, read by the real hosts (Claude Code, Codex) with no login.

Runs when the hosts' CLIs can be found: on PATH, or in ``$MEMSEARCH_TUI_HOST_BINS`` (for
instance the ``node_modules/.bin`` of ``npm install @anthropic-ai/claude-code @openai/codex``
in a temp folder). The hosts start our server from an environment whose PATH does not
hold our venv: ``claude mcp list`` connects to it, ``codex mcp list`` lists it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.hosts.conftest import HostEnv
from tests.maintenance.llm_server import ChatServer


def _host(name: str) -> str:
    folder = os.environ.get("MEMSEARCH_TUI_HOST_BINS")
    found = shutil.which(name, path=folder) if folder else shutil.which(name)
    if found is None:
        pytest.skip(
            f"{name} CLI not installed (npm install @anthropic-ai/claude-code @openai/codex; MEMSEARCH_TUI_HOST_BINS)"
        )
    return found


def _run(env: HostEnv, *argv: str) -> str:
    bare = {"HOME": str(env.home), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    proc = subprocess.run(argv, env=bare, cwd=env.project, capture_output=True, text=True, timeout=180)
    return proc.stdout + proc.stderr


@pytest.mark.slow
def test_claude_code_connects_to_the_server_install_wrote(host_env: HostEnv) -> None:
    claude = _host("claude")
    assert host_env.cli("install", "claude-code", "--user", "--yes")[0] == 0
    out = _run(host_env, claude, "mcp", "list")
    line = next((x for x in out.splitlines() if x.startswith("memsearch-tui:")), "")
    assert "Connected" in line and f"--memory-root {host_env.memory} mcp" in line, out


@pytest.mark.slow
def test_codex_lists_the_server_and_only_in_a_trusted_project(host_env: HostEnv) -> None:
    codex = _host("codex")
    assert host_env.cli("install", "codex", "--yes")[0] == 0
    assert "memsearch-tui" not in _run(host_env, codex, "mcp", "list")  # untrusted: Codex ignores .codex/
    config = host_env.home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(f'[projects."{Path(host_env.project)}"]\ntrust_level = "trusted"\n')
    rows = [x.split() for x in _run(host_env, codex, "mcp", "list").splitlines()]
    ours = next((r for r in rows if r and r[0] == "memsearch-tui"), [])
    assert "enabled" in ours and "--memory-root" in ours, rows


def _first_request(
    env: HostEnv, argv: list[str], extra: dict[str, str], setup: Callable[[str], None] = lambda url: None
) -> str:
    """The first model request the host sends to a loopback API (the reply does not matter)."""
    with ChatServer([{"content": "ok"}] * 12) as api:
        setup(api.base_url)
        bare = {"HOME": str(env.home), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
        bare |= {k: v.replace("{api}", api.base_url) for k, v in extra.items()}
        subprocess.run(argv, env=bare, cwd=env.project, capture_output=True, text=True, timeout=180)
        assert api.requests, "the host sent no model request"
        return json.dumps(api.requests[0])


@pytest.mark.slow
def test_claude_codes_first_request_already_has_our_tools(host_env: HostEnv) -> None:
    """Cold start: without ``alwaysLoad`` the first request of `claude -p` went out before
    the server had connected (2.1.197: none of our tools in it)."""
    claude = _host("claude")
    assert host_env.cli("install", "claude-code", "--user", "--yes")[0] == 0
    extra = {"ANTHROPIC_BASE_URL": "{api}", "ANTHROPIC_API_KEY": "sk-ant-test"}
    body = _first_request(host_env, [claude, "-p", "hi", "--max-turns", "1"], extra)
    assert "mcp__memsearch-tui__search" in body


@pytest.mark.slow
def test_codexs_first_request_already_has_our_server(host_env: HostEnv) -> None:
    """Cold start: without ``required = true`` the first request of `codex exec` went out
    before the server had started (0.171.0: no trace of it but the skill's description)."""
    codex = _host("codex")
    assert host_env.cli("install", "codex", "--user", "--yes")[0] == 0
    config = host_env.home / ".codex" / "config.toml"
    original = config.read_text()

    def point_codex_at(url: str) -> None:
        config.write_text(f'openai_base_url = "{url}"\n' + original)

    argv = [codex, "exec", "--skip-git-repo-check", "hi"]
    body = _first_request(host_env, argv, {"OPENAI_API_KEY": "sk-test"}, point_codex_at)
    assert "mcp__memsearch_tui" in body
