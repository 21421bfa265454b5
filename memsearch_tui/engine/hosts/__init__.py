"""Wiring memsearch-tui into an agent host (Claude Code, Codex): hooks, MCP server, skill.

Small modules, one job each: ``wiring`` decides what we write and where; ``json_text``
locates and splices JSON text; ``json_edits`` / ``toml_edits`` add and take out our
entries; ``files`` reads and writes host files safely (symlinks, FIFOs, read-only files,
changes made meanwhile); ``records`` remembers what install added, and keeps the backup; ``ownership`` says
what in a file is ours; ``adding`` / ``removing`` compute each file's new bytes, ``plan``
turns them into a diff and ``apply`` writes it. Faces reach it through ``engine.api.hosts``.

Imports only ``engine.core`` (an import-linter contract): editing a host's settings needs
no store, index or model.
"""

from __future__ import annotations

from memsearch_tui.engine.hosts.apply import apply
from memsearch_tui.engine.hosts.plan import FileEdit, HostPlan, HostResult, plan_install, plan_uninstall
from memsearch_tui.engine.hosts.wiring import HOSTS, NAME, SCOPES, Launch, launch_for

__all__ = [
    "HOSTS",
    "NAME",
    "SCOPES",
    "FileEdit",
    "HostPlan",
    "HostResult",
    "Launch",
    "apply",
    "launch_for",
    "plan_install",
    "plan_uninstall",
]
