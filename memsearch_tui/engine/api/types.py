"""What the engine API returns: frozen dataclasses (``@record``), never loose dicts.

Every face (CLI ``--json``, TUI, MCP tools) turns these into JSON with the one
serialiser, :func:`memsearch_tui.engine.api.serialise.to_json`, so a field means the same
thing everywhere.

Here: the records several nouns share. A record one noun makes is defined in that noun's
module (``journal.JournalDay``, ``versions.Version``…) and still named from here on first
use (PEP 562, ``_MADE_BY``): each record still costs ~0.2 ms to create (``@record``,
:mod:`memsearch_tui.engine.core.record`; ~1 ms as a plain frozen dataclass), and the app's
first frame needs none of the journal's, versions', import's or proposal review's records
(issue 37 item 5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api import lazy_attr
from memsearch_tui.engine.api.serialise import wire
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.search.explain import QueryExplain  # at run time: MCP reads the hints
from memsearch_tui.engine.search.hit import SearchHit as SearchHit  # the one hit record: the ranking makes it
from memsearch_tui.engine.search.hit import resolve_hints

resolve_hints()  # SearchHit's hints resolve at run time (MCP reads them)

if TYPE_CHECKING:
    from memsearch_tui.engine.api.journal import JournalChange as JournalChange
    from memsearch_tui.engine.api.journal import JournalCopy as JournalCopy
    from memsearch_tui.engine.api.journal import JournalDay as JournalDay
    from memsearch_tui.engine.api.journal import JournalDays as JournalDays
    from memsearch_tui.engine.api.journal import JournalSession as JournalSession
    from memsearch_tui.engine.api.journal import JournalSpan as JournalSpan
    from memsearch_tui.engine.api.journal import JournalTurn as JournalTurn
    from memsearch_tui.engine.api.journal import ListedDay as ListedDay
    from memsearch_tui.engine.api.journal import MergeProposals as MergeProposals
    from memsearch_tui.engine.api.layout import ImportResult as ImportResult
    from memsearch_tui.engine.api.layout import ImportSkip as ImportSkip
    from memsearch_tui.engine.api.lifecycle import LifecycleForecast as LifecycleForecast
    from memsearch_tui.engine.api.proposals import ProposalReview as ProposalReview
    from memsearch_tui.engine.api.proposals import StoreMove as StoreMove
    from memsearch_tui.engine.api.trash import IndexRefresh as IndexRefresh
    from memsearch_tui.engine.api.trash import MemsearchScrub as MemsearchScrub
    from memsearch_tui.engine.api.vectors import IndexReport as IndexReport
    from memsearch_tui.engine.api.versions import ConflictConfirm as ConflictConfirm
    from memsearch_tui.engine.api.versions import OpenConflict as OpenConflict
    from memsearch_tui.engine.api.versions import Version as Version
    from memsearch_tui.engine.api.versions import VersionedEntry as VersionedEntry
    from memsearch_tui.engine.api.versions import VersionRestore as VersionRestore
    from memsearch_tui.engine.api.versions import VersionText as VersionText

# the records defined by the noun that makes them (imported when first named from here)
_MADE_BY = {
    **dict.fromkeys(
        [
            "JournalChange",
            "JournalCopy",
            "JournalDay",
            "JournalDays",
            "JournalSession",
            "JournalSpan",
            "JournalTurn",
            "ListedDay",
            "MergeProposals",
        ],
        "journal",
    ),
    **dict.fromkeys(["ImportResult", "ImportSkip"], "layout"),
    "LifecycleForecast": "lifecycle",
    **dict.fromkeys(["ProposalReview", "StoreMove"], "proposals"),
    **dict.fromkeys(["IndexRefresh", "MemsearchScrub"], "trash"),
    "IndexReport": "vectors",
    **dict.fromkeys(
        ["ConflictConfirm", "OpenConflict", "Version", "VersionedEntry", "VersionRestore", "VersionText"], "versions"
    ),
}


def __getattr__(name: str) -> Any:
    return lazy_attr(globals(), _MADE_BY, name)


WRITE_MODES = ("direct", "review", "read-only")

Progress = Callable[[int, int], None]  # (done, total) as long work goes: split, import, a lifecycle sweep
Scalar = str | int | float | bool | None  # a frontmatter value as written (anything else: as text)


def scalar(value: object) -> Scalar:
    """A frontmatter value as a JSON scalar (a list, a mapping or a date: its text)."""
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


@record
class SearchResult:
    """The hits, the strategy that ran (and the one asked for) and why."""

    query: str
    strategy: str
    requested: str
    reason: str
    files: int
    took_ms: float
    hits: tuple[SearchHit, ...]
    notes: tuple[str, ...] = ()
    explain: QueryExplain | None = None  # search(explain=True): the query's terms, script, weights


@record
class EntrySummary:
    """An entry as ``ls`` shows it."""

    id: str
    title: str
    status: str
    category: str
    updated: str | None
    tags: tuple[str, ...]
    version: int | None = None
    error: str = ""


@record
class EntryFields:
    """An entry's frontmatter fields, as the store's ``Entry.summary()`` writes them (dates ISO)."""

    id: str
    title: str
    status: str
    category: str
    created: str | None
    updated: str | None
    version: int
    tags: tuple[str, ...]
    importance: float | None
    related: tuple[str, ...]
    expires: str | None


@record
class FullEntry(EntryFields):
    """An entry whole, as ``show`` prints it: its fields, its body and its file."""

    body: str
    path: str


@record
class Category:
    """A category folder and how many entries live in it and below it."""

    name: str
    entries: int


@record
class Document:
    """What ``read`` returns: a file's text (or a line range of it) and what it is."""

    kind: str  # entry | journal | project | user | index
    ref: str  # the entry id, or the path relative to its root
    path: str
    title: str
    text: str
    lines: tuple[int, int]  # 1-based, inclusive, of ``text`` within the file
    total_lines: int
    version: int | None = None
    status: str = ""
    tags: tuple[str, ...] = ()


