"""Issue 31 item 4: the ``<python> -m memsearch_tui`` fallback install writes actually runs.

When no ``memsearch-tui`` console script sits beside the interpreter, install writes the
interpreter with ``-m memsearch_tui`` into the hooks and the MCP entry. These tests build
such an interpreter (a venv made of links to ours, with no console scripts), install with
it, and run what was written: the hook, and the MCP server answering ``initialize``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hosts.conftest import HostEnv, run_hook


def test_python_dash_m_memsearch_tui_runs_the_cli() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "memsearch_tui", "--version"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and out.stdout.startswith("memsearch-tui "), out.stderr


def _venv_without_scripts(tmp_path: Path) -> Path:
    """A venv whose bin/ holds only ``python``: our site-packages, no console scripts."""
    ours = Path(sys.prefix)
    venv = tmp_path / "bare-venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text((ours / "pyvenv.cfg").read_text())
    (venv / "lib").symlink_to(ours / "lib", target_is_directory=True)
    (venv / "bin" / "python").symlink_to(Path(sys.executable).resolve())
    return venv / "bin" / "python"


def test_install_with_no_console_script_writes_commands_that_run(
    host_env: HostEnv, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python = _venv_without_scripts(tmp_path)
    monkeypatch.setattr(sys, "executable", str(python))
    assert host_env.cli("install", "claude-code", "--yes")[0] == 0
    hooks = json.loads((host_env.project / ".claude" / "settings.json").read_text())["hooks"]
    server = json.loads((host_env.project / ".mcp.json").read_text())["mcpServers"]["memsearch-tui"]
    assert server["command"] == str(python) and server["args"][:2] == ["-m", "memsearch_tui"]
    bare = {"HOME": str(host_env.home), "PATH": "/nonexistent", "MEMSEARCH_TUI_DATA_DIR": str(host_env.data)}
    hook = run_hook(hooks["SessionEnd"][0]["hooks"][0]["command"], bare, host_env.project)
    assert hook.returncode == 0, hook.stderr
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
    started = subprocess.run(
        [server["command"], *server["args"]],
        env={**bare, "PYTHONUNBUFFERED": "1"},
        input=json.dumps(hello) + "\n",
        cwd=host_env.project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    answer = json.loads(started.stdout.splitlines()[0]) if started.stdout else {}
    assert answer.get("id") == 1 and answer["result"]["serverInfo"]["name"] == "memsearch-tui", started.stderr
    assert os.access(server["command"], os.X_OK)
