"""Uninstall's side of a plan: each kind of host file with exactly our entries taken out.

What a record says install added comes out in reverse order (so the file is byte for
byte what it was); without a record, only values equal to what this install would write.
A file install created goes when nothing but its seed is left; one it did not create
never does. What looks like ours but has no record is named, not removed.
"""

from __future__ import annotations

import json
from typing import Any

from memsearch_tui.engine.hosts import json_edits, ownership, records, toml_edits, wiring
from memsearch_tui.engine.hosts.files import HostFile
from memsearch_tui.engine.hosts.json_edits import Added, OwnedValue
from memsearch_tui.engine.hosts.wiring import NAME, Launch


def uninstall_json(
    kind: str, f: HostFile, prior: dict[str, Any] | None, host: str, launch: Launch
) -> tuple[bytes | None, list[str]]:
    where = str(f.path)
    text = ownership.decode(f)
    if records.is_legacy(prior) and prior is not None and prior.get("after") == records.sha(f.data or b""):
        return _legacy_restore(f, prior)
    candidates = ownership.recorded(prior, kind, host) or [Added(e) for e in ownership.wanted(kind, host, launch)]
    if not text.strip():
        return f.data, []
    for added in reversed(candidates):
        text = json_edits.take_out(text, added, where) or text
    notices = _foreign_server_notice(kind, text, host, where) + _unrecorded_hook_notice(kind, text, host, where)
    if text.encode("utf-8") == f.data:
        return f.data, notices
    if prior is not None and prior.get("seeded") and text == prior.get("seed"):
        seeded_from = prior.get("seeded_from")
        return (None if seeded_from is None else str(seeded_from).encode("utf-8")), notices
    return text.encode("utf-8"), notices


def _foreign_server_notice(kind: str, text: str, host: str, where: str) -> list[str]:
    if kind != wiring.CLAUDE_MCP:
        return []
    if json_edits.find(text, OwnedValue(("mcpServers",), NAME, None), where) is None:
        return []
    return [f"{where}: 'mcpServers.{NAME}' is not one install wrote; left as it is"]


def _unrecorded_hook_notice(kind: str, text: str, host: str, where: str) -> list[str]:
    """A hook that runs our ``--run-due`` but that no record says install wrote (the record
    was lost, or install was given other options): named, never taken out."""
    if kind not in (wiring.CLAUDE_HOOKS, wiring.CODEX_HOOKS):
        return []
    hooks = json.loads(text).get("hooks")
    found = []
    for event, groups in hooks.items() if isinstance(hooks, dict) else []:
        for i, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler in handlers if isinstance(handlers, list) else []:
                if isinstance(handler, dict) and f"--run-due --hook {host}" in str(handler.get("command", "")):
                    found.append(f"hooks.{event}[{i}]")
    if not found:
        return []
    return [
        f"{where}: {', '.join(found)} run memsearch-tui but install has no record of writing them; left as they are "
        "(run uninstall with the --memory-root/--project install was given, or remove them by hand)"
    ]


def _legacy_restore(f: HostFile, prior: dict[str, Any]) -> tuple[bytes | None, list[str]]:
    """A file an earlier version wrote and nobody touched since: its backup, or gone if it made it."""
    if not prior.get("existed"):
        return None, []
    try:
        return records.backup_path(f.path).read_bytes(), []
    except OSError:
        return f.data, [f"{f.path}: its backup is gone; left as it is — remove the memsearch-tui entries by hand"]


def uninstall_toml(
    f: HostFile, prior: dict[str, Any] | None, host: str, launch: Launch
) -> tuple[bytes | None, list[str]]:
    where = str(f.path)
    text = ownership.decode(f)
    ours = ownership.toml_ours(prior, host) + [wiring.server(host, launch)]
    new = toml_edits.take_out(text, (prior or {}).get("appended"), ours, where)
    if new is None:
        if NAME in toml_edits.servers(toml_edits.load(text, where), where):
            return f.data, [f"{where}: [mcp_servers.{NAME}] is not one install wrote; left as it is"]
        return f.data, []
    if not new.strip() and (prior or {}).get("created"):
        return None, []
    return new.encode("utf-8"), []


def uninstall_skill(f: HostFile, prior: dict[str, Any] | None) -> tuple[bytes | None, list[str]]:
    data = f.data or b""
    if prior is not None and records.is_legacy(prior):
        ours = not prior.get("existed") and prior.get("after") == records.sha(data)
    else:
        ours = prior is not None and bool(prior.get("created")) and prior.get("sha") == records.sha(data)
    if ours:
        return None, []
    if data == ownership.skill_bytes():
        return f.data, [f"{f.path}: no record that install created it; left as it is"]
    return f.data, []
