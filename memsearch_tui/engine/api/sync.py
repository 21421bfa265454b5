"""``mem.sync``: the store synced between devices over git (issue 22), for every face.

The engine (:mod:`memsearch_tui.engine.sync`) does the work; this noun only names the use
cases and turns the engine's reports into frozen dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.sync.run import SyncReport, SyncStatus


@dataclass(frozen=True, slots=True)
class SyncOutcome:
    """What one ``sync`` (or ``sync init``) did."""

    device: str
    message: str
    committed: int
    received: int
    pushed: bool
    changed: tuple[str, ...]
    conflicts: tuple[str, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SyncState:
    """Where this device stands (read without touching the network)."""

    initialised: bool
    device: str
    remote: str
    last_sync: str
    ahead: int
    behind: int
    uncommitted: int
    conflicts: int
    interrupted: bool
    message: str


class Sync:
    """Sync of the memory root (``sync init``, ``sync``, ``sync status``)."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def init(self, *, remote: str = "", device: str = "") -> SyncOutcome:
        from memsearch_tui.engine.sync import run

        self.mem.require_writable("sync")
        return _outcome(run.init(self.mem.root, remote=remote, device=device))

    def run(self) -> SyncOutcome:
        from memsearch_tui.engine.sync import run

        self.mem.require_writable("sync")
        out = _outcome(run.sync(self.mem.root))
        self.mem.invalidate()
        return out

    def status(self) -> SyncState:
        from pathlib import Path

        from memsearch_tui.engine.sync import state

        if state.load(Path(self.mem.root).expanduser().absolute()) is None:  # before ``sync init``:
            return SyncState(False, "", "", "", 0, 0, 0, 0, False, state.NOT_SYNCED)  # no git, no run.py
        from memsearch_tui.engine.sync import run

        s: SyncStatus = run.status(self.mem.root)
        return SyncState(
            s.initialised,
            s.device,
            s.remote,
            s.last_sync,
            s.ahead,
            s.behind,
            s.uncommitted,
            s.conflicts,
            s.interrupted,
            s.message,
        )


def _outcome(r: SyncReport) -> SyncOutcome:
    return SyncOutcome(
        r.device, r.message, r.committed, r.received, r.pushed, tuple(r.changed), tuple(r.conflicts), tuple(r.notes)
    )
