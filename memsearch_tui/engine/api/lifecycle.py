"""``mem.lifecycle``: archive → trash → purge by the thresholds in the store's config.md.

``apply`` carries the plan out as a proposal when ``[tui] review`` is on (the default) or
at once; either way a purge ends in the one scrub (:meth:`Trash.scrub`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api.types import Proposal

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory

Record = dict[str, Any]
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class PlanOutcome:
    """What ``lifecycle apply`` did: a pending proposal, or the moves applied and skipped."""

    proposal: Proposal | None
    applied: tuple[Record, ...] = ()
    skipped: tuple[Record, ...] = ()
    not_scrubbed: tuple[str, ...] = ()


class Lifecycle:
    """The lifecycle of one store's entries, as ``mem.lifecycle``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def plan(self) -> list[Record]:
        """Every due move (archive, expire, trash, purge) with its reason; changes nothing."""
        from memsearch_tui.engine.curator import lifecycle

        self.mem.store.require()
        return lifecycle.plan(self.mem.store)

    def apply(
        self,
        moves: list[Record] | None = None,
        *,
        review: bool | None = None,
        progress: Progress | None = None,
        expected: Mapping[str, bytes | None] | None = None,
    ) -> PlanOutcome:
        """Carry out ``moves`` (default: the plan now). ``review`` (default: the project's
        ``[tui] review``): only propose them. A purge scrubs the search copies at once."""
        from memsearch_tui.engine.curator import lifecycle

        self.mem.require_writable("lifecycle apply")
        moves = self.plan() if moves is None else moves
        if not moves:
            return PlanOutcome(None)
        if self.mem.config.review() if review is None else review:
            return PlanOutcome(self.mem.proposals.propose_lifecycle(moves))
        with self.mem.acting():
            r = lifecycle.apply(self.mem.store, moves, progress=progress, expected=expected)
        left = self.mem.trash.scrub()
        return PlanOutcome(None, tuple(r["applied"]), tuple(r.get("skipped", ())), tuple(left))

    def archive(self, entry_id: str, *, expected: bytes | None = None) -> Record:
        """Move an entry to its category's archived/ folder now."""
        from memsearch_tui.engine.curator import lifecycle

        self.mem.require_writable("archive")
        self.mem.store.require()
        with self.mem.acting():
            return lifecycle.archive(self.mem.store, entry_id, expected=expected)
