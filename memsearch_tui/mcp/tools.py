"""The MCP tools: one engine API call each, arguments bounded, results redacted.

Every tool checks its string arguments for credentials (the store's own secret rules) and
caps their size in the JSON schema; engine refusals come back as tool errors naming the
code (``duplicate``, ``secret``, ``not_found``, ``unsafe_path``, ``read_only``…) so an
agent can act on them; every string of a result passes the secret redactor.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypedDict, TypeVar, cast

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from memsearch_tui.engine.api import (
    Category,
    Document,
    EntrySummary,
    JournalDay,
    Memory,
    Proposal,
    SearchResult,
    WriteResult,
    describe,
    limits,
    redact,
    to_json,
)
from memsearch_tui.engine.api.hygiene import Finding
from memsearch_tui.engine.api.text import find_secret

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
FORGETS = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
T = TypeVar("T")  # the API result a tool returns (its wire form: see ``run``)

Ref = Annotated[str, Field(max_length=limits.REF, description="Entry id (e.g. ops/deploy-day) or path.")]
Reason = Annotated[str, Field(max_length=limits.REASON, description="Why: a person reviewing the change reads it.")]
Tags = Annotated[
    list[Annotated[str, Field(max_length=limits.TAG)]] | None,
    Field(max_length=limits.TAGS, description='Tags, e.g. ["deploy", "ci"].'),
]
Importance = Annotated[float | None, Field(ge=0, le=1, description="0 (trivia) to 1 (essential).")]
Strategy = Annotated[
    Literal["auto", "grep", "index", "vector", "hybrid"],
    Field(description="auto picks; grep: literal words; index: keywords; vector: meaning; hybrid: both."),
]
Source = Annotated[Literal["all", "store", "journal"], Field(description="store entries, journals, or both.")]
EntryStatus = Annotated[
    Literal["active", "archived", "expired"] | None, Field(description="Only entries with this status.")
]
ProposalStatus = Annotated[
    Literal["pending", "accepted", "rejected", "all"], Field(description="Which proposals to list.")
]


class EntryList(TypedDict):
    """The ``list`` tool's result."""

    entries: list[EntrySummary]


class CategoryList(TypedDict):
    """The ``categories`` tool's result."""

    categories: list[Category]


class ProposalList(TypedDict):
    """The ``proposals`` tool's result."""

    proposals: list[Proposal]


HygieneKind = Literal["secret", "over-long", "dead-reference", "duplicate", "contradiction", "stale"]
HYGIENE_LIMIT = 200  # findings a call returns at most: each is a few clipped lines


class HygieneFindings(TypedDict):
    """The ``hygiene`` tool's result: the first ``limit`` findings, every kind's count,
    how many there are in all, and what the pass could not read or use."""

    findings: list[Finding]
    counts: dict[str, int]
    total: int
    notes: list[str]


def actor_of(ctx: Context | None) -> str:
    """``mcp:<client name>`` from the client's initialize info (``mcp:client`` if none)."""
    name = ""
    try:
        params = ctx.session.client_params if ctx is not None else None
        name = params.client_info.name if params is not None else ""
    except (AttributeError, LookupError, ValueError):
        name = ""
    name = re.sub(r"[^A-Za-z0-9._ -]", "", name or "")[:64].strip() or "client"
    return f"mcp:{name}"


def check_arguments(args: dict[str, Any]) -> None:
    """Refuse a credential in any string argument, before anything runs or is logged."""
    for key, value in args.items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            if isinstance(v, str):
                rule = find_secret(v)
                if rule:
                    raise ToolError(
                        f"secret: argument {key!r} looks like it contains a secret ({rule}); "
                        "memory must not hold credentials — store a reference such as 'see 1Password: deploy key'"
                    )


