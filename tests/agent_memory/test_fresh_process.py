"""Agent-memory proposals reviewed from a fresh process (trial of s12, problem 1): the
check that a proposal's target is a host's memory file must be known to ``proposals
list/diff/accept`` even when nothing imported ``engine.agent_memory`` first — before, it
was registered only as an import side effect and every condense or prune proposal showed
as "[TAMPERED] unknown task" with its diff drawn against an empty file."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.agent_memory.conftest import Hosts, write

LINES = [f"- fact {i}: deploy note 部署笔记 {i}" for i in range(1, 231)]


def cli(hosts: Hosts, *args: str) -> str:
    """``memsearch-tui ARGS`` in its own interpreter: no import done by the test counts."""
    line = [sys.executable, "-m", "memsearch_tui", "--memory-root", str(hosts.memory_root)]
    line += ["--project", str(hosts.project), *args]
    env = {**os.environ, "HOME": str(hosts.home)}
    out = subprocess.run(line, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return out.stdout


def only_pending(hosts: Hosts) -> str:
    listed = cli(hosts, "proposals", "list")
    assert "TAMPERED" not in listed, listed
    props = json.loads(cli(hosts, "proposals", "list", "--json"))["data"]["proposals"]
    assert len(props) == 1 and not props[0]["tampered"], props
    pid: str = props[0]["id"]
    return pid


def test_condense_from_hygiene_is_listed_diffed_and_accepted_in_fresh_processes(hosts: Hosts) -> None:
    index = write(hosts.slug_dir() / "MEMORY.md", "\n".join(LINES) + "\n")
    cli(hosts, "hygiene", "--propose")
    pid = only_pending(hosts)
    diff = cli(hosts, "proposals", "diff", pid)
    assert "-- fact 230: deploy note 部署笔记 230" in diff  # a removed line, not all lines added
    assert "memory-overflow.md" in diff and "+- fact 230: deploy note 部署笔记 230" in diff  # the topic file
    cli(hosts, "proposals", "accept", pid)
    assert "fact 230" not in index.read_text(encoding="utf-8")
    assert "fact 230" in (index.parent / "memory-overflow.md").read_text(encoding="utf-8")


def test_prune_is_listed_diffed_and_accepted_in_fresh_processes(hosts: Hosts) -> None:
    index = write(hosts.slug_dir() / "MEMORY.md", "\n".join(LINES[:6]) + "\n")
    cli(hosts, "agent-memory", "prune", str(index), "--lines", "5-6", "--reason", "stale 过时")
    pid = only_pending(hosts)
    assert "-- fact 5: deploy note 部署笔记 5" in cli(hosts, "proposals", "diff", pid)
    cli(hosts, "proposals", "accept", pid)
    assert index.read_text(encoding="utf-8") == "\n".join(LINES[:4]) + "\n"
