"""What the engine API returns: frozen dataclasses, never loose dicts.

Every face (CLI ``--json``, TUI, MCP tools) turns these into JSON with the one
serialiser, :func:`memsearch_tui.engine.api.serialise.to_json`, so a field means the same
thing everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from memsearch_tui.engine.api.serialise import wire
from memsearch_tui.engine.search.explain import QueryExplain  # at run time: MCP reads the hints
from memsearch_tui.engine.search.hit import SearchHit as SearchHit  # the one hit record: the ranking makes it
from memsearch_tui.engine.search.hit import resolve_hints

resolve_hints()  # SearchHit's hints resolve at run time (MCP reads them)

WRITE_MODES = ("direct", "review", "read-only")

Progress = Callable[[int, int], None]  # (done, total) as long work goes: split, import, a lifecycle sweep
Scalar = str | int | float | bool | None  # a frontmatter value as written (anything else: as text)


def scalar(value: object) -> Scalar:
    """A frontmatter value as a JSON scalar (a list, a mapping or a date: its text)."""
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class FullEntry(EntryFields):
    """An entry whole, as ``show`` prints it: its fields, its body and its file."""

    body: str
    path: str


@dataclass(frozen=True)
class Category:
    """A category folder and how many entries live in it and below it."""

    name: str
    entries: int


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class WriteResult:
    """What a write did: ``action`` is added|updated|conflict|trashed|proposed."""

    action: str
    message: str
    entry: EntrySummary | None = None
    proposal: Proposal | None = None
    conflict_reason: str = ""
    trash_key: str = ""  # trashed: the key ``trash restore`` takes
    referenced_by: tuple[str, ...] = ()  # trashed: entries whose ``related`` still name it


@dataclass(frozen=True)
class JournalTurn:
    time: str
    title: str
    line: int
    end_line: int
    bullets: tuple[str, ...]
    session_id: str = ""
    agent: str = ""
    turn_id: str = ""  # the anchor's turn id: what ``journal forget --turn`` also takes


@dataclass(frozen=True)
class JournalSession:
    time: str
    title: str
    line: int
    end_line: int
    session_ids: tuple[str, ...]
    turns: tuple[JournalTurn, ...]


@dataclass(frozen=True)
class JournalDay:
    """One day's journal (``day``), optionally narrowed to one session; ``days``: all days."""

    date: str
    path: str
    sessions: tuple[JournalSession, ...]
    days: tuple[str, ...]


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class JournalCopy:
    """A conflicted copy a file-sync tool left beside a journal day (``journal conflicts``)."""

    name: str
    day: str
    tool: str
    path: str
    day_exists: bool


@dataclass(frozen=True)
class MergeProposals:
    """The merge proposals waiting after ``journal conflicts --merge``, and the days that failed."""

    proposals: tuple[str, ...]
    problems: tuple[str, ...]
    notes: tuple[str, ...] = ()  # per day: turns kept beside a clashing anchor, turns left out


@dataclass(frozen=True)
class ProposalReview:
    """Everything a reviewer needs about one proposal, in full: what accept writes.

    ``fields``: (field, now, proposed) per changed field (title, tags, importance…);
    ``before``/``after``: the text now and as accepted (whole, never cut short);
    ``diff``: both as unified-diff lines; ``moves``: a lifecycle or split plan, one line
    per move; ``note``: what happens beyond the text (trash, a kept version).
    """

    proposal: Proposal
    fields: tuple[tuple[str, str, str], ...]
    before: str
    after: str
    diff: tuple[str, ...]
    moves: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Version:
    """One version of an entry (``versions ID``), oldest first; ``kept``: its text is on disk."""

    version: int
    id: str  # entry@vN
    date: str
    summary: str
    current: bool
    kept: bool
    path: str  # relative to the memory root


@dataclass(frozen=True)
class VersionText:
    """The title and body of one version of an entry (what the Versions pane diffs)."""

    title: str
    text: str


