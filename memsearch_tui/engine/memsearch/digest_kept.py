"""The input digest kept across processes, in the user's own data folder (issue 37 item 5).

Why: each process (the app, a CLI call, the hook) computed :func:`.state.input_digest` once
by reading every day file: ~100 ms of a pane's first visit at 10,000 days. A kept digest
is used only for the same folder whose every file has the same (relative path, inode,
size, mtime, ctime), none written within the racy window (the caller checks that, with
``state.RACY_NS``), so what it saves is exactly the read that could not have told anything
new.

Where: ``<data>/digests/<hash of the folder's path>`` (``MEMSEARCH_TUI_DATA_DIR`` or the
platform's user data folder, as ``search.settings.data_home``, which sits above this
layer), never in a project: a repository's files must not be able to supply a digest.

The record, as the hook's records (``upkeep/fast_path.py``): fields joined by NUL: a format
line, the folder, a blake2b signature of the stat list, the digest. Fixed in size (the stat
list is signed, not stored), read capped, and trusted only when it parses exactly; anything
else (missing, too big, a FIFO, another folder's, another format) is ignored and the digest
is computed again. Written atomically; at most :data:`MAX_KEPT` records, in fixed slots.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.safe_io import read_capped

FORMAT = b"memsearch-tui input digest 1"
MAX_BYTES = 16_384  # the format line, a folder path (PATH_MAX 4096) and two hashes
MAX_KEPT = 64  # slots per user, one folder's record each (``_path``)
_DIGEST = re.compile(rb"sha256:[0-9a-f]{64}")

#: (relative path, inode, size, mtime_ns, ctime_ns) of each file, in the digest's order
Stamps = tuple[tuple[str, int, int, int, int], ...]


def kept_dir() -> str:
    """``<data>/digests``: ``MEMSEARCH_TUI_DATA_DIR`` or the platform's user data folder."""
    env = os.environ.get("MEMSEARCH_TUI_DATA_DIR")
    if env:
        base = os.path.expanduser(env)
    else:
        from platformdirs import user_data_dir

        base = user_data_dir("memsearch-tui", appauthor=False)
    return os.path.join(base, "digests")


def signature(root: str, stamps: Stamps, rule: bytes) -> bytes:
    """blake2b of the folder, the reading rule (the big-file limit) and every file's stamps."""
    h = hashlib.blake2b(digest_size=32)
    h.update(os.fsencode(root) + b"\0" + rule + b"\0")
    h.update(repr(stamps).encode("utf-8", "backslashreplace"))  # one C-level pass: 10,000 files in ms
    return h.hexdigest().encode()


def load(root: str, sig: bytes) -> str | None:
    """The digest kept for ``root`` under the signature ``sig``, or None."""
    try:
        data = read_capped(_path(root), MAX_BYTES, follow=False)
    except (OSError, InvalidInput):  # missing, unreadable, too big, not a regular file
        return None
    fields = data.split(b"\0")
    if len(fields) != 4 or fields[0] != FORMAT or fields[1] != os.fsencode(root) or fields[2] != sig:
        return None
    return fields[3].decode("ascii") if _DIGEST.fullmatch(fields[3]) else None


def save(root: str, sig: bytes, digest: str) -> None:
    """Keep ``digest`` for ``root`` (nothing when the data folder cannot be written)."""
    from memsearch_tui.engine.core.atomic import atomic_write_bytes  # tempfile: only when a digest is kept

    if not _DIGEST.fullmatch(digest.encode()):
        return
    try:
        os.makedirs(kept_dir(), mode=0o700, exist_ok=True)
        atomic_write_bytes(Path(_path(root)), b"\0".join([FORMAT, os.fsencode(root), sig, digest.encode()]), mode=0o600)
    except OSError:
        pass


def _path(root: str) -> str:
    """One of :data:`MAX_KEPT` slots, chosen by the folder: two folders sharing a slot take
    turns (the record names its folder, so the other's is ignored and recomputed), and the
    count is bounded without listing or pruning anything."""
    slot = int.from_bytes(hashlib.blake2b(os.fsencode(root), digest_size=8).digest(), "big") % MAX_KEPT
    return os.path.join(kept_dir(), f"slot-{slot:02d}")
