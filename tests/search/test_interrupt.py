"""Ctrl-C ends any command with one line and exit 130 (a shell's 128 + SIGINT), never a
traceback: a new user pressed it during a first meaning search and got 30 lines of Python."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

# The console script's two lines, with Ctrl-C's default action as a terminal gives it: a
# pytest-xdist worker ignores SIGINT, and an ignored signal stays ignored in its children.
AS_FROM_A_TERMINAL = (
    "import signal, sys\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "from memsearch_tui.cli import main\n"
    "sys.argv[0] = 'memsearch-tui'\n"
    "main()\n"
)


def _cli(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", AS_FROM_A_TERMINAL, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.mark.slow
def test_ctrl_c_while_a_batch_waits_for_its_next_line(memory: tuple[Path, Path], tmp_path: Path) -> None:
    root, project = memory
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    proc = _cli("--memory-root", str(root), "--project", str(project), "search", "--batch", "-", "-s", "grep", env=env)
    assert proc.stdin and proc.stdout
    proc.stdin.write('{"id": "1", "query": "gruvbox"}\n')
    proc.stdin.flush()
    first = proc.stdout.readline()  # the first line is answered: the batch now waits on stdin
    assert '"id": "1"' in first or '"id":"1"' in first, first
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in err
    assert err.strip().endswith("memsearch-tui: interrupted"), err


def test_ctrl_c_on_the_fast_search_path(tmp_path: Path) -> None:
    """The one-shot search path (before Typer) is interrupted inside its work."""
    code = (
        "import memsearch_tui.cli as cli, memsearch_tui.cli.search_fast as fast\n"
        "def interrupted(args, exits):\n    raise KeyboardInterrupt\n"
        "fast.main = interrupted\n"
        "cli.main(['search', 'how is the database backed up', '-s', 'vector'])\n"
    )
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 130, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and done.stderr.strip() == "memsearch-tui: interrupted"
