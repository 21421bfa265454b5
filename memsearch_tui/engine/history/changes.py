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
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        return None
