"""``mem.hygiene``: a read-only pass over every memory (the store, the journals, the hosts'
memory files) listing what has rotted, and its fixes filed as proposals for review.

A thin door over :mod:`memsearch_tui.engine.hygiene`; the records are its frozen
dataclasses (``Finding``, ``HygieneReport``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from memsearch_tui.engine.hygiene.records import KINDS, Finding, HygieneLast, HygieneReport

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory

__all__ = ["KINDS", "Finding", "Hygiene", "HygieneLast", "HygieneReport"]


class Hygiene:
    """The hygiene pass of one (memory root, project), as ``mem.hygiene``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def scan(self, kinds: Collection[str] | None = None, *, llm: bool = True) -> HygieneReport:
        """Every finding of ``kinds`` (None: all), with its evidence and the fix it would
        propose; nothing is written. ``llm`` False: without the optional LLM check."""
        from memsearch_tui.engine.hygiene.run import scan

        return scan(self.mem.root, self.mem.project, kinds, llm=llm)

    def last(self) -> HygieneLast | None:
        """What the last weekly background pass found (counts per kind, when), or None when
        none ran: read from its saved summary, no scan (the Overview's line)."""
        from memsearch_tui.engine.hygiene.last import last_pass  # not the scan's imports

        return last_pass(self.mem.root)

    def propose(self, kinds: Collection[str] | None = None) -> HygieneReport:
        """The findings of :meth:`scan`, each fix that is a store change (or condenses an
        over-long Claude Code ``MEMORY.md``) filed as a pending proposal (its id in
        ``proposal``); no memory changes until one is accepted."""
        from memsearch_tui.engine.hygiene.propose import propose
        from memsearch_tui.engine.hygiene.run import scan

        if self.mem.writes == "read-only":
            from memsearch_tui.engine.core.errors import Refused

            raise Refused('writes are off ([tui.mcp] writes = "read-only"): cannot propose', code="read_only")
        return propose(self.mem.store, scan(self.mem.root, self.mem.project, kinds), self.mem.project)
