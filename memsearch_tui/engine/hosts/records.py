"""What install wrote into each host file, so uninstall takes out exactly that and no more.

One small JSON record per file (``<data>/installs/<sha1 of the path>.json``):

* ``entries``: each value we added and where (``["hooks", "Stop"]`` + the group), so a
  user's own entry that merely looks like ours is never taken;
* ``inner``: the whitespace an empty container had before we filled it;
* ``seeded_from``: the file's text when it was missing (``null``) or blank — a file we
  created is deleted again only when nothing but our seed is left;
* ``folders``: the folders the write created, removed again when empty;
* ``backup``: the sha256 of the backup we kept, so we only ever delete our own backup.

Records written by earlier versions (``{"existed", "after"}``) are read as "legacy".
The backup (``<file>.memsearch-tui.bak``, the original's mode) is a safety copy for the
user; uninstall does not need it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.atomic import atomic_write_bytes
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.safe_io import load_json, read_capped

BACKUP_SUFFIX = ".memsearch-tui.bak"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def record_path(data_dir: Path, path: Path) -> Path:
    key = hashlib.sha1(str(Path(path).absolute()).encode()).hexdigest()
    return Path(data_dir) / "installs" / f"{key}.json"


def load(data_dir: Path, path: Path) -> dict[str, Any] | None:
    """The record for ``path``, or None (missing or unreadable records mean "not ours")."""
    try:
        data = load_json(record_path(data_dir, path), limit=5_000_000)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def save(data_dir: Path, path: Path, record: dict[str, Any]) -> None:
    body = json.dumps({"path": str(path), **record}, ensure_ascii=False, indent=1)
    atomic_write_bytes(record_path(data_dir, path), body.encode("utf-8"), mode=0o600)


def forget(data_dir: Path, path: Path) -> None:
    record_path(data_dir, path).unlink(missing_ok=True)


def backup_path(path: Path) -> Path:
    """Next to the path the host names (beside the link, for a symlinked file)."""
    return Path(path).with_name(Path(path).name + BACKUP_SUFFIX)


def keep_backup(path: Path, data: bytes, mode: int) -> Path:
    """Write the original bytes beside the file with the original's permission bits."""
    backup = backup_path(path)
    atomic_write_bytes(backup, data, mode=mode & 0o777)
    return backup


def drop_backup(path: Path, expected_sha: str | None) -> bool:
    """Delete the backup only if it is still the one we wrote (its sha matches)."""
    backup = backup_path(path)
    try:
        if expected_sha is None or sha(read_capped(backup, 50_000_000)) != expected_sha:
            return False
    except (OSError, InvalidInput):
        return False
    backup.unlink(missing_ok=True)
    return True


def is_legacy(record: dict[str, Any] | None) -> bool:
    return record is not None and "existed" in record
