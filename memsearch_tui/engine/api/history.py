"""``mem.history``: the operation log — list it, undo the newest change, redo it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api.types import HistoryItem
from memsearch_tui.engine.core.errors import Refused

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory


class History:
    """The operation log of one memory root, as ``mem.history``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def list(self, limit: int | None = 20) -> tuple[HistoryItem, ...]:
        """Logged operations, newest first (``by`` says who: ``mcp:<client>`` for an agent)."""
        from memsearch_tui.engine.history.undo import history

        return tuple(history_item(d) for d in history(self.mem.root, limit))

    def undo(self, *, expected_seq: int | None = None) -> HistoryItem:
        """Revert the newest operation (refused if its files changed since).
        ``expected_seq``: the operation the user saw as the newest (the app's undo list); a
        change logged since is refused, never undone blind."""
        from memsearch_tui.engine.history.undo import pending, undo_last

        if expected_seq is not None and (newest := pending(self.mem.root)).seq != expected_seq:
            raise Refused(f"a newer change arrived ({newest.summary}); look at the list again before undoing")
        rec = undo_last(self.mem.root)
        self.mem.invalidate()
        return history_item(rec.as_dict())

    def redo(self, *, expected_seq: int | None = None) -> HistoryItem:
        """Re-apply the most recently undone operation (refused after a newer change, or if
        its files changed since the undo). ``expected_seq``: as for :meth:`undo`."""
        from memsearch_tui.engine.history.undo import redo_last, redo_pending

        if expected_seq is not None and (target := redo_pending(self.mem.root)).seq != expected_seq:
            raise Refused(f"the redo target changed ({target.summary}); look at the list again")
        rec = redo_last(self.mem.root)
        self.mem.invalidate()
        return history_item(rec.as_dict())


def history_item(d: dict[str, Any]) -> HistoryItem:
    return HistoryItem(
        int(d["seq"]),
        str(d["kind"]),
        str(d["summary"]),
        str(d["at"]),
        tuple(d["files"]),
        bool(d["undone"]),
        bool(d.get("redoable", False)),
        str(d.get("by", "")),
        str(d.get("purged", "")),
    )
