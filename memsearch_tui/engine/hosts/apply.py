"""Carry out a plan: every file re-checked first, backups before a first edit, records after."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memsearch_tui.engine.hosts import files, records
from memsearch_tui.engine.hosts.plan import HostPlan, HostResult


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
