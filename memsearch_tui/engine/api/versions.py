"""``mem.versions``: an entry's kept versions — list, diff, restore — and open conflicts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memsearch_tui.engine.api.types import EntryFields, Scalar, scalar
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.record import record

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory


@record
class Version:
    """One version of an entry (``versions ID``), oldest first; ``kept``: its text is on disk."""

    version: int
    id: str  # entry@vN
    date: str
    summary: str
    current: bool
    kept: bool
    path: str  # relative to the memory root


@record
class VersionText:
    """The title and body of one version of an entry (what the Versions pane diffs)."""

    title: str
    text: str


@record
class VersionRestore:
    """``versions ID --restore N``: version ``restored`` made current as version ``current``."""

    entry: EntryFields  # the entry as restored
    restored: int
    current: int
    message: str


@record
class ConflictConfirm:
    """``conflicts confirm ID``: the entry's current ``version`` stands."""

    confirmed: str  # the entry id
    version: int


@record
class OpenConflict:
    """An entry whose latest change was a detected conflict, not yet confirmed (``conflicts``)."""

    id: str
    title: str
    version: Scalar  # the frontmatter's version, as written
    previous: Scalar  # the version kept beside it
    detected: str


@record
class VersionedEntry:
    """An entry the Versions pane lists: several versions, or an open conflict."""

    id: str
    title: str
    version: int
    conflict: bool


@record
class DiffLine:
    op: str  # "+", "-" or " "
    text: str


@record
class Hunk:
    header: str  # the "@@ -a,b +c,d @@" line
    lines: tuple[DiffLine, ...]


@record
class VersionDiff:
    """``diff ID [A] [B]``: versions ``a`` and ``b`` of entry ``id`` as a unified diff and
    its hunks (``same``: nothing differs)."""

    id: str
    a: int
    b: int
    unified: str
    hunks: tuple[Hunk, ...]
    same: bool


class Versions:
    """Versions and conflicts of one store's entries, as ``mem.versions``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def list(self, entry_id: str) -> tuple[Version, ...]:
        """Every version of an entry (``current``, ``kept``, ``date``, ``summary``), oldest first."""
        from memsearch_tui.engine.curator import versions

        self.mem.store.require()
        return tuple(Version(**row) for row in versions.list_versions(self.mem.store, entry_id))

    def text(self, entry_id: str, n: int) -> VersionText:
        """Version ``n`` of an entry: its title and its text without the history section."""
        from memsearch_tui.engine.curator import versions

        entry, text = versions.version_text(self.mem.store, entry_id, n)
        return VersionText(entry.title, text)

    def diff(self, entry_id: str, a: int | None = None, b: int | None = None) -> VersionDiff:
        """Unified diff between two versions (default: the last two)."""
        from memsearch_tui.engine.curator import versions

        self.mem.store.require()
        d = versions.diff(self.mem.store, entry_id, a, b)
        hunks = tuple(Hunk(h["header"], tuple(DiffLine(**ln) for ln in h["lines"])) for h in d["hunks"])
        return VersionDiff(d["id"], d["a"], d["b"], d["unified"], hunks, d["same"])

    def restore(self, entry_id: str, n: int, *, expected: bytes | None = None) -> VersionRestore:
        """Make version ``n`` current again, as a new version (the current one is kept)."""
        from memsearch_tui.engine.curator import versions

        self.mem.require_writable("restore a version")
        self.mem.store.require()
        with self.mem.acting():
            r = versions.restore_version(self.mem.store, entry_id, n, expected=expected)
        e = r["entry"]
        fields = EntryFields(**{**e, "tags": tuple(e["tags"]), "related": tuple(e["related"])})
        return VersionRestore(fields, r["restored"], r["current"], r["message"])

    def conflicts(self, *, fresh: bool = True) -> tuple[OpenConflict, ...]:
        """Entries whose latest change was a detected conflict, newest first. ``fresh=False``:
        as the catalog last saved its marks (no stat of every file: a face's first frame)."""
        from memsearch_tui.engine.curator import versions

        self.mem.store.require()
        rows = versions.conflicts(self.mem.store, fresh=fresh)
        return tuple(
            OpenConflict(r["id"], r["title"], scalar(r["version"]), scalar(r["previous"]), r["detected"]) for r in rows
        )

    def versioned(self, *, fresh: bool = True) -> tuple[VersionedEntry, ...]:
        """Entries with more than one version or an open conflict: open conflicts first,
        then by title (the Versions pane's list). An entry that cannot be read is left out.
        ``fresh=False``: the conflicts as the catalog last saved them (a first frame)."""
        from memsearch_tui.engine.curator import versions

        store = self.mem.store
        store.require()
        rows = {c.id: VersionedEntry(c.id, c.title, int(c.version or 0), True) for c in self.conflicts(fresh=fresh)}
        for entry_id in versions.versioned_ids(store):
            if entry_id in rows:
                continue
            try:
                e = store.get(entry_id)
            except (MemsearchError, OSError):
                continue
            if e.version > 1:
                rows[e.id] = VersionedEntry(e.id, e.title, e.version, False)
        return tuple(sorted(rows.values(), key=lambda r: (not r.conflict, r.title.casefold())))

    def confirm(self, entry_id: str, *, expected: bytes | None = None) -> ConflictConfirm:
        """Settle a conflict: the current version stands."""
        from memsearch_tui.engine.curator import versions

        self.mem.require_writable("confirm a conflict")
        self.mem.store.require()
        with self.mem.acting():
            return ConflictConfirm(**versions.confirm(self.mem.store, entry_id, expected=expected))
