"""``mem.versions``: an entry's kept versions — list, diff, restore — and open conflicts."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory

Record = dict[str, Any]


class Versions:
    """Versions and conflicts of one store's entries, as ``mem.versions``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def list(self, entry_id: str) -> builtins.list[Record]:
        """Every version of an entry (``current``, ``kept``, ``date``, ``summary``), oldest first."""
        from memsearch_tui.engine.curator import versions

        self.mem.store.require()
        return versions.list_versions(self.mem.store, entry_id)

    def diff(self, entry_id: str, a: int | None = None, b: int | None = None) -> Record:
        """Unified diff between two versions (default: the last two)."""
        from memsearch_tui.engine.curator import versions

        self.mem.store.require()
        return versions.diff(self.mem.store, entry_id, a, b)

    def restore(self, entry_id: str, n: int, *, expected: bytes | None = None) -> Record:
        """Make version ``n`` current again, as a new version (the current one is kept)."""
        from memsearch_tui.engine.curator import versions

        self.mem.require_writable("restore a version")
        self.mem.store.require()
        with self.mem.acting():
            return versions.restore_version(self.mem.store, entry_id, n, expected=expected)

    def conflicts(self) -> builtins.list[Record]:
        """Entries whose latest change was a detected conflict."""
        from memsearch_tui.engine.curator import versions

        self.mem.store.require()
        return versions.conflicts(self.mem.store)

    def confirm(self, entry_id: str, *, expected: bytes | None = None) -> Record:
        """Settle a conflict: the current version stands."""
        from memsearch_tui.engine.curator import versions

        self.mem.require_writable("confirm a conflict")
        self.mem.store.require()
        with self.mem.acting():
            return versions.confirm(self.mem.store, entry_id, expected=expected)
