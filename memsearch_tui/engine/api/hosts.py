"""Wire memsearch-tui into an agent host: hooks, the MCP server and the skill.

``plan(host, scope, …)`` computes every file change as (before, after) bytes plus a
unified diff, touching nothing; ``apply`` writes them atomically after keeping a backup
(``<file>.memsearch-tui.bak``) and a record of what it wrote; ``plan_uninstall`` takes out
exactly what install added: when a file still holds the bytes install wrote, the backup
comes back byte for byte (or the file goes, if install created it); when the user has
edited it since, only our entries are removed and everything else is left alone.

Existing content is merged, never replaced: JSON keeps its indentation and key order;
TOML is edited with tomlkit, so comments and layout stay.

* Claude Code: hooks in ``.claude/settings.json`` (``Stop`` and ``SessionEnd`` run
  ``memsearch-tui --run-due --hook claude-code`` with ``"async": true``), the server in
  ``.mcp.json`` (project) or ``~/.claude.json`` (user), the skill in ``.claude/skills/``.
* Codex: the server in ``.codex/config.toml`` (``[mcp_servers.memsearch-tui]``), the
  ``Stop`` hook in ``.codex/hooks.json``, the skill in ``.agents/skills/``.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.atomic import atomic_write_bytes
from memsearch_tui.engine.core.errors import InvalidInput, NotFound
from memsearch_tui.engine.core.safe_io import load_json, loads_json

HOSTS = ("claude-code", "codex")
SCOPES = ("project", "user")
NAME = "memsearch-tui"
HOOK_MARK = "memsearch-tui --run-due"
BACKUP_SUFFIX = ".memsearch-tui.bak"
SKILL_SOURCE = Path(__file__).resolve().parents[2] / "skills" / NAME / "SKILL.md"  # package data


@dataclass(frozen=True)
class FileEdit:
    """One file install (or uninstall) changes: its bytes before and after, and the diff."""

    path: str
    before: bytes | None
    after: bytes | None  # None: the file is removed
    diff: str


@dataclass(frozen=True)
class HostPlan:
    host: str
    scope: str
    action: str  # install | uninstall
    edits: tuple[FileEdit, ...]


@dataclass(frozen=True)
class HostResult:
    host: str
    scope: str
    action: str
    written: tuple[str, ...]
    backups: tuple[str, ...]
    diff: str


# -- planning ------------------------------------------------------------------------------
def plan(host: str, scope: str, *, project: Path, home: Path) -> HostPlan:
    """Every change ``install host`` would make (nothing is written)."""
    _check(host, scope)
    edits = [_edit(path, _install_bytes(kind, path, host)) for kind, path in _targets(host, scope, project, home)]
    return HostPlan(host, scope, "install", tuple(e for e in edits if e.before != e.after))


def plan_uninstall(host: str, scope: str, *, project: Path, home: Path, data_dir: Path) -> HostPlan:
    """Every change ``uninstall host`` would make: back to the backup, or our entries out."""
    _check(host, scope)
    edits = []
    for kind, path in _targets(host, scope, project, home):
        current = _read(path)
        if current is None:
            continue
        record = _load_record(data_dir, path)
        if record and record.get("after") == _sha(current):
            backup = path.with_name(path.name + BACKUP_SUFFIX)
            after = backup.read_bytes() if record.get("existed") and backup.is_file() else None
        else:
            after = _remove_bytes(kind, path, current)
        edits.append(_edit(path, after))
    return HostPlan(host, scope, "uninstall", tuple(e for e in edits if e.before != e.after))


def apply(p: HostPlan, *, data_dir: Path) -> HostResult:
    """Write a plan: backups first (install), then each file atomically; records what was written."""
    written, backups = [], []
    for e in p.edits:
        path = Path(e.path)
        existed = e.before is not None
        if p.action == "install":
            record = _load_record(data_dir, path)
            if record and record.get("after") == _sha(e.before or b""):
                existed = bool(record.get("existed"))  # re-install over our own bytes: keep the first backup
            elif e.before is not None:
                backup = path.with_name(path.name + BACKUP_SUFFIX)
                atomic_write_bytes(backup, e.before)
                backups.append(str(backup))
        if e.after is None:
            path.unlink(missing_ok=True)
        else:
            atomic_write_bytes(path, e.after)
        written.append(e.path)
        if p.action == "install":
            _save_record(data_dir, path, {"existed": existed, "after": _sha(e.after or b"")})
        else:
            _forget_record(data_dir, path)
            path.with_name(path.name + BACKUP_SUFFIX).unlink(missing_ok=True)
            if e.after is None and path.parent.name == NAME:  # the skill's own folder
                try:
                    path.parent.rmdir()
                except OSError:
                    pass
    return HostResult(p.host, p.scope, p.action, tuple(written), tuple(backups), "".join(e.diff for e in p.edits))


# -- where things go -------------------------------------------------------------------------
def _check(host: str, scope: str) -> None:
    if host not in HOSTS:
        raise InvalidInput(f"unknown host {host!r}: choose {' or '.join(HOSTS)}")
    if scope not in SCOPES:
        raise InvalidInput(f"unknown scope {scope!r}: choose --project or --user")


def _targets(host: str, scope: str, project: Path, home: Path) -> list[tuple[str, Path]]:
    base = Path(project) if scope == "project" else Path(home)
    if host == "claude-code":
        mcp_file = Path(project) / ".mcp.json" if scope == "project" else Path(home) / ".claude.json"
        return [
            ("claude-hooks", base / ".claude" / "settings.json"),
            ("claude-mcp", mcp_file),
            ("skill", base / ".claude" / "skills" / NAME / "SKILL.md"),
        ]
    return [
        ("codex-hooks", base / ".codex" / "hooks.json"),
        ("codex-mcp", base / ".codex" / "config.toml"),
        ("skill", base / ".agents" / "skills" / NAME / "SKILL.md"),
    ]


def _hook(host: str, timeout: int) -> dict[str, Any]:
    handler: dict[str, Any] = {"type": "command", "command": f"{HOOK_MARK} --hook {host}", "timeout": timeout}
    if host == "claude-code":
        handler["async"] = True  # the hook detaches anyway; the agent never waits on upkeep
    return handler


HOOK_EVENTS = {"claude-code": {"Stop": 30, "SessionEnd": 30}, "codex": {"Stop": 30}}
SERVER = {"command": NAME, "args": ["mcp"]}


# -- install: per kind -----------------------------------------------------------------------
def _install_bytes(kind: str, path: Path, host: str) -> bytes:
    current = _read(path)
    if kind == "skill":
        if not SKILL_SOURCE.is_file():
            raise NotFound(f"{SKILL_SOURCE}: the skill file is missing from this installation")
        return SKILL_SOURCE.read_bytes()
    if kind == "codex-mcp":
        return _toml_with_server(current, path)
    data, style = _load_json(current, path)
    if kind in ("claude-hooks", "codex-hooks"):
        hooks = data.setdefault("hooks", {})
        if not isinstance(hooks, dict):
            raise InvalidInput(f"{path}: 'hooks' is not an object; fix it by hand first")
        for event, timeout in HOOK_EVENTS[host].items():
            groups = hooks.setdefault(event, [])
            if not isinstance(groups, list):
                raise InvalidInput(f"{path}: hooks.{event} is not a list; fix it by hand first")
            if not any(_ours(h) for g in groups if isinstance(g, dict) for h in g.get("hooks") or []):
                groups.append({"hooks": [_hook(host, timeout)]})
    else:  # claude-mcp
        servers = data.setdefault("mcpServers", {})
        if not isinstance(servers, dict):
            raise InvalidInput(f"{path}: 'mcpServers' is not an object; fix it by hand first")
        servers[NAME] = {"type": "stdio", **SERVER}
    return _dump_json(data, style)


def _ours(handler: Any) -> bool:
    return isinstance(handler, dict) and str(handler.get("command", "")).startswith(HOOK_MARK)


def _toml_with_server(current: bytes | None, path: Path) -> bytes:
    import tomlkit  # only install/uninstall edit TOML

    try:
        doc = tomlkit.parse((current or b"").decode("utf-8"))
    except Exception as exc:  # tomlkit raises its own ParseError family; bad UTF-8 too
        raise InvalidInput(f"{path}: not valid TOML ({exc}); fix it by hand first") from None
    servers = doc.get("mcp_servers")
    if servers is None:
        servers = tomlkit.table(is_super_table=True)
        doc["mcp_servers"] = servers
    table = tomlkit.table()
    table["command"] = SERVER["command"]
    table["args"] = SERVER["args"]
    servers[NAME] = table
    return tomlkit.dumps(doc).encode("utf-8")


# -- uninstall: per kind ---------------------------------------------------------------------
def _remove_bytes(kind: str, path: Path, current: bytes) -> bytes | None:
    if kind == "skill":
        return None if current == (SKILL_SOURCE.read_bytes() if SKILL_SOURCE.is_file() else b"") else current
    if kind == "codex-mcp":
        import tomlkit

        doc = tomlkit.parse(current.decode("utf-8"))
        servers = doc.get("mcp_servers")
        if servers is not None and NAME in servers:
            del servers[NAME]
            if not servers:
                del doc["mcp_servers"]
        return tomlkit.dumps(doc).encode("utf-8")
    data, style = _load_json(current, path)
    if kind in ("claude-hooks", "codex-hooks"):
        raw_hooks = data.get("hooks")
        hooks: dict[str, Any] = raw_hooks if isinstance(raw_hooks, dict) else {}
        for event in list(hooks):
            groups = hooks[event] if isinstance(hooks[event], list) else []
            kept = []
            for g in groups:
                if isinstance(g, dict) and isinstance(g.get("hooks"), list) and any(_ours(h) for h in g["hooks"]):
                    g = {**g, "hooks": [h for h in g["hooks"] if not _ours(h)]}
                    if not g["hooks"]:
                        continue
                kept.append(g)
            if kept:
                hooks[event] = kept
            else:
                del hooks[event]
        if "hooks" in data and not hooks:
            del data["hooks"]
    else:
        servers = data.get("mcpServers")
        if isinstance(servers, dict) and NAME in servers:
            del servers[NAME]
            if not servers:
                del data["mcpServers"]
    return _dump_json(data, style)


# -- JSON keeping its style ------------------------------------------------------------------
def _load_json(current: bytes | None, path: Path) -> tuple[dict[str, Any], tuple[int, bool]]:
    if current is None or not current.strip():
        return {}, (2, True)
    try:
        data = loads_json(current.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise InvalidInput(f"{path}: not valid JSON ({exc}); fix it by hand first") from None
    if not isinstance(data, dict):
        raise InvalidInput(f"{path}: expected a JSON object at the top")
    m = re.search(rb"\n([ \t]+)\S", current)
    indent = len(m.group(1).expandtabs(4)) if m else 2
    return data, (indent, current.endswith(b"\n"))


def _dump_json(data: dict[str, Any], style: tuple[int, bool]) -> bytes:
    indent, newline = style
    return (json.dumps(data, indent=indent, ensure_ascii=False) + ("\n" if newline else "")).encode("utf-8")


# -- files, diffs and records ----------------------------------------------------------------
def _read(path: Path) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        return None


def _edit(path: Path, after: bytes | None) -> FileEdit:
    before = _read(path)
    a = (before or b"").decode("utf-8", "replace").splitlines(keepends=True)
    b = (after or b"").decode("utf-8", "replace").splitlines(keepends=True)
    diff = "".join(
        difflib.unified_diff(
            a, b, fromfile=str(path) if before is not None else "/dev/null", tofile=str(path) if after else "/dev/null"
        )
    )
    if diff and not diff.endswith("\n"):
        diff += "\n"
    return FileEdit(str(path), before, after, diff)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _record_path(data_dir: Path, path: Path) -> Path:
    return Path(data_dir) / "installs" / (hashlib.sha1(str(Path(path).absolute()).encode()).hexdigest() + ".json")


def _load_record(data_dir: Path, path: Path) -> dict[str, Any] | None:
    try:
        data = load_json(_record_path(data_dir, path))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _save_record(data_dir: Path, path: Path, record: dict[str, Any]) -> None:
    atomic_write_bytes(_record_path(data_dir, path), json.dumps({"path": str(path), **record}).encode("utf-8"))


def _forget_record(data_dir: Path, path: Path) -> None:
    _record_path(data_dir, path).unlink(missing_ok=True)
