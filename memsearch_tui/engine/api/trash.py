"""``mem.trash``: move entries to the trash, list it, restore, purge — and the one scrub after a purge.

Every path that deletes text for good (``trash purge``, a lifecycle plan carried out at
once or through ``proposals accept``, the app's panes) ends in :meth:`Trash.scrub`: the
purged text leaves the search copies (text cache, manifest, keyword index, vectors) at
once, not at the next hook.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api import limits
from memsearch_tui.engine.api.serialise import wire
from memsearch_tui.engine.api.types import WriteResult
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.secrets import refuse_secrets

if TYPE_CHECKING:
    from pathlib import Path

    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.curator.trash_preview import TrashPreview
    from memsearch_tui.engine.store.store import Store
    from memsearch_tui.engine.store.trash_index import TrashItem


@record
class IndexRefresh:
    """How the search indexes followed a journal change: ``keyword`` (files changed, or
    "not built") and ``vectors`` (embedded/deleted, "not built", "deferred: why");
    ``error``: why both were put off (``vectors index`` catches up)."""

    keyword: str
    vectors: str
    error: str = field(default="", metadata=wire(omit_default=True))


@record
class MemsearchScrub:
    """What memsearch's own index lost after a journal change: chunks ``deleted``, or why
    not (``note``: nothing to do; ``problem`` and its ``fix``); ``warning``: one line to show."""

    deleted: int
    note: str
    problem: str
    fix: str
    warning: str
    moved: tuple[str, ...] = ()  # kept turns whose chunks went because their lines moved
    reindex: str = ""  # the command that puts those chunks back


@record
class Restored:
    """``trash restore`` of an entry: back as ``restored`` (``renamed``: its own id was
    taken), ``related_dropped``: related ids that no longer exist."""

    restored: str
    from_: str = field(metadata=wire("from"))  # the trash key
    original_id: str
    renamed: bool
    related_dropped: tuple[str, ...]


@record
class ExcerptRestored:
    """``trash restore`` (or ``journal restore``) of forgotten journal text: back into the
    day file ``restored``, ``placed`` where (at its line, after its neighbour, at the end);
    ``journal restore`` also says how the search indexes followed (``index``, ``memsearch_index``)."""

    restored: str
    original_id: str
    from_: str = field(metadata=wire("from"))
    day: str
    placed: str
    renamed: bool
    related_dropped: tuple[str, ...]
    index: IndexRefresh | None = field(default=None, metadata=wire(omit_default=True))  # journal restore
    memsearch_index: MemsearchScrub | None = field(default=None, metadata=wire(omit_default=True))


@record
class CopyRestored:
    """``trash restore`` of a merged conflicted journal copy: back under its own name."""

    restored: str
    journal: bool


@record
class Purged:
    """``trash purge``: the keys gone for good, log records that lost a copy
    (``history_ended``), and what could not be scrubbed now (the next hook retries)."""

    purged: tuple[str, ...]
    history_ended: int
    not_scrubbed: tuple[str, ...]


TrashRestore = Restored | ExcerptRestored | CopyRestored


def restored(r: dict[str, Any]) -> TrashRestore:
    """The record of what an engine restore returned (an entry, a journal excerpt, a copy)."""
    if "journal" in r:
        return CopyRestored(str(r["restored"]), bool(r["journal"]))
    dropped = tuple(r["related_dropped"])
    if "placed" in r:
        return ExcerptRestored(r["restored"], r["original_id"], r["from"], r["day"], r["placed"], r["renamed"], dropped)
    return Restored(r["restored"], r["from"], r["original_id"], r["renamed"], dropped)


class Trash:
    """The trash of one memory store, as ``mem.trash``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def put(self, entry_id: str, reason: str = "", *, expected: bytes | None = None) -> WriteResult:
        """Move an entry to the trash (restorable; an agent's forget under review becomes a proposal)."""
        self.mem.require_writable("forget")
        limits.text("id", entry_id, limits.REF)
        limits.text("reason", reason, limits.REASON)
        refuse_secrets("reason", reason)
        store = self.mem.store
        store.require()
        entry = store.get(entry_id)
        if self.mem.writes == "review":
            return self.mem.proposals.propose_store_change("forget", entry.id, {"id": entry.id}, reason)
        from memsearch_tui.engine.curator import trash

        actor = self.mem.actor
        with self.mem.acting():
            out = trash.trash(store, entry.id, reason or (f"forgotten by {actor}" if actor else ""), expected=expected)
        return WriteResult(
            "trashed",
            f"moved {out['trashed']} to the trash ({out['key']})",
            trash_key=str(out["key"]),
            referenced_by=tuple(out.get("referenced_by") or ()),
        )

    def items(self) -> builtins.list[TrashItem]:
        """What is in the trash, newest first."""
        from memsearch_tui.engine.store.trash_index import list_trash

        self.mem.store.require()
        return list_trash(self.mem.root)

    def preview(self, item: TrashItem) -> TrashPreview:
        """A trashed entry's frontmatter and body as they are in the trash (a damaged file
        says why in ``problem``), and its bytes (``raw``): what restore and purge take back
        as ``expected=``."""
        from memsearch_tui.engine.curator.trash_preview import preview

        return preview(item)

    def list(self) -> tuple[TrashItem, ...]:
        """The trash (key, title, trashed, days_left, reason …), newest first, for ``--json``."""
        return tuple(self.items())

    def restore(self, ref: str, *, expected: bytes | None = None) -> TrashRestore:
        """Back to its category (recreated, suffixed on a clash), active, updated today."""
        from memsearch_tui.engine.curator import trash

        self.mem.require_writable("restore")
        self.mem.store.require()
        with self.mem.acting():
            return restored(trash.restore(self.mem.store, ref, expected=expected))

    def purge_candidates(self, *, older_than: int | None = None, everything: bool = False) -> builtins.list[TrashItem]:
        """Items past their purge date (or trashed more than ``older_than`` days ago, or all)."""
        from memsearch_tui.engine.curator import trash

        self.mem.store.require()
        return trash.purge_candidates(self.mem.root, older_than=older_than, everything=everything)

    def purge(
        self, items: builtins.list[TrashItem], *, yes: bool, expected: Mapping[str, bytes] | None = None
    ) -> Purged:
        """Delete trashed files for good, then scrub every copy of their text (``not_scrubbed``:
        what could not be scrubbed now; the next hook retries it)."""
        self.mem.require_writable("purge")
        with self.mem.acting():  # acting() invalidates the warm searcher after
            r = purge(self.mem.store, items, yes=yes, project=self.mem.project, expected=expected)
        return Purged(tuple(r["purged"]), int(r["history_ended"]), tuple(r["not_scrubbed"]))

    def scrub(self) -> builtins.list[str]:
        """The one scrub after a purge: if a purge left its marker, remove the purged text
        from the search copies; returns what could not be scrubbed."""
        from memsearch_tui.engine.search.purge import finish_purge

        left = finish_purge(self.mem.root, self.mem.project)
        self.mem.invalidate()
        return left


def purge(
    store: Store,
    items: builtins.list[TrashItem],
    *,
    yes: bool,
    project: Path | None = None,
    expected: Mapping[str, bytes] | None = None,
) -> dict[str, Any]:
    """``trash purge``: the files, the log's copies and every derived copy. ``expected``:
    item key → its file's bytes as the user saw them (``curator.trash.purge``).

    ``curator.trash.purge`` deletes the files and scrubs the operation log and the catalog;
    the search copies (text cache, manifest, keyword cache, vectors) are in a package beside
    the curator, so they are scrubbed here, right after. If that cannot finish (Milvus busy),
    the marker the purge left makes the next hook upkeep try again."""
    from memsearch_tui.engine.curator import trash
    from memsearch_tui.engine.search.purge import finish_purge

    result = trash.purge(store, items, yes=yes, expected=expected)
    result["not_scrubbed"] = [*result.get("not_scrubbed", []), *finish_purge(store.root, project)]
    return result
