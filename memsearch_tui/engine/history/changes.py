"""One path's bytes before and after an operation: what transactions record and undo reverts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FileChange:
    """One path's content before and after an operation (None: the file did not exist)."""

    path: Path
    before: bytes | None
    after: bytes | None


def read_bytes_or_none(path: Path) -> bytes | None:
    """The bytes of ``path``; None when there is no regular file there (a FIFO left where an
    index belongs is replaced like a missing file, never read: that read would block)."""
    import stat

    try:
        mode = Path(path).stat().st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):  # a folder still raises, as ever
            return None
        return Path(path).read_bytes()
    except FileNotFoundError:
        return None
