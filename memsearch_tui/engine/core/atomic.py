"""Atomic file writes: a reader sees the old file or the new one, never half of either.

Temp file in the same folder (so ``os.replace`` is a rename on one filesystem), fsync of
the file, replace, then fsync of the folder so the rename itself survives a crash.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
from pathlib import Path

TMP_SUFFIX = ".tmp"
NAME_MAX = 255  # bytes in one file name (ext4, btrfs, xfs, APFS; NTFS counts 255 UTF-16 units)
_RANDOM = 8  # the characters mkstemp puts between prefix and suffix


def temp_prefix(name: str) -> str:
    """The start of the temp file's name for a write of ``name``: ``.<name>.``, or, when
    that would not leave room for mkstemp's random part and the suffix in :data:`NAME_MAX`
    bytes, ``.<name's start>~<hash of name>.`` (a hand-named entry of 242–255 bytes could
    not be saved: its temp name was longer than any file system takes)."""
    return "." + fit_name(name, ".", NAME_MAX - len(".") - _RANDOM - len(TMP_SUFFIX))


def fit_name(stem: str, suffix: str, limit: int = NAME_MAX) -> str:
    """``stem + suffix``, or, when that is over ``limit`` bytes, ``<stem's start>~<hash of
    stem><suffix>``: a name derived from a 242–255-byte entry name (its trash copy's
    ``.versions`` folder, a same-day ``~2``, a temp file) must still be a name a file system
    takes. The hash keeps two long names with one start apart; short names keep the plain
    layout."""
    full = stem + suffix
    if len(full.encode("utf-8", "surrogateescape")) <= limit:
        return full
    digest = hashlib.sha256(stem.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    keep = limit - len(f"~{digest}{suffix}".encode("utf-8", "surrogateescape"))
    head = stem.encode("utf-8", "surrogateescape")[:keep].decode("utf-8", "ignore")  # never half a character
    return f"{head}~{digest}{suffix}"


def atomic_write_bytes(path: Path, data: bytes, *, mode: int | None = None) -> os.stat_result:
    """Write ``data`` to ``path`` atomically, creating parent folders as needed.

    Returns the written file's stat, taken from the temp file before the rename (which
    keeps inode and mtime): a later stat could already see someone else's change.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        try:
            mode = path.stat().st_mode & 0o777
        except FileNotFoundError:
            mode = 0o644
    try:
        fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path.name), suffix=TMP_SUFFIX, dir=path.parent)
    except OSError as exc:  # name the file the user cares about, not our temp file
        raise type(exc)(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            written = os.fstat(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise type(exc)(exc.errno, exc.strerror, str(path)) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)
    return written


# What ``atomic_write_bytes`` names its temp files: ``.<name>.<8 random chars>.tmp`` (a long
# name: ``.<its start>~<12 hex>.<8 random chars>.tmp``).
# The random part is exactly what mkstemp (8 of ``[a-z0-9_]``) or ``Intent.relink`` (8 hex)
# makes: a looser pattern took a user's own ``.notes.md.backup.tmp`` for ours, and the sweep
# after a killed writer would have deleted it.
_TEMP_NAME = re.compile(r"\..+\.[a-z0-9_]{8}" + re.escape(TMP_SUFFIX))


def is_temp_name(name: str) -> bool:
    """Whether ``name`` is what ``atomic_write_bytes`` names its temp files."""
    return _TEMP_NAME.fullmatch(name) is not None


def find_temp_files(root: Path, skip: str = ".memsearch-tui") -> list[Path]:
    """Temp files of our atomic writes below ``root`` (regular files only; symlinked
    folders are not entered; the ``skip`` folder, caches with their own writers, neither)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [d for d in dirnames if d != skip]
        for name in filenames:
            if is_temp_name(name):
                path = Path(dirpath, name)
                with contextlib.suppress(OSError):
                    if stat.S_ISREG(path.lstat().st_mode):
                        found.append(path)
    return found


def sweep_temp_files(root: Path) -> list[Path]:
    """Remove temp files a killed writer left behind (``.<name>.<random>.tmp``).

    Call it holding the root's write lock: every store writer writes under that lock, so
    no temp file found then belongs to a live writer.
    """
    removed = []
    for tmp in find_temp_files(root):
        with contextlib.suppress(OSError):
            tmp.unlink()
            removed.append(tmp)
    return removed


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """UTF-8 text, newlines written exactly as given (no platform translation)."""
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode)


def atomic_write_through_links(path: Path, text: str) -> None:
    """``atomic_write_text`` to the file ``path`` names: a symlinked config (a dotfiles
    checkout) stays a link and its target is replaced, keeping the target's mode."""
    atomic_write_text(Path(os.path.realpath(path)), text)


def fsync_dir(folder: Path) -> None:
    """Make a rename or unlink in ``folder`` durable; a no-op where the OS refuses."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
