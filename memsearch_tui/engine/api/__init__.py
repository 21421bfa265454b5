"""The one typed API the three faces call (CLI, TUI, MCP server); results are dataclasses.

    from memsearch_tui.engine.api import Memory, to_json

    with Memory(memory_root, project, writes="review", actor="mcp:claude-code") as mem:
        res = mem.search("deploy steps", k=5)      # SearchResult
        to_json(res)                               # the dict --json and MCP tools print

The top engine layer: it may import any engine package, nothing imports it but faces.
"""

from __future__ import annotations

from memsearch_tui.engine.api import limits
from memsearch_tui.engine.api.http_access import HttpToken, allowed_origins, bind_loopback, http_token
from memsearch_tui.engine.api.memory import Memory
from memsearch_tui.engine.api.serialise import to_json
from memsearch_tui.engine.api.settings import mcp_writes
from memsearch_tui.engine.api.types import (
    WRITE_MODES,
    Category,
    Document,
    EntrySummary,
    HistoryItem,
    JournalDay,
    JournalSession,
    JournalTurn,
    Proposal,
    ProposalReview,
    SearchHit,
    SearchResult,
    WriteResult,
)
from memsearch_tui.engine.core.secrets import redact as redact_text  # the one redactor, for every face
from memsearch_tui.engine.core.secrets import redact_data as redact

__all__ = [
    "WRITE_MODES",
    "Category",
    "Document",
    "EntrySummary",
    "HistoryItem",
    "HttpToken",
    "JournalDay",
    "JournalSession",
    "JournalTurn",
    "Memory",
    "Proposal",
    "ProposalReview",
    "SearchHit",
    "SearchResult",
    "WriteResult",
    "allowed_origins",
    "bind_loopback",
    "http_token",
    "limits",
    "mcp_writes",
    "redact",
    "redact_text",
    "to_json",
]
