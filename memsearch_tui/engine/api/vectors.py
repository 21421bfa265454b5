"""``mem.vectors``: the vector index — build it, inspect it, start over (the Markdown stays)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api.types import IndexReport
from memsearch_tui.engine.core.errors import Refused

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory

Record = dict[str, Any]


class Vectors:
    """The vector index of one (memory root, project), as ``mem.vectors``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def index(
        self,
        *,
        force: bool = False,
        progress: Callable[[int, int], None] | None = None,
        phase: Callable[[str], None] | None = None,
    ) -> IndexReport:
        """Index store entries, journals, PROJECT.md and USER.md (incremental; ``force``: all again)."""
        with self.mem.warm.lock:
            rep = self.mem.warm.open(self.mem).index(force=force, progress=progress, phase=phase)
        d = rep.as_dict()
        return IndexReport(**{**d, "skipped": tuple(d["skipped"])})

    def status(self) -> Record:
        """Backend, URI, collection, model, dims, counts and drift; creates nothing."""
        from memsearch_tui.engine.search.searcher import status

        return status(self.mem.root, self.mem.project)

    def reset(self, *, yes: bool) -> Record:
        """Drop the vector collection and the manifest (without ``yes``: refused)."""
        from memsearch_tui.engine.search.searcher import reset

        if not yes:
            raise Refused("vectors reset drops the whole vector collection and manifest; add --yes to confirm")
        self.mem.close()  # the warm searcher holds the collection open
        return reset(self.mem.root, self.mem.project)
