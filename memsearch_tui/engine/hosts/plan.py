"""Plan an install or uninstall as exact file edits (``apply`` carries a plan out).

``plan_install`` / ``plan_uninstall`` read every host file and compute its new bytes and
a unified diff, touching nothing (``--dry-run`` stops there); ``adding`` and ``removing``
decide each kind of file's new bytes.

What the plan will not do is said in ``notices`` (an entry of the user's own under our
name, a skill file that is not ours, a file left in place because we did not create it).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.hosts import adding, files, records, removing, wiring
from memsearch_tui.engine.hosts.files import HostFile
from memsearch_tui.engine.hosts.wiring import Launch


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
            return adding.install_skill(f, prior)
        if kind == wiring.CODEX_MCP:
            return adding.install_toml(f, prior, host, launch)
        return adding.install_json(kind, f, prior, host, launch)
    if kind == wiring.SKILL:
        after, notes = removing.uninstall_skill(f, prior)
    elif kind == wiring.CODEX_MCP:
        after, notes = removing.uninstall_toml(f, prior, host, launch)
    else:
        after, notes = removing.uninstall_json(kind, f, prior, host, launch)
    return after, None, notes


def _folders(f: HostFile, prior: dict[str, Any] | None) -> list[str]:
    if prior is not None and prior.get("folders"):
        return [str(x) for x in prior["folders"]]
    return [str(p) for p in files.missing_folders(f.target)] if f.data is None else []


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
