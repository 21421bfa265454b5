"""Plan an install or uninstall as exact file edits, then apply them.

``plan_install`` / ``plan_uninstall`` read every host file and compute its new bytes and
a unified diff, touching nothing (``--dry-run`` stops there). ``apply`` re-reads each file
and refuses if it changed since the plan, keeps a backup of a file it edits for the
first time, writes through symlinks with the file's own mode, and records what it added.

What the plan will not do is said in ``notices`` (an entry of the user's own under our
name, a skill file that is not ours, a file left in place because we did not create it).
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.hosts import files, json_edits, json_text, records, toml_edits, wiring
from memsearch_tui.engine.hosts.files import HostFile
from memsearch_tui.engine.hosts.json_edits import Added, Entry
from memsearch_tui.engine.hosts.wiring import NAME, Launch


@dataclass(frozen=True)
class FileEdit:
    """One file install (or uninstall) changes: its bytes before and after, and the diff."""

    path: str
    kind: str
    before: bytes | None
    after: bytes | None  # None: the file is removed
    diff: str
    record: dict[str, Any] | None = field(default=None, compare=False)  # saved after the write; None: forgotten
    prior: dict[str, Any] | None = field(default=None, compare=False)  # the record before this edit
    source: HostFile | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class HostPlan:
    host: str
    scope: str
    action: str  # install | uninstall
    edits: tuple[FileEdit, ...]
    notices: tuple[str, ...] = ()  # what the plan leaves alone, and why
    advice: tuple[str, ...] = ()  # what the user still does in the host (trust, approval)


@dataclass(frozen=True)
class HostResult:
    host: str
    scope: str
    action: str
    written: tuple[str, ...]
    removed: tuple[str, ...]
    backups: tuple[str, ...]
    folders_removed: tuple[str, ...]
    notices: tuple[str, ...]
    advice: tuple[str, ...]
    diff: str


def check(host: str, scope: str) -> None:
    if host not in wiring.HOSTS:
        raise InvalidInput(f"unknown host {host!r}: choose {' or '.join(wiring.HOSTS)}")
    if scope not in wiring.SCOPES:
        raise InvalidInput(f"unknown scope {scope!r}: choose --project or --user")


# -- planning ------------------------------------------------------------------------------
def plan_install(host: str, scope: str, *, project: Path, home: Path, data_dir: Path, launch: Launch) -> HostPlan:
    """Every change ``install`` would make (nothing is written)."""
    return _plan("install", host, scope, project, home, data_dir, launch)


def plan_uninstall(host: str, scope: str, *, project: Path, home: Path, data_dir: Path, launch: Launch) -> HostPlan:
    """Every change ``uninstall`` would make: only what install wrote comes out."""
    return _plan("uninstall", host, scope, project, home, data_dir, launch)


_Change = tuple[bytes | None, dict[str, Any] | None, list[str]]  # new bytes, record to save, notices


def _plan(action: str, host: str, scope: str, project: Path, home: Path, data_dir: Path, launch: Launch) -> HostPlan:
    check(host, scope)
    edits, notices = [], []
    for kind, path in wiring.targets(host, scope, project, home):
        f = files.read(path)
        prior = records.load(data_dir, path)
        if action == "uninstall" and f.data is None:
            continue
        after, rec, notes = _change(action, kind, f, prior, host, launch)
        notices += notes
        if after != f.data:
            files.check_writable(f)
            if rec is not None:
                rec = {**rec, "kind": kind, "folders": _folders(f, prior), "backup": (prior or {}).get("backup")}
            edits.append(_edit(kind, f, after, rec, prior))
    advice = wiring.advice(host, scope, project) if action == "install" else []
    return HostPlan(host, scope, action, tuple(edits), tuple(notices), tuple(advice))


def _change(action: str, kind: str, f: HostFile, prior: dict[str, Any] | None, host: str, launch: Launch) -> _Change:
    """One file's new bytes, by kind; an uninstall's record is None (it is forgotten)."""
    if action == "install":
        if kind == wiring.SKILL:
            return _install_skill(f, prior)
        if kind == wiring.CODEX_MCP:
            return _install_toml(f, prior, host, launch)
        return _install_json(kind, f, prior, host, launch)
    if kind == wiring.SKILL:
        after, notes = _uninstall_skill(f, prior)
    elif kind == wiring.CODEX_MCP:
        after, notes = _uninstall_toml(f, prior, host, launch)
    else:
        after, notes = _uninstall_json(kind, f, prior, host, launch)
    return after, None, notes


def _wanted(kind: str, host: str, launch: Launch) -> list[Entry]:
    if kind in (wiring.CLAUDE_HOOKS, wiring.CODEX_HOOKS):
        return [Entry(("hooks", ev), None, wiring.hook_group(host, ev, launch)) for ev in wiring.hook_events(host)]
    return [Entry(("mcpServers",), NAME, wiring.server(host, launch))]


def _legacy(kind: str, host: str) -> list[Entry]:
    """What a pre-record version of install wrote (ours only when such a record exists)."""
    if kind in (wiring.CLAUDE_HOOKS, wiring.CODEX_HOOKS):
        return [Entry(("hooks", ev), None, wiring.legacy_hook_group(host, ev)) for ev in wiring.hook_events(host)]
    return [Entry(("mcpServers",), NAME, wiring.legacy_server(host))]


def _recorded(prior: dict[str, Any] | None, kind: str, host: str) -> list[Added]:
    """Our entries in this file by its record (a legacy record: the shapes that version wrote)."""
    if prior is None:
        return []
    if records.is_legacy(prior):  # that version took out the containers it emptied; so do we
        return [Added(e, [list(e.where[: i + 1]) for i in range(len(e.where))]) for e in _legacy(kind, host)]
    return [a for a in map(json_edits.entry_from_record, prior.get("entries") or []) if a is not None]


def _install_json(
    kind: str, f: HostFile, prior: dict[str, Any] | None, host: str, launch: Launch
) -> tuple[bytes | None, dict[str, Any], list[str]]:
    where = str(f.path)
    text = _decode(f)
    seeded = not text.strip()
    base = json_edits.SEED + "\n" if seeded else text
    if kind in (wiring.CLAUDE_HOOKS, wiring.CODEX_HOOKS):
        json_edits.check_hook_groups(base, where)
    style = json_text.style_of(base)
    wanted = _wanted(kind, host, launch)
    ours = _recorded(prior, kind, host)
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
    text: str, entry: Entry, ours: list[Added], style: json_text.Style, where: str
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


def _rebased(previous: Added | None, entry: Entry) -> Added:
    if previous is None:
        return Added(entry)
    return Added(entry, previous.created, previous.inner)


def _install_toml(
    f: HostFile, prior: dict[str, Any] | None, host: str, launch: Launch
) -> tuple[bytes | None, dict[str, Any], list[str]]:
    where = str(f.path)
    text = _decode(f)
    want = wiring.server(host, launch)
    current = toml_edits.servers(toml_edits.load(text, where), where).get(NAME)
    if current == want:
        return f.data, {}, []
    ours = _toml_ours(prior, host)
    if current is not None and current not in ours:
        return f.data, {}, [f"{where}: [mcp_servers.{NAME}] is not one install wrote; left as it is"]
    if current is not None:
        text = toml_edits.take_out(text, (prior or {}).get("appended"), ours, where) or text
    new, appended = toml_edits.add(text, want, where)
    return new.encode("utf-8"), {"appended": appended, "value": want, "created": not f.exists}, []


def _toml_ours(prior: dict[str, Any] | None, host: str) -> list[dict[str, Any]]:
    if prior is None:
        return []
    if records.is_legacy(prior):
        return [wiring.legacy_server(host)]
    value = prior.get("value")
    return [value] if isinstance(value, dict) else []


def _install_skill(f: HostFile, prior: dict[str, Any] | None) -> tuple[bytes | None, dict[str, Any], list[str]]:
    packaged = _skill_bytes()
    if f.data == packaged:
        return f.data, {}, []
    created = f.data is None or bool((prior or {}).get("created"))
    if f.data is not None and (prior is None or prior.get("sha") != records.sha(f.data)):
        return f.data, {}, [f"{f.path}: not the skill install wrote; left as it is"]
    return packaged, {"created": created, "sha": records.sha(packaged)}, []


def _skill_bytes() -> bytes:
    try:
        return wiring.SKILL_SOURCE.read_bytes()
    except OSError:
        raise InvalidInput(f"{wiring.SKILL_SOURCE}: the skill file is missing from this installation") from None


# -- uninstall -----------------------------------------------------------------------------
def _uninstall_json(
    kind: str, f: HostFile, prior: dict[str, Any] | None, host: str, launch: Launch
) -> tuple[bytes | None, list[str]]:
    where = str(f.path)
    text = _decode(f)
    if records.is_legacy(prior) and prior is not None and prior.get("after") == records.sha(f.data or b""):
        return _legacy_restore(f, prior)
    candidates = _recorded(prior, kind, host) or [Added(e) for e in _wanted(kind, host, launch)]
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
    if json_edits.find(text, Entry(("mcpServers",), NAME, None), where) is None:
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


def _uninstall_toml(
    f: HostFile, prior: dict[str, Any] | None, host: str, launch: Launch
) -> tuple[bytes | None, list[str]]:
    where = str(f.path)
    text = _decode(f)
    ours = _toml_ours(prior, host) + [wiring.server(host, launch)]
    new = toml_edits.take_out(text, (prior or {}).get("appended"), ours, where)
    if new is None:
        if NAME in toml_edits.servers(toml_edits.load(text, where), where):
            return f.data, [f"{where}: [mcp_servers.{NAME}] is not one install wrote; left as it is"]
        return f.data, []
    if not new.strip() and (prior or {}).get("created"):
        return None, []
    return new.encode("utf-8"), []


def _uninstall_skill(f: HostFile, prior: dict[str, Any] | None) -> tuple[bytes | None, list[str]]:
    data = f.data or b""
    if prior is not None and records.is_legacy(prior):
        ours = not prior.get("existed") and prior.get("after") == records.sha(data)
    else:
        ours = prior is not None and bool(prior.get("created")) and prior.get("sha") == records.sha(data)
    if ours:
        return None, []
    if data == _skill_bytes():
        return f.data, [f"{f.path}: no record that install created it; left as it is"]
    return f.data, []


# -- apply ---------------------------------------------------------------------------------
def apply(p: HostPlan, *, data_dir: Path) -> HostResult:
    """Write a plan: every file re-checked first, backups before the first edit, records after."""
    for e in p.edits:
        assert e.source is not None
        files.check_unchanged(e.source)
    written: list[str] = []
    removed: list[str] = []
    backups: list[str] = []
    folders: list[str] = []
    for e in p.edits:
        f = e.source
        assert f is not None
        record = dict(e.record) if e.record is not None else None
        if record is not None and f.data is not None and not record.get("backup"):
            backups.append(str(records.keep_backup(f.path, f.data, f.mode or 0o644)))
            record["backup"] = records.sha(f.data)
        if e.after is None:
            Path(f.path).unlink()
            removed.append(e.path)
        else:
            files.write(f, e.after)
            written.append(e.path)
        if record is not None:
            records.save(data_dir, f.path, record)
        else:
            records.forget(data_dir, f.path)
            records.drop_backup(f.path, (e.prior or {}).get("backup") or _legacy_backup(e.prior))
            folders += [str(x) for x in (e.prior or {}).get("folders") or []]
    gone = _remove_empty(folders) if p.action == "uninstall" else []
    diff = "".join(e.diff for e in p.edits)
    return HostResult(
        p.host,
        p.scope,
        p.action,
        tuple(written),
        tuple(removed),
        tuple(backups),
        tuple(gone),
        p.notices,
        p.advice,
        diff,
    )


def _legacy_backup(prior: dict[str, Any] | None) -> str | None:
    """An earlier version kept ``.memsearch-tui.bak`` without its sha: ours if the record says it existed."""
    if prior is None or not records.is_legacy(prior) or not prior.get("existed"):
        return None
    backup = records.backup_path(Path(str(prior.get("path", ""))))
    try:
        return records.sha(backup.read_bytes())
    except OSError:
        return None


def _remove_empty(folders: list[str]) -> list[str]:
    """The folders install created, deepest first, where nothing else has been put since."""
    gone = []
    for folder in sorted(set(folders), key=lambda p: p.count("/"), reverse=True):
        try:
            Path(folder).rmdir()
            gone.append(folder)
        except OSError:
            pass
    return gone


# -- helpers -------------------------------------------------------------------------------
def _folders(f: HostFile, prior: dict[str, Any] | None) -> list[str]:
    if prior is not None and prior.get("folders"):
        return [str(x) for x in prior["folders"]]
    return [str(p) for p in files.missing_folders(f.target)] if f.data is None else []


def _decode(f: HostFile) -> str:
    try:
        return (f.data or b"").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"{f.path}: not UTF-8 text (byte {exc.start}); fix it by hand first", path=str(f.path)
        ) from None


def _edit(
    kind: str, f: HostFile, after: bytes | None, rec: dict[str, Any] | None, prior: dict[str, Any] | None
) -> FileEdit:
    a = (f.data or b"").decode("utf-8", "replace").splitlines(keepends=True)
    b = (after or b"").decode("utf-8", "replace").splitlines(keepends=True)
    name = str(f.path)
    diff = "".join(
        difflib.unified_diff(
            a,
            b,
            fromfile=name if f.data is not None else "/dev/null",
            tofile=name if after is not None else "/dev/null",
        )
    )
    if diff and not diff.endswith("\n"):
        diff += "\n"
    return FileEdit(name, kind, f.data, after, diff, rec, prior, f)