@record
class Proposal:
    """A change waiting for a person: PROJECT.md/USER.md rewrites and store changes alike.

    ``kind``: rewrite (PROJECT.md/USER.md), lifecycle, split, remember, revise, forget.
    ``origin``: project (``.memsearch/proposals``) or store (the memory root's proposals).
    """

    id: str
    kind: str
    origin: str
    status: str
    target: str
    summary: str
    reason: str
    created: str
    author: str = ""
    target_changed: bool = False
    decided_at: str = ""
    note: str = ""  # why a person rejected it (``proposals reject --note``), any kind
    task: str = ""  # a rewrite: the maintenance task (project_review, agent_edit …)
    tampered: str = ""  # a rewrite that may not be applied: why ("" if it may)
    stale: str = ""  # why its input changed since it was made ("" if it did not)
    content: str | None = None  # the full proposed text (``proposals show``); None in lists
    changes: tuple[str, ...] = ()  # a store proposal: one line per move it makes (``show``)
    # a rewrite that also creates a file beside its target (a condensed MEMORY.md's topic file): its name
    new_file: str = field(default="", metadata=wire(omit_default=True))


@record
class WriteResult:
    """What a write did: ``action`` is added|updated|conflict|trashed|proposed."""

    action: str
    message: str
    entry: EntrySummary | None = None
    proposal: Proposal | None = None
    conflict_reason: str = ""
    trash_key: str = ""  # trashed: the key ``trash restore`` takes
    referenced_by: tuple[str, ...] = ()  # trashed: entries whose ``related`` still name it


@record
class HistoryItem:
    """One logged operation (``undo --list``)."""

    seq: int
    kind: str
    summary: str
    at: str
    files: tuple[str, ...]
    undone: bool
    redoable: bool = False  # the operation ``redo`` would re-apply
    by: str = ""  # who made it: tui, cli, hook, mcp:<client> ("" if not recorded)
    purged: str = ""  # why it cannot be undone (a purge, or its bytes were purged since)


@record
class TaskRun:
    """One row of ``maintenance run``: what a task did (``result``: ran, skip, disabled, error …)."""

    platform: str
    task: str
    result: str
    reason: str = ""
    proposal_id: str = ""
    output_file: str = ""


@record
class Move:
    """One step of a lifecycle plan (``lifecycle plan``): archive, expire, trash or purge."""

    action: str
    id: str
    reason: str
    since: str  # YYYY-MM-DD the clock started ("" if unknown)