def run(memory: Memory, ctx: Context | None, args: dict[str, Any], call: Callable[[Memory], T]) -> T:
    """Check arguments, call the API as this client, serialise and redact the result.

    What comes back is the wire form of ``T`` (the redacted JSON dict): the tool's return
    annotation ``T`` is its ``outputSchema``, and the SDK validates this dict against it
    before it leaves, so the cast below is checked on every call."""
    check_arguments(args)
    try:
        result = call(memory.with_actor(actor_of(ctx)))
    except Exception as exc:  # what describe knows (a refusal, a disk or index database problem); a bug re-raises
        known = describe(exc)
        if known is None:
            raise
        raise ToolError(f"{known.code}: {unechoed(memory.for_agent(known.message), args)}") from None
    return cast(T, redact(to_json(result)))


ID_SHAPE = re.compile(r"(?!.*\.\.)\w[\w .:/-]{0,127}")


def unechoed(message: str, args: dict[str, Any]) -> str:
    """``message`` with every string argument that is not shaped like an id or a date
    (a word character first, no ``..``, at most 128 characters) named instead of repeated:
    an error names entries by id and days by date, never bytes a client sent (a path that
    climbs out, a control character, a prompt) back to it (docs/security.md)."""
    for key, value in args.items():
        if isinstance(value, str) and value and value in message and not ID_SHAPE.fullmatch(value):
            message = message.replace(value, f"the given {key}")
    return message


