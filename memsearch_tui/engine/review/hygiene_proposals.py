"""The fixes ``hygiene --propose`` files as store proposals: merge two duplicate entries,
redact the secrets of an entry, fix a dead reference in an entry.

Each payload names the entry (``id``), the whole new body, the version(s) it was made
against and one display row (``moves``: what the Maintenance pane lists). Accepting one
is one logged transaction (``undo`` reverts it): a merge through
:mod:`~memsearch_tui.engine.curator.merge_entries` (the other entry to the trash, the kept
one's old text kept as a version), a redaction or a fixed path through ``Store.update``
(every write check again). An entry changed since the proposal was made is a Conflict.
Settling a contradiction and a stale entry are plain lifecycle proposals (archive).
"""

from __future__ import annotations

from typing import Any

from memsearch_tui.engine.core.errors import Conflict, InvalidInput
from memsearch_tui.engine.history.txn import ACTOR
from memsearch_tui.engine.store.store import Change, Store

KINDS = ("merge", "redact", "fix-reference")
AUTHOR = "hygiene"


def describe(kind: str, entry_id: str, payload: dict[str, Any], *, summary: str, reason: str) -> dict[str, Any]:
    """The fields of a pending hygiene proposal (``store_proposals._new`` stores them)."""
    if kind not in KINDS:
        raise InvalidInput(f"unknown hygiene proposal kind {kind!r}")
    row = {"action": kind, "id": entry_id, "reason": reason}
    if kind == "merge":
        row.update(action="merge", id=str(payload["drop"]), to=entry_id)
    return {
        "kind": kind,
        "summary": summary,
        "why": f"hygiene: {reason}",
        "payload": {**payload, "id": entry_id, "author": AUTHOR, "reason": reason, "moves": [row]},
    }


def ids(prop: dict[str, Any]) -> list[str]:
    """Every store id a hygiene proposal names (``store_proposals.check_shape`` checks them)."""
    pl = prop["payload"]
    out = [pl.get("id")]
    if prop["kind"] == "merge":
        out.append(pl.get("drop"))
    if not all(isinstance(i, str) for i in out) or not isinstance(pl.get("body"), str):
        raise InvalidInput(f"a {prop['kind']} proposal needs entry ids and a body")
    return [str(i) for i in out]


def apply(store: Store, prop: dict[str, Any]) -> dict[str, Any]:
    """Carry out an accepted hygiene proposal (one logged transaction)."""
    pl = prop["payload"]
    token = ACTOR.set(f"{AUTHOR}, accepted {prop['id']}")
    try:
        if prop["kind"] == "merge":
            from memsearch_tui.engine.curator.merge_entries import merge

            versions = {str(k): int(v) for k, v in dict(pl.get("versions") or {}).items()}
            return merge(store, pl["id"], pl["drop"], pl["body"], versions)
        entry = store.get(pl["id"])
        if entry.version != pl.get("expected_version"):
            raise Conflict(
                f"{entry.id} is at version {entry.version}, the proposal was made against version "
                f"{pl.get('expected_version')}; reject it and run hygiene again"
            )
        new = store.update(entry.id, Change(body=pl["body"]))
        return {"updated": new.id, "version": new.version}
    finally:
        ACTOR.reset(token)


def review(store: Store, prop: dict[str, Any]) -> dict[str, Any]:
    """The entry's body now and as accept writes it, and what else happens."""
    pl = prop["payload"]
    entry = store.get(str(pl["id"]))
    note = ""
    if prop["kind"] == "merge":
        note = f"{pl['drop']} moves to the trash, noted as merged into {entry.id}; {entry.id} v{entry.version} is kept"
    return {"fields": [], "before": entry.body, "after": str(pl["body"]), "note": note}
