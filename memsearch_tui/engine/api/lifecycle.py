"""``mem.lifecycle``: archive → trash → purge by the thresholds in the store's config.md.

``apply`` carries the plan out as a proposal when ``[tui] review`` is on (the default) or
at once; either way a purge ends in the one scrub (:meth:`Trash.scrub`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, field
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api.serialise import wire
from memsearch_tui.engine.api.types import Move, Progress, Proposal
from memsearch_tui.engine.core.record import record

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory


@record
class LifecycleForecast:
    """What falls due within ``days`` of ``today`` (ISO date), per action (archive, expire,
    trash, purge): ``counts[action]`` = (due now, due within the horizon); ``first[action]``
    = (entry id or trash key, ISO date) of the first to go, for the actions with one."""

    today: str
    days: int
    counts: dict[str, tuple[int, int]]
    first: dict[str, tuple[str, str]]


@record
class MoveOutcome:
    """A plan's move carried out (``to``: an archived entry's new id) or left (``skipped``: why)."""

    action: str
    id: str
    reason: str
    since: str
    to: str = field(default="", metadata=wire(omit_default=True))
    skipped: str = field(default="", metadata=wire(omit_default=True))


@record
class PlanOutcome:
    """What ``lifecycle apply`` did: a pending proposal, or the moves applied and skipped."""

    proposal: Proposal | None
    applied: tuple[MoveOutcome, ...] = ()
    skipped: tuple[MoveOutcome, ...] = ()
    not_scrubbed: tuple[str, ...] = ()


@record
class Archived:
    """``archive ID``: entry ``archived`` now lives at ``to`` (its category's archived/)."""

    archived: str
    to: str


class Lifecycle:
    """The lifecycle of one store's entries, as ``mem.lifecycle``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def plan(self) -> list[Move]:
        """Every due move (archive, expire, trash, purge) with its reason; changes nothing."""
        from memsearch_tui.engine.curator import lifecycle

        self.mem.store.require()
        return [Move(**m) for m in lifecycle.plan(self.mem.store)]

    def seen(self, moves: Sequence[Move]) -> dict[str, bytes | None]:
        """The bytes of each move's file now: what ``apply(expected=)`` takes back, so a
        file changed after the plan was shown refuses the plan instead of moving unseen."""
        from memsearch_tui.engine.curator import lifecycle

        return lifecycle.seen(self.mem.store, records(moves))

    def apply(
        self,
        moves: Sequence[Move] | None = None,
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
            r = lifecycle.apply(self.mem.store, records(moves), progress=progress, expected=expected)
        left = self.mem.trash.scrub()
        applied = tuple(MoveOutcome(**m) for m in r["applied"])
        return PlanOutcome(None, applied, tuple(MoveOutcome(**m) for m in r.get("skipped", ())), tuple(left))

    def forecast(self, days: int) -> LifecycleForecast:
        """What falls due within ``days`` (archive, expire, trash, purge; counts and the
        nearest dates): one query over the catalog re-checked against the files, no entry
        read (``engine/curator/forecast``)."""
        from memsearch_tui.engine.curator.forecast import due_summary

        data = due_summary(self.mem.store, days)
        assert data is not None  # fresh: always a catalog
        return _forecast(data)

    def cached_forecast(self, days: int) -> LifecycleForecast | None:
        """:meth:`forecast` from the catalog as last saved, without re-checking the files
        (None when there is no catalog yet, or no store): what a face's first frame draws."""
        from memsearch_tui.engine.curator.forecast import due_summary

        if not self.mem.store.exists():
            return None
        data = due_summary(self.mem.store, days, fresh=False)
        return None if data is None else _forecast(data)

    def archive(self, entry_id: str, *, expected: bytes | None = None) -> Archived:
        """Move an entry to its category's archived/ folder now."""
        from memsearch_tui.engine.curator import lifecycle

        self.mem.require_writable("archive")
        self.mem.store.require()
        with self.mem.acting():
            return Archived(**lifecycle.archive(self.mem.store, entry_id, expected=expected))


def _forecast(data: dict[str, Any]) -> LifecycleForecast:
    counts = {action: (int(now), int(later)) for action, (now, later) in data["counts"].items()}
    first = {action: (str(ref), str(on)) for action, (ref, on) in data["first"].items()}
    return LifecycleForecast(str(data["today"]), int(data["days"]), counts, first)


def records(moves: Sequence[Move]) -> list[dict[str, Any]]:
    """Moves as the engine takes them (``curator.lifecycle``, the store proposal's payload)."""
    return [asdict(m) for m in moves]
