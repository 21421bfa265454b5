"""Reading and writing a host's file without ever losing the user's.

* A symlinked settings file (dotfiles) is followed: we read and write its target, the
  link stays a link.
* Only regular files are read, without blocking (a FIFO named ``settings.json`` gives a
  named error, not a hang), and at most ``MAX_HOST_FILE`` bytes.
* A read-only file is refused with a message, never overwritten.
* ``write`` re-reads the file just before replacing it and refuses if it changed since
  the plan was made (the host may rewrite ``~/.claude.json`` while a prompt waits).
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.core.atomic import atomic_write_bytes
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, Refused
from memsearch_tui.engine.core.safe_io import read_capped

MAX_HOST_FILE = 50_000_000  # ~/.claude.json keeps history and grows to megabytes


@dataclass(frozen=True)
class HostFile:
    """A host file as read for a plan: the path named, the file really written, its bytes."""

    path: Path  # the path the host uses (may be a symlink)
    target: Path  # where the bytes live (the symlink resolved)
    data: bytes | None  # None: no such file
    mode: int | None  # permission bits of the existing file

    @property
    def exists(self) -> bool:
        return self.data is not None


def read(path: Path) -> HostFile:
    """The file at ``path`` (symlinks followed); InvalidInput for anything we cannot edit."""
    target = _target(path)
    try:
        data = read_capped(target, MAX_HOST_FILE)
    except FileNotFoundError:
        return HostFile(path, target, None, None)
    except PermissionError:
        raise Refused(f"{path}: cannot be read (permission denied); not changed", path=str(path)) from None
    except InvalidInput as exc:
        raise InvalidInput(f"{path}: {_reason(exc.message, target)}; not changed", path=str(path)) from None
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot be read ({exc.strerror}); not changed", path=str(path)) from None
    return HostFile(path, target, data, os.stat(target).st_mode & 0o7777)


def _reason(message: str, target: Path) -> str:
    """read_capped's message names the file first; we name it ourselves."""
    prefix = f"{target}: "
    return message[len(prefix) :] if message.startswith(prefix) else message


def _target(path: Path) -> Path:
    """Where ``path``'s bytes are: the final target of a symlink (chains followed)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return path
    if not stat.S_ISLNK(st.st_mode):
        return path
    try:
        resolved = Path(path).resolve(strict=True)
    except FileNotFoundError:
        raise InvalidInput(
            f"{path}: a symlink to {os.readlink(path)}, which does not exist; create the target or remove the link first",
            path=str(path),
        ) from None
    except (OSError, RuntimeError):
        raise InvalidInput(f"{path}: symlink loop; not changed", path=str(path)) from None
    return resolved


def check_writable(f: HostFile) -> None:
    """Refused for a read-only file (mode bits, so it holds for root too) or folder."""
    if f.mode is not None and not f.mode & 0o222:
        raise Refused(
            f"{f.path}: read-only (mode {f.mode & 0o777:o}); not changed — make it writable or add the entries by hand",
            path=str(f.path),
        )
    if f.exists and not os.access(f.target, os.W_OK):
        raise Refused(f"{f.path}: not writable by you; not changed", path=str(f.path))


def check_unchanged(f: HostFile) -> None:
    """Conflict when the file is not what the plan was made from (someone wrote it meanwhile)."""
    now = read(f.path)
    if now.target != f.target or now.data != f.data:
        raise Conflict(
            f"{f.path}: changed since the diff was made (the host or you wrote it); nothing written — run the command again",
            path=str(f.path),
        )


def write(f: HostFile, data: bytes) -> None:
    """Replace the file's bytes atomically, through a symlink, keeping its mode."""
    try:
        atomic_write_bytes(f.target, data, mode=(f.mode & 0o777) if f.mode is not None else None)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise Refused(f"{f.path}: cannot be written ({exc.strerror}); not changed", path=str(f.path)) from None
        raise


def missing_folders(path: Path) -> list[Path]:
    """The folders above ``path`` that do not exist yet, outermost first (what a write creates)."""
    missing: list[Path] = []
    folder = Path(path).parent
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return list(reversed(missing))
