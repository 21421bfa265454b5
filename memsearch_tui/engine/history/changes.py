"""One path's bytes before and after an operation: what transactions record and undo reverts.

Records kept under the root (the operation log, the intent journal) name paths relative to
the root (``stored_path`` / ``loaded_path``), so a copied or moved store keeps working on
its own files and never on the store it was copied from."""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.core.record import record


@record
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


def stored_path(root: Path, path: Path) -> str:
    """``path`` as a record keeps it: relative to the root (POSIX), or absolute as given
    when it is not under the root (an old record's foreign path, kept as it was)."""
    for base in (Path(root).absolute(), Path(root).resolve()):
        try:
            return Path(path).relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def loaded_path(root: Path, stored: str) -> str:
    """The absolute path of a kept one: a relative path is under the current root; an
    absolute one (a record from before paths were relative) is returned as it is, for the
    caller to check it lies in this store before touching it."""
    path = Path(stored)
    if path.is_absolute():
        return stored
    return str(Path(root).absolute() / path)
