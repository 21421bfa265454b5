"""The one prompt: how an agent should use this memory well."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

from memsearch_tui.engine.api import Memory

GUIDE = """\
You have a long-term memory through the memsearch-tui tools. Use it like this:

1. Before answering about past work, decisions, conventions or the user's preferences,
   `search` for it (a few specific words work best). `read` a hit's id (or its lines)
   when the snippet is not enough. `journal` shows what happened on a day.
2. Remember only durable facts: decisions, conventions, preferences, gotchas, how-tos.
   Not transient chat, not secrets (credentials are refused), not whole files.
3. Before `remember`, `search` for the topic. If an entry exists, `revise` it (pass the
   `expected_version` you read) instead of adding a near-duplicate; duplicates are refused.
   Use `categories` to pick an existing category; one topic per entry, a clear title.
4. If a fact is wrong or obsolete, `revise` it, or `forget` it with a reason (it goes to
   the trash, never deleted). Contradicting text is kept as a version, not lost.
5. For PROJECT.md or USER.md, `propose` the full new text with a reason.
6. Writes are in {mode} mode.{review_note} Always give a `reason`: a person reads it.
"""

NOTES = {
    "review": " Your remember/revise/forget become proposals that a person accepts or "
    "rejects; `proposals` shows their status. Do not retry a pending write.",
    "direct": " Changes apply at once and are in the undo history under your client's name.",
    "read-only": " You cannot change the memory; tell the user what you would save instead.",
}


def register(server: MCPServer, memory: Memory) -> None:
    @server.prompt(name="use-memory", title="Use the memory well")
    def use_memory() -> str:
        """How to search, read and remember without duplicating; writes may wait for review."""
        return GUIDE.format(mode=memory.writes, review_note=NOTES[memory.writes])
