"""Agent writes that wait for a person: remember, revise and forget as store proposals.

With ``[tui.mcp] writes = "review"`` an agent's ``remember``/``revise``/``forget`` do not
touch the store: they become pending proposals next to the lifecycle and split ones
(``<memory root>/.memsearch-tui/proposals/``), shown in the Maintenance pane with the
agent's reason and name. Accepting one runs the very same engine call a direct write
would (every pre-write check again, conflicts kept as versions, forget → trash), inside
a logged transaction, so ``undo`` reverts it.

``payload["moves"]`` holds one display row (action, id, reason) because that is what
the Maintenance pane lists for a store proposal. What a reviewer sees is :func:`review`:
the whole proposed body (never a preview cut short: accept writes all of it) and each
field that changes, so a title/tags/importance-only revise is visible too.
"""

from __future__ import annotations

from typing import Any

from memsearch_tui.engine.core.errors import Conflict, InvalidInput
from memsearch_tui.engine.history.txn import ACTOR
from memsearch_tui.engine.store.store import Change, Store

KINDS = ("remember", "revise", "forget")
FIELDS = ("title", "tags", "importance")


def describe(kind: str, target: str, payload: dict[str, Any], *, author: str, reason: str) -> dict[str, Any]:
    """The fields of a pending agent proposal: ``kind``, ``summary``, ``why``, ``payload``
    (``store_proposals._new`` stores it; it also returns the same pending one, not a copy)."""
    if kind not in KINDS:
        raise InvalidInput(f"unknown agent proposal kind {kind!r}")
    who = author or "an agent"
    row = {"action": kind, "id": target, "reason": reason}
    why = f"{who}: {reason}" if reason else f"{who} gave no reason"
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


def review(store: Store, prop: dict[str, Any]) -> dict[str, Any]:
    """What accepting the agent proposal ``prop`` changes, in full.

    ``fields``: (field, now, proposed) for each of title, tags, importance (and category
    for a remember) that changes; ``before``/``after``: the entry's body now and as
    accept writes it (``""`` for a new entry, resp. an entry going to the trash);
    ``note``: what happens beyond the text (the trash, a version kept on conflict).
    """
    kind, pl = prop["kind"], prop["payload"]
    if kind == "remember":
        fields = [("category", "", str(pl.get("category") or ""))]
        fields += [(f, "", _shown(pl.get(f))) for f in FIELDS if pl.get(f) not in (None, [], "")]
        note = "a new entry (an existing entry on the same topic is updated, or kept as a version if it contradicts)"
        return _review(fields, "", str(pl.get("body") or ""), note)
    entry = store.get(str(pl["id"]))
    if kind == "forget":
        return _review([], entry.body, "", f"{entry.id} moves to the trash (restorable; nothing is purged)")
    now = {"title": entry.title, "tags": entry.tags, "importance": entry.importance}
    fields = [(f, _shown(now[f]), _shown(pl[f])) for f in FIELDS if pl.get(f) is not None and pl[f] != now[f]]
    after = entry.body if pl.get("body") is None else str(pl["body"])
    note = "" if after != entry.body else "the body stays as it is"
    return _review(fields, entry.body, after, note)


def _review(fields: list[tuple[str, str, str]], before: str, after: str, note: str) -> dict[str, Any]:
    return {"fields": fields, "before": before, "after": after, "note": note}


def review_diff(entry_id: str, rev: dict[str, Any]) -> list[str]:
    """A :func:`review` as unified-diff lines: one ``-``/``+`` pair per changed field, then
    the body's diff (difflib), every line of it, each body masked whole first (masked per
    line after the diff, a token wrapped over lines printed in clear)."""
    from memsearch_tui.engine.core.secrets import redact
    from memsearch_tui.engine.core.text import unified_diff

    out = [f"@@ {field} @@\n-{now}\n+{new}\n" for field, now, new in rev["fields"]]
    return out + unified_diff(redact(rev["before"]), redact(rev["after"]), f"{entry_id} now", f"{entry_id} proposed")


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)
