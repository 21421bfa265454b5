"""The memory files the agent hosts own and load at every session, found and measured.

Claude Code and Codex keep their own memories (CLAUDE.md files and rules, Claude Code's
auto memory, Codex's ``memories/`` folder, AGENTS.md) next to memsearch's PROJECT.md and
USER.md. This package finds them where each host looks (:mod:`.places`) and measures each
one read-only and bounded (:mod:`.measure`): size, an estimated token count, what the host
loads at the start of a session and so what it cuts, and how many secrets it holds.
Nothing here writes a host's file.
"""

from __future__ import annotations

from memsearch_tui.engine.agent_memory.measure import listing
from memsearch_tui.engine.agent_memory.records import AgentMemoryFile, AgentMemoryListing, SkippedFile

__all__ = ["AgentMemoryFile", "AgentMemoryListing", "SkippedFile", "listing"]
