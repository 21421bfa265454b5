"""One warm index per project on one machine: the faces share it (issue 37 item 6).

Milvus Lite lets one process hold a data dir, and every face loaded the model and the
vector mirror itself: the hook's upkeep waited behind an open app, and a second face paid
the first meaning search's load again. Now a long-lived face (``Memory(share=True)``: the
app, the MCP server) becomes the project's **owner** on its first indexed search, unless a
live face already is: it serves searches and upkeep over a unix socket
(:mod:`..search.owner`). Every other face asks the owner first and, with no usable owner
(none, a dead one, a foreign socket, a late or malformed answer), searches in-process as
before; a sharing face then takes the dead owner's place. The hook hands its upkeep to the
owner (:func:`..upkeep.hook`) and never waits for the pass.

Read-your-writes: a face that wrote since its last question (or asks after its own
staleness window) has the owner re-check the files before it answers.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import threading

    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.search.owner import Owner
    from memsearch_tui.engine.search.results import SearchRun
    from memsearch_tui.engine.search.searcher import Searcher


class WarmShare:
    """The sharing half of :class:`.search.Warm` (which owns the lock and the searcher)."""

    if TYPE_CHECKING:
        lock: threading.Lock
        searcher: Searcher | None

        def open(self, mem: Memory) -> Searcher: ...

        def staleness(self) -> float: ...

    def _init_share(self, share: bool) -> None:
        self.share = share
        self.owner: Owner | None = None
        self.served_by: int | None = None  # the owner's pid that answered the last query (None: this process)
        self.dirty = False  # this face wrote since it last asked: the owner re-checks the files
        self._asked_at: float | None = None
        self._mem: Memory | None = None
        self._where: tuple[Path, str] | None = None

    def where(self, mem: Memory) -> tuple[Path, str]:
        """(the index's state dir, the project's owner key): no settings read, no search import."""
        if self._where is None:
            from memsearch_tui.engine.search.owner_wire import owner_key
            from memsearch_tui.engine.search.settings import state_dir_for

            self._where = (state_dir_for(mem.root), owner_key(mem.project))
        return self._where

    def ask_owner(self, mem: Memory, args: dict[str, Any]) -> SearchRun | None:
        """The owner's answer to this search, or None: search in-process (this face owns the
        index, just became its owner, or no owner answered usably)."""
        self.served_by = None
        if self.owner is not None or (self.share and self._become(mem)):
            return None
        from memsearch_tui.engine.search import owner_wire as wire

        state_dir, key = self.where(mem)
        now = time.monotonic()
        stale = self._asked_at is None or now - self._asked_at > self.staleness()
        message = {"op": "search", "root": str(mem.root), "project": str(mem.project), "args": args}
        got = wire.ask(state_dir, key, {**message, "invalidate": self.dirty or stale}, wire.SEARCH_TIMEOUT)
        if got is None:
            return None
        try:
            run = wire.run_from_wire(got["result"])
        except (KeyError, TypeError, ValueError, IndexError):
            return None
        self.dirty, self._asked_at = False, now
        pid = got.get("pid")
        self.served_by = pid if isinstance(pid, int) else None
        return run

    def _become(self, mem: Memory) -> bool:
        """Own the project's index when no live face does (a dead owner's socket replaced)."""
        from memsearch_tui.engine.search.owner import Owner

        self._mem = mem
        state_dir, key = self.where(mem)
        self.owner = Owner.become(state_dir, key, (mem.root, mem.project), self._serve_search, self._serve_upkeep)
        return self.owner is not None

    def _serve_search(self, args: dict[str, Any], invalidate: bool) -> SearchRun:
        """Another face's search, on this face's warm searcher (under its lock)."""
        assert self._mem is not None  # set by _become before the owner serves
        with self.lock:
            searcher = self.open(self._mem)
            if invalidate:
                searcher.invalidate()
            return searcher.search(**args)

    def _serve_upkeep(self) -> None:
        """The hook's pass: chunks, vectors and the keyword cache brought up to date here,
        where Milvus and the model already are."""
        assert self._mem is not None
        with self.lock:
            self.open(self._mem).index()

    def stop_owning(self) -> None:
        if self.owner is not None:
            self.owner.close()
            self.owner = None
