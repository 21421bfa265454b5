"""``mem.agent_memory``: the memory files Claude Code and Codex own and load at every
session, and memsearch's PROJECT.md / USER.md, listed and measured read-only.

A thin door over :mod:`memsearch_tui.engine.agent_memory` (where the rules of each host
live); the rows are its frozen dataclasses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memsearch_tui.engine.agent_memory import AgentMemoryFile, AgentMemoryListing, SkippedFile, listing

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory

__all__ = ["AgentMemory", "AgentMemoryFile", "AgentMemoryListing", "SkippedFile"]


class AgentMemory:
    """The agent-memory files of one project, as ``mem.agent_memory``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def ls(self) -> AgentMemoryListing:
        """Every file found (host, kind, size, tokens, what the host loads and cuts, secrets
        counted) and every file skipped with why; nothing is written."""
        return listing(self.mem.project)
