"""``mem.agent_memory``: the memory files Claude Code and Codex own and load at every
session, and memsearch's PROJECT.md / USER.md, listed and measured read-only.

A thin door over :mod:`memsearch_tui.engine.agent_memory` (where the rules of each host
live); the rows are its frozen dataclasses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memsearch_tui.engine.agent_memory import (
    AgentMemoryFile,
    AgentMemoryListing,
    SkippedFile,
    curate,
    listing,
    versions,
)
from memsearch_tui.engine.agent_memory.records import AgentMemoryDiff, AgentMemoryVersion
from memsearch_tui.engine.api.types import Proposal

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.review.proposals import ProjectProposal

__all__ = [
    "AgentMemory",
    "AgentMemoryDiff",
    "AgentMemoryFile",
    "AgentMemoryListing",
    "AgentMemoryVersion",
    "SkippedFile",
]


class AgentMemory:
    """The agent-memory files of one project, as ``mem.agent_memory``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def ls(self) -> AgentMemoryListing:
        """Every file found (host, kind, size, tokens, what the host loads and cuts, secrets
        counted, lines changed since last marked seen) and every file skipped with why;
        nothing is written."""
        return versions.with_unreviewed(listing(self.mem.project))

    def diff(self, path: str, since: str | None = None) -> AgentMemoryDiff:
        """What changed in ``path`` since it was last marked seen (or version ``since``),
        secrets masked; the current content is kept as a version first."""
        return versions.diff(self.mem.project, path, since)

    def seen(self, paths: list[str] | None) -> tuple[AgentMemoryVersion, ...]:
        """Mark ``paths`` (None: every agent-memory file) reviewed as they are now."""
        return versions.seen(self.mem.project, paths)

    def history(self, path: str) -> tuple[AgentMemoryVersion, ...]:
        """The kept versions of ``path``, oldest first."""
        return versions.history(self.mem.project, path)

    def text(self, path: str, version: str | None = None) -> str:
        """The text of ``path`` as it is now, or of its kept ``version`` (secrets in it:
        a face masks them with ``redact_text`` before showing it)."""
        return versions.text_of(self.mem.project, path, version)

    def purge(self) -> int:
        """Delete every kept version of every agent-memory file; how many contents went."""
        return versions.purge()

    # -- curating in place: each makes a proposal; `proposals accept` writes ------------------
    def prune(self, path: str, lines: str, reason: str) -> Proposal:
        """A pending proposal removing lines ``A`` or ``A-B`` (1-based) of ``path``."""
        return self._made(curate.prune(self.mem.project, path, lines, self._reason(reason)))

    def edit(self, path: str, run: Callable[[list[str]], int], reason: str = "") -> Proposal | None:
        """A pending proposal of ``path`` as edited in $EDITOR (``run`` runs it on a copy);
        None when it was saved unchanged."""
        made = curate.edit(self.mem.project, path, run, self._reason(reason))
        return None if made is None else self._made(made)

    def restore(self, path: str, version: str, reason: str = "") -> Proposal:
        """A pending proposal putting back the kept ``version`` of ``path``."""
        return self._made(curate.restore(self.mem.project, path, version, self._reason(reason)))

    def _reason(self, reason: str) -> str:
        from memsearch_tui.engine.api import limits

        limits.text("reason", reason, limits.REASON)
        if self.mem.writes == "read-only":
            from memsearch_tui.engine.core.errors import Refused

            raise Refused('writes are off ([tui.mcp] writes = "read-only"): cannot propose', code="read_only")
        return reason

    @staticmethod
    def _made(prop: ProjectProposal) -> Proposal:
        from memsearch_tui.engine.api.proposals import project_proposal

        return project_proposal(prop)
