"""The real Claude Code CLI names a project's folder as ``places.slug`` does (issue 33: "one
test runs the real Claude Code CLI ... to confirm the slug of a path with ``_`` and ``.``").

No login and no network: ``claude -p`` is pointed at a loopback port nothing listens on
(``ANTHROPIC_BASE_URL``) with a dummy key. Before its first request it creates
``<config>/projects/<slug>/`` for the session transcript; the test waits for that folder,
then stops the process. Runs when ``claude`` is on PATH or ``MEMSEARCH_TUI_CLAUDE`` names
the binary (``npm install @anthropic-ai/claude-code``: ``node_modules/.bin/claude``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from memsearch_tui.engine.agent_memory.places import slug

CLAUDE = os.environ.get("MEMSEARCH_TUI_CLAUDE") or shutil.which("claude")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CLAUDE, reason="Claude Code CLI not found: put `claude` on PATH or set MEMSEARCH_TUI_CLAUDE"
    ),
]


def closed_port() -> int:
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def folder_claude_makes(project: Path, config: Path) -> str:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(config.parent),
        "CLAUDE_CONFIG_DIR": str(config),
        "ANTHROPIC_API_KEY": "sk-ant-test-not-a-key",
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{closed_port()}",
        "DISABLE_TELEMETRY": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    assert CLAUDE
    proc = subprocess.Popen(
        [CLAUDE, "-p", "hello", "--max-turns", "1"],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            made = [p.name for p in (config / "projects").glob("*") if p.is_dir()]
            if made:
                return made[0]
            if proc.poll() is not None and not made:
                break
            time.sleep(0.2)
    finally:
        proc.kill()
        proc.wait(timeout=10)
    pytest.fail(f"claude made no folder under {config / 'projects'} (exit {proc.returncode})")


@pytest.mark.parametrize("name", ["my_app._v2", "长路径_" + "x" * 190])
def test_the_real_cli_names_the_project_folder_as_slug_does(tmp_path: Path, name: str) -> None:
    project = tmp_path / "work" / name
    project.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True, timeout=30)
    made = folder_claude_makes(project, tmp_path / "home" / ".claude")
    assert made == slug(project.resolve())
    assert "_" not in made and "." not in made