def register(server: MCPServer, memory: Memory) -> None:
    """Add every tool to ``server``, bound to ``memory``."""

    @server.tool(annotations=READ_ONLY)
    def search(
        query: Annotated[str, Field(max_length=limits.QUERY, description="Words or a question to look for.")],
        k: Annotated[int, Field(ge=1, le=50, description="How many hits.")] = 8,
        strategy: Strategy = "auto",
        source: Source = "all",
        category: Annotated[str | None, Field(max_length=limits.REF, description="Only entries under it.")] = None,
        explain: Annotated[bool, Field(description="Say why each hit ranks where it does.")] = False,
        since: Annotated[
            str | None, Field(max_length=limits.REF, description="Only hits dated on/after: YYYY-MM-DD or 'last week'.")
        ] = None,
        until: Annotated[str | None, Field(max_length=limits.REF, description="Only hits dated on/before.")] = None,
        ctx: Context | None = None,
    ) -> SearchResult:
        """Search the memory (entries, journals, PROJECT.md/USER.md); hits give id, lines and a snippet — `read` one for the full text."""
        args = {"query": query, "category": category}
        return run(
            memory, ctx, args, lambda m: m.search.query(query, k, strategy, source, category, explain, since, until)
        )

    @server.tool(annotations=READ_ONLY)
    def read(
        id_or_path: Annotated[
            str,
            Field(
                max_length=limits.REF,
                description="Entry id, a search hit's path, a day YYYY-MM-DD, PROJECT.md, USER.md or an INDEX.md.",
            ),
        ],
        lines: Annotated[
            list[int] | None, Field(min_length=2, max_length=2, description="[start, end], 1-based, inclusive.")
        ] = None,
        ctx: Context | None = None,
    ) -> Document:
        """Read an entry, a journal day, PROJECT.md or USER.md (optionally only lines [start, end])."""
        span = (lines[0], lines[1]) if lines else None
        return run(memory, ctx, {"id_or_path": id_or_path}, lambda m: m.entries.read(id_or_path, span))

    @server.tool(name="list", annotations=READ_ONLY)
    def list_entries(
        category: Annotated[str | None, Field(max_length=limits.REF, description="Only this category.")] = None,
        status: EntryStatus = None,
        ctx: Context | None = None,
    ) -> EntryList:
        """List entries (id, title, status, updated, tags), optionally of one category or status."""
        return run(
            memory, ctx, {"category": category}, lambda m: EntryList(entries=list(m.entries.list(category, status)))
        )

    @server.tool(annotations=READ_ONLY)
    def categories(ctx: Context | None = None) -> CategoryList:
        """List the categories of the store with their entry counts (pick one before `remember`)."""
        return run(memory, ctx, {}, lambda m: CategoryList(categories=list(m.entries.categories())))

    @server.tool(annotations=WRITES)
    def remember(
        category: Annotated[str, Field(max_length=limits.REF, description="Category path, e.g. projects/web.")],
        title: Annotated[str, Field(max_length=200, description="Short title; one topic per entry.")],
        body: Annotated[str, Field(max_length=limits.BODY, description="The note, in Markdown.")],
        tags: Tags = None,
        importance: Importance = None,
        reason: Reason = "",
        ctx: Context | None = None,
    ) -> WriteResult:
        """Save a durable fact as a new entry (duplicates and secrets refused; may wait for review)."""
        args = {"category": category, "title": title, "body": body, "tags": tags or [], "reason": reason}
        return run(memory, ctx, args, lambda m: m.entries.add(category, title, body, tags, importance, reason=reason))

    @server.tool(annotations=WRITES)
    def revise(
        id: Ref,
        title: Annotated[str | None, Field(max_length=200, description="A new title.")] = None,
        body: Annotated[str | None, Field(max_length=limits.BODY, description="The whole new body.")] = None,
        tags: Tags = None,
        importance: Importance = None,
        expected_version: Annotated[
            int | None, Field(ge=1, description="The version you read; refused if the entry changed since.")
        ] = None,
        reason: Reason = "",
        ctx: Context | None = None,
    ) -> WriteResult:
        """Change an entry; a contradicting body is kept as a new version (may wait for review)."""
        args = {"id": id, "title": title, "body": body, "tags": tags or [], "reason": reason}
        return run(
            memory,
            ctx,
            args,
            lambda m: m.entries.update(
                id, title=title, body=body, tags=tags, importance=importance, expected=expected_version, reason=reason
            ),
        )

    @server.tool(annotations=FORGETS)
    def forget(id: Ref, reason: Reason, ctx: Context | None = None) -> WriteResult:
        """Move an entry to the trash (restorable, never purged; may wait for review)."""
        return run(memory, ctx, {"id": id, "reason": reason}, lambda m: m.trash.put(id, reason))

    @server.tool(annotations=WRITES)
    def propose(
        target: Annotated[str, Field(max_length=limits.REF, description="PROJECT.md, USER.md or an entry id.")],
        new_text: Annotated[str, Field(max_length=limits.NEW_TEXT, description="The complete new text.")],
        reason: Reason,
        ctx: Context | None = None,
    ) -> Proposal:
        """Propose a rewrite of PROJECT.md, USER.md or an entry; a person reviews it in the app."""
        args = {"target": target, "new_text": new_text, "reason": reason}
        return run(memory, ctx, args, lambda m: m.proposals.propose(target, new_text, reason))

    @server.tool(annotations=READ_ONLY)
    def proposals(status: ProposalStatus = "pending", ctx: Context | None = None) -> ProposalList:
        """Status of proposals (yours and the maintenance tasks'); read-only: people decide."""
        return run(
            memory,
            ctx,
            {},
            lambda m: ProposalList(proposals=list(m.proposals.list(None if status == "all" else status))),
        )

    @server.tool(annotations=READ_ONLY)
    def hygiene(
        kinds: Annotated[
            list[HygieneKind] | None, Field(max_length=6, description="Only these kinds (default: every kind).")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=HYGIENE_LIMIT, description="At most this many findings.")] = 50,
        ctx: Context | None = None,
    ) -> HygieneFindings:
        """What has rotted across every memory — duplicates, contradictions, dead references,
        stored secrets (named by rule and line, never shown), over-long host files, stale
        entries — each with its evidence and fix; read-only (a person files the fixes)."""

        def scan(m: Memory) -> HygieneFindings:
            r = m.hygiene.scan(kinds or None, llm=False)  # an agent's call never spends the person's budget
            return HygieneFindings(
                findings=list(r.findings[:limit]), counts=r.counts(), total=len(r.findings), notes=list(r.notes)
            )

        return run(memory, ctx, {}, scan)

    @server.tool(annotations=READ_ONLY)
    def journal(
        day: Annotated[str | None, Field(max_length=40, description="YYYY-MM-DD (default: the newest day).")] = None,
        session: Annotated[str | None, Field(max_length=200, description="Session time HH:MM or id.")] = None,
        ctx: Context | None = None,
    ) -> JournalDay:
        """The agent journal of one day: sessions, turns and their bullets (and the days there are)."""
        return run(memory, ctx, {"day": day, "session": session}, lambda m: m.journal.day(day, session))
