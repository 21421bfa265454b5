"""The one containment rule for reading a file on behalf of a project or an agent.

A cloned repository decides what its ``.memsearch`` folder holds: ``PROJECT.md ->
~/.ssh/id_rsa``, a day file linking to ``/etc/shadow``, a ``memory`` folder linking to the
home folder, a FIFO named ``2026-11-29.md``, ``PROJECT.md -> /dev/zero``. Every face (MCP
``read``/``journal``/resources, the literal search, ``journal show``, the TUI) reads those
files through :func:`read_inside`, and every walker asks :func:`escape_reason`, so one
rule decides: the path is resolved (``~``, ``..``, every symlink) and must lie inside one
of the roots it was named under; only a regular file is opened (``O_NONBLOCK`` so a FIFO
never blocks, ``O_NOFOLLOW`` on the resolved path, then ``fstat`` on that descriptor);
and the read is bounded in bytes and seconds. The maintenance sandbox applies the same
rule to the folders a task may read.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.core.paths import UNSHOWABLE
from memsearch_tui.engine.core.safe_io import read_capped

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
READ_LIMIT = 4_000_000  # one journal day, PROJECT.md, USER.md: memsearch writes far less
READ_SECONDS = 10.0  # a regular file on a local disk reads 4 MB in milliseconds
NAME_BYTES = 255  # one component: the limit of ext4, APFS, NTFS (in UTF-8 bytes or fewer)
PATH_BYTES = 1024  # a whole relative path: a store's deepest is a few hundred; PATH_MAX is 4096 with the root


def real(path: str | Path) -> str:
    """``path`` with ``~`` expanded and every symlink and ``..`` resolved."""
    return os.path.realpath(os.path.expanduser(os.fspath(path)))


def within(roots: Iterable[str | Path], path: str | Path) -> bool:
    """True when ``path`` (resolved) is one of ``roots`` (resolved) or lies below one."""
    try:
        full = real(path)
        return any(_below(full, real(r)) for r in roots)
    except (OSError, ValueError, RuntimeError):  # a symlink loop, a NUL byte
        return False


def _below(full: str, root: str) -> bool:
    return full == root or full.startswith(root.rstrip(os.sep) + os.sep)


def escape_reason(roots: Iterable[str | Path], path: str | Path) -> str | None:
    """Why ``path`` may not be read under ``roots`` (it leads out), or None if it may.

    For walkers and ``doctor``: the message names the link and where it leads.
    """
    roots = tuple(roots)
    if within(roots, path):
        return None
    try:
        target = real(path)
    except (OSError, ValueError, RuntimeError):
        return f"{path}: symlink loop; not read"
    names = ", ".join(dict.fromkeys(real(r) for r in roots))
    return f"{path}: leads outside {names} (to {target}); not read"


def resolve_inside(roots: Iterable[str | Path], path: str | Path) -> Path:
    """``path`` resolved, refused (``unsafe_path``) when it lies outside every root."""
    roots = tuple(roots)
    reason = escape_reason(roots, path)
    if reason is not None:
        raise Refused(reason, code="unsafe_path", path=str(path))
    return Path(real(path))


def read_inside(
    roots: Iterable[str | Path], path: str | Path, limit: int = READ_LIMIT, *, seconds: float = READ_SECONDS
) -> bytes:
    """The bytes of the regular file ``path``, proven inside ``roots``, at most ``limit``
    bytes read within ``seconds``.

    Refused (``unsafe_path``) outside the roots; InvalidInput for a FIFO, socket, device
    or folder; EntryTooLarge (``too_large``) over the limit; FileNotFoundError and
    PermissionError pass through.
    """
    resolved = resolve_inside(roots, path)
    return read_capped(resolved, limit, seconds=seconds, follow=False, name=str(path))


# -- names that arrive as text (a git tree, a rename, an archive) -----------------------
def relpath_reason(rel: str) -> str | None:
    """Why the relative path ``rel`` (``/``-separated, as git names files) may not be used
    under a root, or None if it may: no absolute path or drive, no empty, ``.`` or ``..``
    component, no component that is ``.git`` in any case or spelling a checkout would take
    for it (``.GIT``, ``.git.``, ``git~1``), no backslash, NUL or control character; UTF-8
    only, no invisible or bidi character (C1 ``U+009B`` is a terminal's CSI, ``U+202E``
    turns a name around), no component over :data:`NAME_BYTES` nor path over
    :data:`PATH_BYTES` (a write would fail halfway with ENAMETOOLONG)."""
    if not rel:
        return "an empty path"
    if _CONTROL.search(rel):
        return "a control character in the name"
    try:
        size = len(rel.encode("utf-8"))
    except UnicodeEncodeError:
        return "a name that is not UTF-8"
    if size > PATH_BYTES:
        return f"a path over {PATH_BYTES} bytes"
    if not rel.isascii():
        for ch in rel:
            if unicodedata.category(ch) in UNSHOWABLE:
                return f"the invisible or control character U+{ord(ch):04X} in the name"
    if "\\" in rel:
        return "a backslash in the name"
    if rel.startswith("/") or (len(rel) > 1 and rel[1] == ":"):
        return "an absolute path"
    for part in rel.split("/"):
        if part in ("", ".", ".."):
            return "a '..' (or empty) component" if part == ".." else "an empty or '.' component"
        if part.rstrip(". ").lower() in (".git", "git~1"):
            return "a '.git' component"
        if len(part.encode("utf-8")) > NAME_BYTES:
            return f"a name over {NAME_BYTES} bytes"
    return None


def link_on_path(root: str | Path, rel: str) -> str | None:
    """The first component of ``root/rel`` (below ``root``) that is a symbolic link, as a
    relative path, or None: a write there would land wherever the link points."""
    here = Path(root)
    done: list[str] = []
    for part in rel.split("/"):
        here = here / part
        done.append(part)
        try:
            if os.path.islink(here):
                return "/".join(done)
            if not os.path.lexists(here):
                return None
        except (OSError, ValueError):
            return "/".join(done)
    return None


def write_reason(root: str | Path, rel: str) -> str | None:
    """Why ``root/rel`` may not be written for someone we do not trust (a git remote), or
    None: :func:`relpath_reason`, then no symbolic link anywhere on the path."""
    reason = relpath_reason(rel)
    if reason is not None:
        return reason
    link = link_on_path(root, rel)
    return None if link is None else f"{link} is a symbolic link"
