"""What counts as ours in a host file: the entries this install writes, the shapes an
earlier version wrote, and what a file's record says install added."""

from __future__ import annotations

from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.hosts import json_edits, records, wiring
from memsearch_tui.engine.hosts.files import HostFile
from memsearch_tui.engine.hosts.json_edits import Added, OwnedValue
from memsearch_tui.engine.hosts.wiring import NAME, Launch


def wanted(kind: str, host: str, launch: Launch) -> list[OwnedValue]:
    if kind in (wiring.CLAUDE_HOOKS, wiring.CODEX_HOOKS):
        return [OwnedValue(("hooks", ev), None, wiring.hook_group(host, ev, launch)) for ev in wiring.hook_events(host)]
    return [OwnedValue(("mcpServers",), NAME, wiring.server(host, launch))]


def legacy(kind: str, host: str) -> list[OwnedValue]:
    """What a pre-record version of install wrote (ours only when such a record exists)."""
    if kind in (wiring.CLAUDE_HOOKS, wiring.CODEX_HOOKS):
        return [OwnedValue(("hooks", ev), None, wiring.legacy_hook_group(host, ev)) for ev in wiring.hook_events(host)]
    return [OwnedValue(("mcpServers",), NAME, wiring.legacy_server(host))]


def recorded(prior: dict[str, Any] | None, kind: str, host: str) -> list[Added]:
    """Our entries in this file by its record (a legacy record: the shapes that version wrote)."""
    if prior is None:
        return []
    if records.is_legacy(prior):  # that version took out the containers it emptied; so do we
        return [Added(e, [list(e.where[: i + 1]) for i in range(len(e.where))]) for e in legacy(kind, host)]
    return [a for a in map(json_edits.entry_from_record, prior.get("entries") or []) if a is not None]


def toml_ours(prior: dict[str, Any] | None, host: str) -> list[dict[str, Any]]:
    if prior is None:
        return []
    if records.is_legacy(prior):
        return [wiring.legacy_server(host)]
    value = prior.get("value")
    return [value] if isinstance(value, dict) else []


def skill_bytes() -> bytes:
    try:
        return wiring.SKILL_SOURCE.read_bytes()
    except OSError:
        raise InvalidInput(f"{wiring.SKILL_SOURCE}: the skill file is missing from this installation") from None


def decode(f: HostFile) -> str:
    try:
        return (f.data or b"").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"{f.path}: not UTF-8 text (byte {exc.start}); fix it by hand first", path=str(f.path)
        ) from None
