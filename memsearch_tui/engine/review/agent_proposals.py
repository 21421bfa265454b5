"""Agent writes that wait for a person: remember, revise and forget as store proposals.

With ``[tui.mcp] writes = "review"`` an agent's ``remember``/``revise``/``forget`` do not
touch the store: they become pending proposals next to the lifecycle and split ones
(``<memory root>/.memsearch-tui/proposals/``), shown in the Maintenance pane with the
agent's reason and name. Accepting one runs the very same engine call a direct write
would (every pre-write check again, conflicts kept as versions, forget → trash), inside
a logged transaction, so ``undo`` reverts it.

``payload["moves"]`` holds one display row (action, id, reason) because that is what
the Maintenance pane lists for a store proposal.
"""

from __future__ import annotations

from typing import Any

from memsearch_tui.engine.core.errors import Conflict, InvalidInput
from memsearch_tui.engine.history.txn import ACTOR
from memsearch_tui.engine.store.store import Change, Store

KINDS = ("remember", "revise", "forget")
PREVIEW = 4000  # characters of a proposed body shown with the proposal


def describe(kind: str, target: str, payload: dict[str, Any], *, author: str, reason: str) -> dict[str, Any]:
    """The fields of a pending agent proposal: ``kind``, ``summary``, ``why``, ``payload``
    (``store_proposals._new`` stores it; it also returns the same pending one, not a copy)."""
    if kind not in KINDS:
        raise InvalidInput(f"unknown agent proposal kind {kind!r}")
    who = author or "an agent"
    row = {"action": kind, "id": target, "reason": reason}
    why = f"{who}: {reason}" if reason else f"{who} gave no reason"
    text = payload.get("body")
    if isinstance(text, str) and text:  # the reviewer sees what would be written
        why += "\n\nProposed text:\n" + (text if len(text) <= PREVIEW else text[:PREVIEW] + "\n…")
    return {
        "kind": kind,
        "summary": f"{kind} {target} (from {who})",
        "why": why,
        "payload": {**payload, "author": author, "reason": reason, "moves": [row]},
    }


def apply(store: Store, prop: dict[str, Any]) -> dict[str, Any]:
    """Carry out an accepted agent proposal through the engine's own write paths."""
    from memsearch_tui.engine.curator import trash, versions

    kind, pl = prop["kind"], prop["payload"]
    token = ACTOR.set(f"{pl.get('author') or 'agent'}, accepted {prop['id']}")
    try:
        if kind == "remember":
            return versions.add_entry(
                store,
                pl["category"],
                pl["title"],
                pl["body"],
                tags=list(pl.get("tags") or []),
                importance=pl.get("importance"),
            )
        if kind == "revise":
            entry = store.get(pl["id"])
            expected = pl.get("expected_version")
            if expected is not None and entry.version != expected:
                raise Conflict(
                    f"{entry.id} is at version {entry.version}, the proposal was made against "
                    f"version {expected}; reject it and ask for a fresh one"
                )
            change = Change(
                title=pl.get("title"),
                body=pl.get("body"),
                tags=pl.get("tags"),
                importance=pl.get("importance"),
            )
            return versions.update_entry(store, entry.id, change)
        if kind == "forget":
            return trash.trash(store, pl["id"], pl.get("reason") or "forgotten by an agent")
        raise InvalidInput(f"proposal {prop['id']}: unknown kind {kind!r}")
    finally:
        ACTOR.reset(token)
