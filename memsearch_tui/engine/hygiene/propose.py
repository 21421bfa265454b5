"""``hygiene --propose``: each finding whose fix is a store change becomes a pending store
proposal, reviewed where every other one is (``proposals``, the Maintenance pane).

* duplicate entries → ``merge`` (the newer keeps the older's lines it lacks; the older to
  the trash noted "merged into"; the newer's old text kept as a version);
* a contradiction between entries, a stale entry → a lifecycle proposal archiving (or
  expiring) the older one;
* a secret in an entry → ``redact`` (``core.secrets.redact``: each becomes
  ``[secret removed: <rule>]``);
* dead references in an entry with a near existing path → one ``fix-reference``.

An over-long Claude Code ``MEMORY.md`` → an agent-memory ``condense`` proposal (the tail
the host cuts moves into a topic file beside it, a pointer line stays:
``engine/agent_memory/condense``). Any other host file or journal is never changed here:
those findings keep ``proposal`` "". Filing the same pending proposal again returns the
one already there.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.secrets import redact
from memsearch_tui.engine.hygiene.records import Finding, HygieneReport
from memsearch_tui.engine.review import hygiene_proposals, store_proposals
from memsearch_tui.engine.store.store import Store


def propose(store: Store, report: HygieneReport, project: Path | None = None) -> HygieneReport:
    """``report`` with each proposable finding's ``proposal`` id filled in (an over-long
    host file only with its ``project``; store fixes only when the store exists)."""
    live = {}
    if store.exists():
        for entry_id, _ in store.entry_paths():
            live[entry_id] = True
    fixes = _reference_fixes(store, [f for f in report.findings if f.kind == "dead-reference"], live)
    out = []
    for f in report.findings:
        try:
            if f.kind == "over-long":
                pid = _condense(project, f) if project is not None else ""
            elif f.kind == "dead-reference":
                pid = fixes.get(f.ids[0], "")
            else:
                pid = _one(store, f, live) if live else ""
        except MemsearchError:  # the entry or file changed or went meanwhile: reported, not proposed
            pid = ""
        out.append(dataclasses.replace(f, proposal=pid))
    return dataclasses.replace(report, findings=tuple(out))


def _condense(project: Path, f: Finding) -> str:
    """An agent-memory proposal condensing an over-long Claude Code index ("" for any other host file)."""
    if not f.fix.startswith("condense: "):
        return ""
    from memsearch_tui.engine.agent_memory.condense import condense

    made = condense(project, f.ids[0])
    return made.id if made is not None else ""


# What a redact writes: not the display mask ``[redacted: <kind>]``, which the diff's old
# side shows too, so that a person reviewing the proposal sees the line change.
REMOVED = "[secret removed: {kind}]"


def _one(store: Store, f: Finding, live: dict[str, bool]) -> str:
    if not all(i in live for i in f.ids[:2] if f.kind in ("duplicate", "contradiction")):
        return ""  # a host file or journal is involved
    if f.kind == "secret" and f.ids[0] in live:
        entry = store.get(f.ids[0])
        body = redact(entry.body, REMOVED)
        payload = {"body": body, "expected_version": entry.version}
        return _file(store, "redact", entry.id, payload, f"redact {entry.id}", "; ".join(f.evidence))
    if f.kind == "duplicate":
        from memsearch_tui.engine.curator.merge_entries import merged_body

        old, new = store.get(f.ids[0]), store.get(f.ids[1])
        payload = {
            "drop": old.id,
            "body": merged_body(new.body, old.body),
            "versions": {old.id: old.version, new.id: new.version},
        }
        return _file(store, "merge", new.id, payload, f"merge {old.id} into {new.id}", f.evidence[-1])
    if f.kind == "contradiction":
        return _archive(store, "archive", f.ids[0], f"contradicts the newer {f.ids[1]}: {f.evidence[-1]}")
    if f.kind == "stale":
        action = f.fix.split(" ", 1)[0]
        return _archive(store, action if action in ("archive", "expire") else "archive", f.ids[0], f.evidence[0])
    return ""


def _archive(store: Store, action: str, entry_id: str, reason: str) -> str:
    move = {"action": action, "id": entry_id, "reason": reason, "since": clock.today().isoformat()}
    prop = store_proposals._new(
        store.root, "lifecycle", f"hygiene: {action} {entry_id}", f"hygiene: {reason}", {"moves": [move]}
    )
    return str(prop["id"])


def _file(store: Store, kind: str, entry_id: str, payload: dict[str, Any], summary: str, reason: str) -> str:
    d = hygiene_proposals.describe(kind, entry_id, payload, summary=summary, reason=reason)
    return str(store_proposals._new(store.root, d["kind"], d["summary"], d["why"], d["payload"])["id"])


def _reference_fixes(store: Store, found: list[Finding], live: dict[str, bool]) -> dict[str, str]:
    """One ``fix-reference`` per entry: each dead path with a nearest existing one replaced."""
    by_entry: dict[str, list[tuple[str, str]]] = {}
    for f in found:
        near = f.fix.removeprefix(f"replace {f.ids[1]} with ") if f.fix.startswith("replace ") else ""
        if f.ids[0] in live and near:
            by_entry.setdefault(f.ids[0], []).append((f.ids[1], near))
    out = {}
    for entry_id, pairs in by_entry.items():
        try:
            entry = store.get(entry_id)
        except MemsearchError:
            continue
        body = entry.body
        for ref, near in pairs:
            body = re.sub(rf"(?<![\w/.-]){re.escape(ref)}(?![\w/-])", near, body)
        if body == entry.body:
            continue
        payload = {"body": body, "expected_version": entry.version}
        refs = ", ".join(f"{a} → {b}" for a, b in pairs)
        out[entry_id] = _file(store, "fix-reference", entry_id, payload, f"fix references in {entry_id}", refs)
    return out
