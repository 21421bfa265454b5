"""Reading files nobody vouches for: regular files only, size-capped, never blocking.

Every reader of store files goes through ``read_capped`` so one place decides what a
readable file is. A FIFO named ``x.md`` would block ``read()`` forever; a socket or a
device is no note either; a symlink loop raises ELOOP; a 4 GB file would be read whole
before any size check. The file is opened with O_NONBLOCK (opening a FIFO does not wait
for a writer), then ``fstat`` on that same descriptor decides: no race between the check
and the read.
"""

from __future__ import annotations

import errno
import os
import stat
import time

from memsearch_tui.engine.core.errors import EntryTooLarge, InvalidInput, LimitExceeded

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the hook's fast path imports this
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, BinaryIO

MAX_ENTRY_BYTES = 1_064_000  # a whole entry file (1 MB body + frontmatter), checked before parsing
MAX_JSON_BYTES = 50_000_000

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def kind_of(mode: int) -> str:
    """A person's word for a non-regular file type."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISLNK(mode):
        return "a symlink"
    return "not a regular file"


def unusable_reason(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as a file (symlinks followed), or None if it can.

    For walkers: a symlink loop, a dangling link, a FIFO, socket or device is reported,
    not opened.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink loop; not read"
        if exc.errno == errno.ENOENT:
            return "dangling symlink; not read"
        return f"cannot be read ({exc.strerror})"
    if not stat.S_ISREG(st.st_mode):
        return f"is {kind_of(st.st_mode)}, not a regular file; not read"
    return None


def read_capped(
    path: str | Path,
    limit: int = MAX_ENTRY_BYTES,
    *,
    seconds: float | None = None,
    follow: bool = True,
    name: str | None = None,
) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises InvalidInput naming the file (``name``, default ``path``) for a FIFO, socket,
    device, folder, symlink loop or a file over the limit, and LimitExceeded when the
    read takes longer than ``seconds`` (a file on a stalled network disk);
    FileNotFoundError and PermissionError pass through (callers already handle them).
    ``follow=False`` opens with O_NOFOLLOW: for a path already resolved and proven inside
    its root (``contained.read_inside``), a link swapped in since is refused.
    """
    where = name or str(path)
    flags = os.O_RDONLY | _NONBLOCK | _CLOEXEC | (0 if follow else _NOFOLLOW)
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            what = "symlink loop" if follow else "replaced by a symlink while it was read"
            raise InvalidInput(f"{where}: {what}; not read", path=where) from None
        if exc.errno in (errno.ENXIO, errno.EOPNOTSUPP, errno.ENODEV):
            raise InvalidInput(f"{where}: not a regular file (socket or device); not read", path=where) from None
        if exc.errno == errno.EISDIR:
            raise InvalidInput(f"{where}: is a folder, not an entry file", path=where) from None
        raise
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InvalidInput(f"{where}: is a folder, not an entry file", path=where)
        if not stat.S_ISREG(st.st_mode):
            raise InvalidInput(f"{where}: is {kind_of(st.st_mode)}, not a regular file; not read", path=where)
        if st.st_size > limit:
            raise EntryTooLarge(_too_large(where, st.st_size, limit), path=where)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # it grew while we read
                raise EntryTooLarge(_too_large(where, total, limit), path=where)
            if deadline is not None and time.monotonic() > deadline:
                raise LimitExceeded(f"{where}: not read within {seconds:g} s; not read", path=where)
        return b"".join(chunks)
    finally:
        os.close(fd)


def open_regular(path: str | Path) -> BinaryIO:
    """``open(path, "rb")`` that never blocks on a FIFO: OSError for anything but a regular
    file (symlinks followed), for readers that stream and cap on their own (search)."""
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"is {kind_of(mode)}, not a regular file", str(path))
        if _NONBLOCK:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_stream(fd: int, limit: int, seconds: float, first_byte_s: float | None = None) -> tuple[bytes, str]:
    """What a pipe (or any descriptor) gives until EOF, within ``limit`` bytes and one
    overall deadline of ``seconds``: ``(data, problem)``, problem "" when the stream ended.
    With ``first_byte_s``, a stream silent that long gives ``(b"", "silent")`` (an idle pipe).

    One deadline for the whole read, not a wait per chunk: a writer that trickles a byte
    now and then must not keep the reader forever. The descriptor is never switched to
    non-blocking (a hook's stdin is its host's pipe too); ``select`` says when a read
    cannot block.
    """
    import select  # only for streams

    chunks: list[bytes] = []
    size = 0
    start = time.monotonic()
    while True:
        waited = time.monotonic() - start
        if not chunks and first_byte_s is not None and waited >= first_byte_s:
            return b"", "silent"
        left = (seconds if chunks or first_byte_s is None else min(seconds, first_byte_s)) - waited
        if left <= 0:
            return b"".join(chunks), f"still arriving after {seconds:g} s ({size:,} bytes so far)"
        try:
            ready, _, _ = select.select([fd], [], [], left)
            chunk = os.read(fd, min(65536, limit + 1 - size)) if ready else None
        except (OSError, ValueError) as exc:
            return b"".join(chunks), f"unreadable ({exc})"
        if chunk is None:
            continue
        if not chunk:
            return b"".join(chunks), ""
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            return b"".join(chunks)[:limit], f"over the {limit:,}-byte limit"


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file for the hot readers (search over 10k files), which
    skip and name what they cannot read: OSError (EFBIG) over ``limit``, where
    ``read_capped`` raises an engine error; never reads more than ``limit + 1`` bytes
    (a 4 GB sparse file, a file growing while it is read)."""
    with open_regular(path) as fh:
        size = os.fstat(fh.fileno()).st_size
        data = fh.read(limit + 1) if size <= limit else b""
        if size > limit or len(data) > limit:
            raise OSError(
                errno.EFBIG, f"{max(size, len(data)):,} bytes, over the {limit:,}-byte limit; not read", str(path)
            )
        return data


def _too_large(where: str, size: int, limit: int) -> str:
    return f"{where}: {size:,} bytes, over the {limit:,}-byte limit for this file; not read"


def load_json(path: str | Path, limit: int = MAX_JSON_BYTES) -> Any:
    """JSON of a derived file: ValueError (never RecursionError or a hang) for anything
    that is not readable JSON, so each caller's "broken, rebuild it" branch catches it."""
    try:
        data = read_capped(path, limit)
    except InvalidInput as exc:
        raise ValueError(exc.message) from None
    return loads_json(data.decode("utf-8"))


def loads_json(text: str) -> Any:
    """``json.loads`` with deep nesting turned into a ValueError (the C decoder raises
    RecursionError, which no ``except ValueError`` catches)."""
    import json  # json pulls in re: not on the paths that never parse any

    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def check_depth(value: Any, limit: int, what: str) -> None:
    """ValueError when ``value`` nests lists or dicts more than ``limit`` deep: the JSON
    decoder accepts ~1,000 levels, but a later ``dataclasses.asdict`` or ``copy`` recurses
    about twice per level, so a record we hand on must be shallow (an iterative walk)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            raise ValueError(f"{what} nested more than {limit} levels deep")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