@dataclass(frozen=True)
class VersionRestore:
    """``versions ID --restore N``: version ``restored`` made current as version ``current``."""

    entry: EntryFields  # the entry as restored
    restored: int
    current: int
    message: str


@dataclass(frozen=True)
class ConflictConfirm:
    """``conflicts confirm ID``: the entry's current ``version`` stands."""

    confirmed: str  # the entry id
    version: int


@dataclass(frozen=True)
class TaskRun:
    """One row of ``maintenance run``: what a task did (``result``: ran, skip, disabled, error …)."""

    platform: str
    task: str
    result: str
    reason: str = ""
    proposal_id: str = ""
    output_file: str = ""


@dataclass(frozen=True)
class ImportSkip:
    """An item ``import`` left out, and why."""

    title: str
    source: str
    reason: str


@dataclass(frozen=True)
class ImportResult:
    """``import``: the entries made from ``source`` into ``category`` and the items skipped."""

    source: str
    category: str
    imported: tuple[str, ...]
    skipped: tuple[ImportSkip, ...]


@dataclass(frozen=True)
class LifecycleForecast:
    """What falls due within ``days`` of ``today`` (ISO date), per action (archive, expire,
    trash, purge): ``counts[action]`` = (due now, due within the horizon); ``first[action]``
    = (entry id or trash key, ISO date) of the first to go, for the actions with one."""

    today: str
    days: int
    counts: dict[str, tuple[int, int]]
    first: dict[str, tuple[str, str]]


@dataclass(frozen=True)
class OpenConflict:
    """An entry whose latest change was a detected conflict, not yet confirmed (``conflicts``)."""

    id: str
    title: str
    version: Scalar  # the frontmatter's version, as written
    previous: Scalar  # the version kept beside it
    detected: str


@dataclass(frozen=True)
class VersionedEntry:
    """An entry the Versions pane lists: several versions, or an open conflict."""

    id: str
    title: str
    version: int
    conflict: bool


@dataclass(frozen=True)
class Move:
    """One step of a lifecycle plan (``lifecycle plan``): archive, expire, trash or purge."""

    action: str
    id: str
    reason: str
    since: str  # YYYY-MM-DD the clock started ("" if unknown)


@dataclass(frozen=True)
class StoreMove:
    """One move a store proposal makes, as the Maintenance pane draws it: a lifecycle step
    (``id``, ``reason``) or a split's relocation (``id`` → ``to``)."""

    action: str
    id: str
    to: str = ""
    reason: str = ""


@dataclass(frozen=True)
class JournalSpan:
    """The lines of a day a forget or redact took out (1-based, inclusive) and where they were."""

    lines: tuple[int, int]
    session: str
    session_id: str
    turn: str
    turn_id: str
    anchor: str


@dataclass(frozen=True)
class IndexRefresh:
    """How the search indexes followed a journal change: ``keyword`` (files changed, or
    "not built") and ``vectors`` (embedded/deleted, "not built", "deferred: why");
    ``error``: why both were put off (``vectors index`` catches up)."""

    keyword: str
    vectors: str
    error: str = field(default="", metadata=wire(omit_default=True))


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class JournalChange:
    """What ``journal forget|redact`` did: the text to the trash (``trash_key`` restores it),
    proposals built from it marked stale, the search indexes refreshed (``index``,
    ``memsearch_index``: each index's own report)."""

    action: str  # forget | redact
    day: str
    file: str
    removed: JournalSpan
    reason: str
    trash_key: str
    trash_file: str
    file_deleted: bool
    stale_proposals: tuple[str, ...]
    index: IndexRefresh
    memsearch_index: MemsearchScrub


@dataclass(frozen=True)
class IndexReport:
    """What ``vectors index`` did: files seen and changed, chunks made, vectors embedded and
    deleted, and the files skipped with the reason (``skipped``)."""

    files: int
    changed_files: int
    removed_files: int
    new_chunks: int
    removed_chunks: int
    embedded: int
    deleted_vectors: int
    skipped: tuple[str, ...]
