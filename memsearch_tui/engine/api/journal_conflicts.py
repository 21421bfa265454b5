"""``mem.journal_conflicts``: sync tools' conflicted copies of journal days (issue 22).

Listing reads file names only; ``propose_merges`` makes one reviewable proposal per day
(accepted like every proposal: ``proposals accept ID``, the Maintenance pane).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


class _Owner(Protocol):
    project: Path

    def _writable(self, what: str) -> None: ...


@dataclass(frozen=True, slots=True)
class JournalCopy:
    """A conflicted copy beside a journal day."""

    name: str
    day: str
    tool: str
    path: str
    day_exists: bool


@dataclass(frozen=True, slots=True)
class MergeProposals:
    """The merge proposals waiting after ``propose_merges`` and the days that failed."""

    proposals: tuple[str, ...]
    problems: tuple[str, ...]


class JournalConflicts:
    def __init__(self, mem: _Owner) -> None:
        self._mem = mem

    def list(self) -> tuple[JournalCopy, ...]:
        from memsearch_tui.engine.curator.day_copies import list_copies

        return tuple(
            JournalCopy(c.path.name, c.day, c.tool, str(c.path), c.day_path.exists())
            for c in list_copies(self._mem.project)
        )

    def propose_merges(self) -> MergeProposals:
        from memsearch_tui.engine.review.day_merge import propose

        self._mem._writable("journal conflicts --merge")
        made, problems = propose(self._mem.project)
        return MergeProposals(tuple(p.id for p in made), tuple(problems))
