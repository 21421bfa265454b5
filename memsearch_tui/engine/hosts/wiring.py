"""What install writes for each host, and where: the one place these shapes are decided.

The host starts us from its own environment, not the user's shell, so every command is
PATH-independent: the absolute path of the console script beside the running
interpreter (or ``<python> -m memsearch_tui``), plus the ``--memory-root`` / ``--project``
given to install, so the hook and the server use the store install was pointed at.

Per host (from the hosts' own docs and their 2.1.197 / 0.171.0 binaries; README "Install"):

* Claude Code: ``Stop`` is ``"async": true`` (runs in the background, the turn never
  waits); ``SessionEnd`` stays synchronous — an async hook gets no stdin there and
  ``claude -p`` kills background hooks when it exits. The server has ``alwaysLoad``:
  with tool search on, the first request waits (up to ~2 s) only for such servers.
* Codex: hooks have no ``async`` field; ``Stop`` runs after every turn. The server is
  ``required`` (the session's first request waits until it has started, and a server
  that cannot start is reported at once) with ``startup_timeout_sec`` so a cold start
  (first import, a loaded machine) is not cut at Codex's 10 s default.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HOSTS = ("claude-code", "codex")
SCOPES = ("project", "user")
NAME = "memsearch-tui"
HOOK_TIMEOUT = 30
CODEX_STARTUP_TIMEOUT = 30
SKILL_SOURCE = Path(__file__).resolve().parents[2] / "skills" / NAME / "SKILL.md"  # package data

# Kinds of host file, each edited its own way.
CLAUDE_HOOKS, CLAUDE_MCP, CODEX_HOOKS, CODEX_MCP, SKILL = (
    "claude-hooks",
    "claude-mcp",
    "codex-hooks",
    "codex-mcp",
    "skill",
)


@dataclass(frozen=True)
class Launch:
    """How a host starts memsearch-tui: an absolute program, then the options install got."""

    program: tuple[str, ...]
    options: tuple[str, ...] = ()

    def argv(self, *args: str) -> list[str]:
        return [*self.program, *self.options, *args]


def launcher() -> tuple[str, ...]:
    """The running installation, callable from any shell: the console script beside this
    interpreter when there is one, else the interpreter itself with ``-m memsearch_tui``.
    (The interpreter path is kept as is, not resolved: a venv is known by that path.)"""
    exe = Path(sys.executable).absolute()
    script = exe.parent / NAME
    if script.is_file() and os.access(script, os.X_OK):
        return (str(script),)
    return (str(exe), "-m", "memsearch_tui")


def launch_for(memory_root: Path | None, project: Path | None) -> Launch:
    options: list[str] = []
    if memory_root is not None:
        options += ["--memory-root", str(Path(memory_root).expanduser().absolute())]
    if project is not None:
        options += ["--project", str(Path(project).expanduser().absolute())]
    return Launch(launcher(), tuple(options))


def targets(host: str, scope: str, project: Path, home: Path) -> list[tuple[str, Path]]:
    """Every file install touches for ``host``/``scope``, with its kind."""
    base = Path(project) if scope == "project" else Path(home)
    if host == "claude-code":
        mcp_file = Path(project) / ".mcp.json" if scope == "project" else Path(home) / ".claude.json"
        return [
            (CLAUDE_HOOKS, base / ".claude" / "settings.json"),
            (CLAUDE_MCP, mcp_file),
            (SKILL, base / ".claude" / "skills" / NAME / "SKILL.md"),
        ]
    return [
        (CODEX_HOOKS, base / ".codex" / "hooks.json"),
        (CODEX_MCP, base / ".codex" / "config.toml"),
        (SKILL, base / ".agents" / "skills" / NAME / "SKILL.md"),
    ]


def hook_events(host: str) -> tuple[str, ...]:
    return ("Stop", "SessionEnd") if host == "claude-code" else ("Stop",)


def hook_group(host: str, event: str, launch: Launch) -> dict[str, Any]:
    """One hook group as the hosts read it: ``{"hooks": [handler]}``."""
    handler: dict[str, Any] = {
        "type": "command",
        "command": shlex.join(launch.argv("--run-due", "--hook", host)),
        "timeout": HOOK_TIMEOUT,
    }
    if host == "claude-code" and event == "Stop":
        handler["async"] = True
    return {"hooks": [handler]}


def server(host: str, launch: Launch) -> dict[str, Any]:
    """The MCP server entry (``mcpServers.memsearch-tui`` / ``[mcp_servers.memsearch-tui]``)."""
    argv = launch.argv("mcp")
    if host == "claude-code":
        return {"type": "stdio", "command": argv[0], "args": argv[1:], "alwaysLoad": True}
    return {"command": argv[0], "args": argv[1:], "startup_timeout_sec": CODEX_STARTUP_TIMEOUT, "required": True}


def legacy_hook_group(host: str, event: str) -> dict[str, Any]:
    """What versions before the absolute-path installs wrote (taken out by uninstall too)."""
    handler: dict[str, Any] = {"type": "command", "command": f"{NAME} --run-due --hook {host}", "timeout": 30}
    if host == "claude-code":
        handler["async"] = True
    return {"hooks": [handler]}


def legacy_server(host: str) -> dict[str, Any]:
    if host == "claude-code":
        return {"type": "stdio", "command": NAME, "args": ["mcp"]}
    return {"command": NAME, "args": ["mcp"]}


def advice(host: str, scope: str, project: Path) -> list[str]:
    """What the user still has to do in the host itself (each host asks before it trusts
    new wiring; checked against Claude Code 2.1.197 and Codex 0.171.0)."""
    if host == "claude-code":
        if scope == "project":
            return [
                "Claude Code asks once before it starts a server from a project's .mcp.json: "
                f"run `claude` in {project} and approve memsearch-tui (`claude mcp list` shows it as pending until then)."
            ]
        return []
    notes = ["Codex asks once before it runs a new hook: open `/hooks` in Codex and trust the memsearch-tui hook."]
    if scope == "project":
        notes.insert(
            0,
            f"Codex ignores {Path(project) / '.codex' / 'config.toml'} until the project is trusted: accept Codex's "
            f"trust prompt when you start it in {project}, or add to ~/.codex/config.toml:\n"
            f'  [projects."{Path(project).absolute()}"]\n  trust_level = "trusted"',
        )
    return notes
