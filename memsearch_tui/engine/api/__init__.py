"""The one door: every face (CLI, TUI, MCP server) reaches the engine through this package.

    from memsearch_tui.engine.api import Memory, to_json

    with Memory(memory_root, project, writes="review", actor="mcp:claude-code") as mem:
        res = mem.search.query("deploy steps", k=5)   # SearchResult
        mem.entries.add("ops", "Deploy day", "Fridays are frozen.")
        to_json(res)                                  # the dict --json and MCP tools print

``Memory`` groups the use cases by noun (``mem.entries``, ``mem.trash``, ``mem.proposals``
…, see :mod:`.memory`); results are the frozen dataclasses of :mod:`.types`; failures are
described for every face by :func:`.errors.describe`; :mod:`.text` holds the printing
rules (counts, terminal-safe text, the redactor).

Names resolve on first use (PEP 562): a face that needs only :mod:`.errors` or :mod:`.text`
(the literal-search path racing grep) does not pay for the store and the nouns.

The top engine layer: it may import any engine package, nothing imports it but faces.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the literal-search path races grep)
if TYPE_CHECKING:
    from typing import Any

    from memsearch_tui.engine.api import limits
    from memsearch_tui.engine.api.errors import describe
    from memsearch_tui.engine.api.http_access import HttpToken, allowed_origins, bind_loopback, http_token
    from memsearch_tui.engine.api.layout import IndexCheck, IndexProblem, MergeDone, SplitDone, SplitPlan
    from memsearch_tui.engine.api.lifecycle import Archived, MoveOutcome, PlanOutcome
    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.api.search import BatchError, BatchRow
    from memsearch_tui.engine.api.serialise import to_json
    from memsearch_tui.engine.api.settings import mcp_writes
    from memsearch_tui.engine.api.text import redact, redact_text
    from memsearch_tui.engine.api.trash import CopyRestored, ExcerptRestored, Purged, Restored, TrashRestore
    from memsearch_tui.engine.api.types import (
        WRITE_MODES,
        Category,
        Document,
        EntryFields,
        EntrySummary,
        FullEntry,
        HistoryItem,
        IndexRefresh,
        JournalDay,
        JournalSession,
        JournalTurn,
        MemsearchScrub,
        Proposal,
        ProposalReview,
        SearchHit,
        SearchResult,
        WriteResult,
    )
    from memsearch_tui.engine.api.vectors import Drift, VectorsReset, VectorStatus
    from memsearch_tui.engine.api.versions import DiffLine, Hunk, VersionDiff
    from memsearch_tui.engine.api.warm_share import MEANING_COMING

_WHERE = {
    **dict.fromkeys(["BatchError", "BatchRow"], "search"),
    **dict.fromkeys(["IndexRefresh", "MemsearchScrub"], "trash"),
    **dict.fromkeys(["Archived", "MoveOutcome", "PlanOutcome"], "lifecycle"),
    **dict.fromkeys(["EntryFields"], "types"),
    **dict.fromkeys(["DiffLine", "Hunk", "VersionDiff"], "versions"),
    **dict.fromkeys(["IndexCheck", "IndexProblem", "MergeDone", "SplitDone", "SplitPlan"], "layout"),
    **dict.fromkeys(["Drift", "VectorStatus", "VectorsReset"], "vectors"),
    "Memory": "memory",
    "MEANING_COMING": "warm_share",
    "to_json": "serialise",
    "describe": "errors",
    "mcp_writes": "settings",
    "redact": "text",
    "redact_text": "text",
    **dict.fromkeys(["CopyRestored", "ExcerptRestored", "Purged", "Restored", "TrashRestore"], "trash"),
    **dict.fromkeys(["HttpToken", "allowed_origins", "bind_loopback", "http_token"], "http_access"),
    **dict.fromkeys(
        [
            "WRITE_MODES", "Category", "Document", "FullEntry", "EntrySummary", "HistoryItem", "Proposal",
            "SearchHit", "SearchResult", "WriteResult",
        ],
        "types",
    ),
    **dict.fromkeys(["JournalDay", "JournalSession", "JournalTurn"], "journal"),
    "ProposalReview": "proposals",
}  # fmt: skip

__all__ = [
    "MEANING_COMING",
    "Archived",
    "BatchError",
    "BatchRow",
    "Category",
    "CopyRestored",
    "DiffLine",
    "Document",
    "Drift",
    "FullEntry",
    "EntryFields",
    "EntrySummary",
    "ExcerptRestored",
    "HistoryItem",
    "HttpToken",
    "Hunk",
    "IndexCheck",
    "IndexProblem",
    "IndexRefresh",
    "JournalDay",
    "JournalSession",
    "JournalTurn",
    "Memory",
    "MemsearchScrub",
    "MergeDone",
    "MoveOutcome",
    "PlanOutcome",
    "Proposal",
    "ProposalReview",
    "Purged",
    "Restored",
    "SearchHit",
    "SearchResult",
    "SplitDone",
    "SplitPlan",
    "TrashRestore",
    "VectorStatus",
    "VectorsReset",
    "VersionDiff",
    "WRITE_MODES",
    "WriteResult",
    "allowed_origins",
    "bind_loopback",
    "describe",
    "http_token",
    "limits",
    "mcp_writes",
    "redact",
    "redact_text",
    "to_json",
]


def lazy_attr(namespace: dict[str, Any], where: dict[str, str], name: str) -> Any:
    """PEP 562's ``__getattr__`` for this package and :mod:`.types`: ``name`` from the module of
    this package ``where`` says defines it, kept in ``namespace`` so it is looked up once."""
    if name not in where:
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where[name]}"), name)
    namespace[name] = value
    return value


def __getattr__(name: str) -> Any:
    return lazy_attr(globals(), _WHERE, name)
