"""Install's side of a plan: each kind of host file with our entries added.

JSON files get our entries spliced in (``json_edits``), Codex's TOML our table appended
(``toml_edits``), the skill its file; an entry under our name that install did not write
is left alone with a notice. Each returns the new bytes, the record to keep, the notices.
"""

from __future__ import annotations

from typing import Any

from memsearch_tui.engine.hosts import json_edits, json_text, ownership, records, toml_edits, wiring
from memsearch_tui.engine.hosts.files import HostFile
from memsearch_tui.engine.hosts.json_edits import Added, OwnedValue
from memsearch_tui.engine.hosts.wiring import NAME, Launch


def install_json(
    kind: str, f: HostFile, prior: dict[str, Any] | None, host: str, launch: Launch
) -> tuple[bytes | None, dict[str, Any], list[str]]:
    where = str(f.path)
    text = ownership.decode(f)
    seeded = not text.strip()
    base = json_edits.SEED + "\n" if seeded else text
    if kind in (wiring.CLAUDE_HOOKS, wiring.CODEX_HOOKS):
        json_edits.check_hook_groups(base, where)
    style = json_text.style_of(base)
    wanted = ownership.wanted(kind, host, launch)
    ours = ownership.recorded(prior, kind, host)
    for old in reversed(ours):  # ours from an earlier install that this one writes differently
        if old.entry not in wanted and old.entry.key is None:
            base = json_edits.take_out(base, old, where) or base
    kept: list[Added] = []
    notices: list[str] = []
    for entry in wanted:
        base, added, note = _put(base, entry, ours, style, where)
        kept += [added] if added is not None else []
        notices += [note] if note else []
    if base == (json_edits.SEED + "\n" if seeded else text):
        return f.data, {}, notices
    rec: dict[str, Any] = {"entries": [a.to_record() for a in kept]}
    if seeded or (prior or {}).get("seeded"):
        rec |= {"seeded": True, "seed": json_edits.SEED + "\n", "seeded_from": _seeded_from(f, prior)}
    return base.encode("utf-8"), rec, notices


def _seeded_from(f: HostFile, prior: dict[str, Any] | None) -> str | None:
    if prior is not None and prior.get("seeded"):
        value = prior.get("seeded_from")
        return value if isinstance(value, str) else None
    return None if f.data is None else f.data.decode("utf-8")


def _put(
    text: str, entry: OwnedValue, ours: list[Added], style: json_text.Style, where: str
) -> tuple[str, Added | None, str]:
    """Add one entry; reuse what is already ours; never touch a user's entry under our name."""
    previous = next((a for a in ours if a.entry.where == entry.where and a.entry.key == entry.key), None)
    if entry.key is not None:
        node = json_edits.find(text, entry, where)
        if node is not None:
            current = json_text.value_of(text, node)
            if current != entry.value and not any(current == a.entry.value for a in ours):
                dotted = ".".join((*entry.where, entry.key))
                return text, None, f"{where}: '{dotted}' is not one install wrote; left as it is"
            if current != entry.value:
                text = json_edits.replace_member(text, entry, style, where)
            return text, _rebased(previous, entry), ""
    new, added = json_edits.add(text, entry, style, where)
    if added is None:  # an equal value is there already
        same = next((a for a in ours if a.entry == entry), None)
        return text, same or Added(entry), ""
    return new, added, ""


def _rebased(previous: Added | None, entry: OwnedValue) -> Added:
    if previous is None:
        return Added(entry)
    return Added(entry, previous.created, previous.inner)


def install_toml(
    f: HostFile, prior: dict[str, Any] | None, host: str, launch: Launch
) -> tuple[bytes | None, dict[str, Any], list[str]]:
    where = str(f.path)
    text = ownership.decode(f)
    want = wiring.server(host, launch)
    current = toml_edits.servers(toml_edits.load(text, where), where).get(NAME)
    if current == want:
        return f.data, {}, []
    ours = ownership.toml_ours(prior, host)
    if current is not None and current not in ours:
        return f.data, {}, [f"{where}: [mcp_servers.{NAME}] is not one install wrote; left as it is"]
    if current is not None:
        text = toml_edits.take_out(text, (prior or {}).get("appended"), ours, where) or text
    new, appended = toml_edits.add(text, want, where)
    return new.encode("utf-8"), {"appended": appended, "value": want, "created": not f.exists}, []


def install_skill(f: HostFile, prior: dict[str, Any] | None) -> tuple[bytes | None, dict[str, Any], list[str]]:
    packaged = ownership.skill_bytes()
    if f.data == packaged:
        return f.data, {}, []
    created = f.data is None or bool((prior or {}).get("created"))
    if f.data is not None and (prior is None or prior.get("sha") != records.sha(f.data)):
        return f.data, {}, [f"{f.path}: not the skill install wrote; left as it is"]
    return packaged, {"created": created, "sha": records.sha(packaged)}, []
