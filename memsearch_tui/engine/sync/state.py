"""What sync remembers on this machine: the device's name, the remote, the last sync.

Kept in ``<root>/.memsearch-tui/sync.json`` (mode 0600), which git never carries (our commit
code leaves the state folder out): each device has its own. The remote URL is kept without
any password (:func:`.remote.split_credentials`). ``in_progress`` is written before a merge touches a file
and cleared once its commit exists, so a sync killed halfway is noticed and redone.
"""

from __future__ import annotations

import json
import re
import socket
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.atomic import atomic_write_text
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.safe_io import load_json
from memsearch_tui.engine.core.state_files import STATE_DIR, state_file

SYNC_STATE = "sync.json"
BRANCH = "main"
REMOTE = "origin"
_DEVICE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")

# What git never carries, and why (README "Several machines" says the same).
GITIGNORE = f"""\
# memsearch-tui sync: what stays on this machine.
# Forgotten entries: each device purges its own trash on its own schedule.
/.trash/
# Undo log and blobs, the entry catalog, locks, access times, sync state: this machine's.
/{STATE_DIR}/
# Temp files of an interrupted atomic write (removed by `index check --fix`).
.*.tmp
"""


@dataclass
class DeviceState:
    """This device's sync state as its state file keeps it (the API's ``SyncState`` is
    what a face is shown of it)."""

    device: str
    remote: str = ""
    branch: str = BRANCH
    last_sync: str = ""
    last_op_seq: int = 0  # the newest logged operation already committed
    last_notes: list[str] = field(default_factory=list)
    in_progress: dict[str, Any] = field(default_factory=dict)
    undone_kept: list[int] = field(default_factory=list)  # undone syncs whose texts were kept as versions


def check_device(name: str) -> str:
    """A device name that is safe in a commit message and a file name."""
    name = name.strip()
    if not _DEVICE.match(name):
        raise InvalidInput(
            f"device name {name[:40]!r}: use 1–40 letters, digits, '.', '_' or '-', starting with a letter or digit",
            code="bad_device",
        )
    return name


def default_device() -> str:
    """This machine's host name, made into a device name."""
    raw = re.sub(r"[^A-Za-z0-9._-]+", "-", socket.gethostname().split(".")[0]).strip("-._")
    return (raw or "device")[:40]


#: what ``sync status`` says before ``sync init`` (here, not in :mod:`.run`: the Overview
#: learns it without importing the sync machinery, ~40 ms CPU)
NOT_SYNCED = "not synced: `memsearch-tui sync init [--remote URL]` starts"


def load(root: Path) -> DeviceState | None:
    """This device's sync state, or None before ``sync init``."""
    path = state_file(root, SYNC_STATE)
    if not path.exists():
        return None
    try:
        data: Any = load_json(path)
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"{path}: unreadable sync state ({exc}); run `sync init` again", path=str(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("device"), str):
        raise InvalidInput(f"{path}: not a sync state file; run `sync init` again", path=str(path))
    known = {k: v for k, v in data.items() if k in DeviceState.__dataclass_fields__}
    try:
        return DeviceState(**known)
    except TypeError:
        raise InvalidInput(f"{path}: not a sync state file; run `sync init` again", path=str(path)) from None


def save(root: Path, state: DeviceState) -> None:
    path = state_file(root, SYNC_STATE)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(asdict(state), indent=2, sort_keys=True) + "\n", mode=0o600)
