"""``.memsearch/.maintenance-state.json`` in memsearch's own schema, and the input digest.

memsearch reads this file back, so the shape is theirs: one object per
``"<platform>.<task>"`` key; a success *replaces* the entry, a failure *merges* the
failure keys into it so the last success survives. Written ``indent=2, sort_keys=True``
with a trailing newline, atomically (memsearch writes in place; we never leave half a file).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.safe_io import load_json

STATE_FILE = ".maintenance-state.json"
MAX_ERROR_CHARS = 2000
# Our own key in an entry (memsearch ignores keys it does not know): "proposed" while a
# proposal waits for review; memsearch's ``last_action`` stays one of its own values.
TUI_ACTION = "tui_action"
PROPOSED = "proposed"


def now_utc() -> str:
    """UTC ISO-8601 with ``Z``, as memsearch writes it."""
    return clock.now().isoformat().replace("+00:00", "Z")


def parse_time(value: Any) -> datetime | None:
    try:
        dt = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def state_path(memsearch_dir: Path) -> Path:
    return Path(memsearch_dir) / STATE_FILE


def load_state(memsearch_dir: Path) -> tuple[dict[str, Any], str]:
    """The state and a problem description ("" when fine). A broken file reads as empty,
    like memsearch, but the problem is reported so ``doctor`` can name it."""
    path = state_path(memsearch_dir)
    try:
        data = load_json(path, 10_000_000)  # a regular file, capped; deep nesting is a ValueError
    except FileNotFoundError:
        return {}, ""
    except (OSError, ValueError) as exc:
        return {}, f"{path}: unreadable state ({exc}); it will be rewritten on the next run"
    if not isinstance(data, dict):
        return {}, f"{path}: state is not a JSON object; it will be rewritten on the next run"
    return {k: v for k, v in data.items() if isinstance(v, dict)}, ""


def save_state(memsearch_dir: Path, state: dict[str, Any]) -> None:
    from memsearch_tui.engine.core.atomic import atomic_write_text  # tempfile: only paid when state is written

    atomic_write_text(state_path(memsearch_dir), json.dumps(state, indent=2, sort_keys=True) + "\n")


def record_success(
    memsearch_dir: Path, key: str, *, digest: str, action: str, output_file: Path, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Replace the entry of ``key`` (re-reading the file first so other tasks' entries survive)."""
    now = now_utc()
    entry = {
        "last_checked_at": now,
        "last_success_at": now,
        "last_input_digest": digest,
        "last_action": action,
        "output_file": str(output_file),
        **(extra or {}),
    }
    state, _ = load_state(memsearch_dir)
    state[key] = entry
    save_state(memsearch_dir, state)
    return entry


def record_decision(memsearch_dir: Path, key: str, proposal_id: str, decision: str) -> bool:
    """A person accepted or rejected the proposal ``key``'s last run made: the entry stops
    saying "proposed" (``tui_action`` becomes the decision; an accepted rewrite's
    ``last_action`` becomes memsearch's ``replace``). Another run's entry is left alone."""
    state, _ = load_state(memsearch_dir)
    entry = state.get(key)
    if not entry or entry.get("proposal_id") != proposal_id or entry.get(TUI_ACTION) != PROPOSED:
        return False
    entry[TUI_ACTION] = decision
    if decision == "accepted" and entry.get("last_action") == "none":
        entry["last_action"] = "replace"
    save_state(memsearch_dir, state)
    return True


def record_failure(
    memsearch_dir: Path, key: str, *, digest: str, error: str, output_file: Path | None = None
) -> dict[str, Any]:
    """Merge the failure keys into the entry of ``key``, keeping its last success."""
    now = now_utc()
    state, _ = load_state(memsearch_dir)
    entry = dict(state.get(key, {}))
    entry.update(
        last_checked_at=now,
        last_failed_at=now,
        failed_input_digest=digest,
        last_action="error",
        last_error=_truncate(error),
    )
    if output_file is not None:
        entry["output_file"] = str(output_file)
    state[key] = entry
    save_state(memsearch_dir, state)
    return entry


def _truncate(message: str) -> str:
    """memsearch's rule: at most 2000 characters, marked when cut. Secrets are masked
    first (a provider's stderr can echo its key): the state file is read by ``status``,
    ``doctor``, the TUI and memsearch itself."""
    from memsearch_tui.engine.core.secrets import redact  # re2: only when a failure is recorded
    from memsearch_tui.engine.core.terminal import printable

    message = printable(redact(message))  # memsearch prints it back as it is
    marker = "... [truncated]"
    return message if len(message) <= MAX_ERROR_CHARS else message[: MAX_ERROR_CHARS - len(marker)] + marker


#: input folder → (each day file's relative path and stat, the digest of them): the
#: Maintenance, Notes and Overview panes each ask ``status``, which digests every task's
#: input; 10,000 days read twelve times took 8–17 s a pane (issue 37). Reused only while
#: every file's inode, size, mtime and ctime are the same, and only when none of them was
#: written in the last ``RACY_NS`` (git's "racy" rule: a coarse clock cannot tell two writes
#: within one tick apart); a few folders at most. The same rule keeps it across processes
#: in the user's data folder (:mod:`.digest_kept`): a fresh process's first ``status``
#: reads no day file when none changed. "Written" is judged by the ctime alone: the kernel
#: sets it at every write from this machine's clock and no tool can set it, and once it is a
#: tick old any later write changes it; a future mtime (a day copied with ``cp -p``/rsync from
#: a machine with a skewed clock, ``touch -d``) kept the whole folder unsettled, re-read by
#: every ``status``, until its time came.
_DIGESTS: dict[str, tuple[tuple[tuple[str, int, int, int, int], ...], str]] = {}
_DIGESTS_KEPT = 8
RACY_NS = 2_000_000_000
#: a day file is hashed in chunks of this many bytes (never held whole), and one over
#: ``DIGEST_FILE_LIMIT`` is not read at all: its size and stamps stand in for its bytes (a
#: 100 GB sparse file named ``2026-12-01.md`` would hold the hook's due check for minutes;
#: memsearch writes days of kilobytes, and the journal readers refuse one over 4 MB)
DIGEST_CHUNK = 1 << 20
DIGEST_FILE_LIMIT = 64 << 20
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
#: a folder under the input folder, opened relative to its parent's descriptor: a symlink
#: swapped in for it since it was listed is ELOOP/ENOTDIR, never followed
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)


def input_digest(input_dir: Path) -> str:
    """memsearch's digest: sha256 over sorted ``**/*.md`` of relpath, NUL, bytes, NUL.

    The files are rglob's (every folder entered, hidden ones too, a symlinked folder never;
    a symlink to a file read through it), in ``sorted(Path)``'s order: part by part. For
    ordinary files the value is memsearch 0.4.23's (``maintenance._input_digest``), so
    either tool sees the other's state as current. Where we differ, and why (a cloned
    repository or an agent decides what the folder holds; the hook's ``--run-due`` and
    the app must not hang on it, nor read outside the project):

    - a ``*.md`` symlink leading out of the project (``contained.escape_reason``, the
      journal listing's rule) is left out, and so is the whole folder when it leads out
      (the digest of nothing); memsearch reads through both;
    - a file is opened ``O_NONBLOCK | O_NOFOLLOW`` and read only when ``fstat`` on that
      descriptor says regular: a FIFO, socket or device swapped in after the listing is
      left out (memsearch's ``is_file()`` skips one present when it lists, but its
      ``read_bytes`` then blocks forever on a FIFO swapped in after), and so is a file
      replaced by a symlink since it was listed;
    - folders are listed and files opened relative to their folder's descriptor, each
      folder opened ``O_NOFOLLOW`` from its parent's, and a file is read only when its
      device and inode are those listed: a folder swapped for a symlink between the
      listing and the read (to a folder holding another's secrets) is not followed, its
      files left out, as files gone;
    - bytes are hashed in ``DIGEST_CHUNK`` pieces up to the size ``fstat`` gave (a file
      growing while it is read does not keep us reading), and a file over
      ``DIGEST_FILE_LIMIT`` is not read: ``size:<n> mtime_ns:<n>`` stands in for its bytes
      (memsearch reads it whole into memory).
    """
    root = Path(input_dir)
    if not root.is_dir():
        return "sha256:empty"
    top = _open_inside(root)
    try:
        return _digest_of(root, top)
    finally:
        if top >= 0:
            os.close(top)


def _open_inside(root: Path) -> int:
    """A descriptor of the folder ``root`` leads to (through a symlink too, as configured),
    or -1 when it is gone, unreadable or leads out of the project. Checked before it is
    opened, and the folder opened is the one checked: its resolved path is opened without
    following a last link, then its device and inode must be those ``root`` resolves to
    now, inside. Opening ``root`` first and checking after followed a link swapped from
    outside to inside meanwhile: the listing went through the outside folder."""
    from memsearch_tui.engine.core.contained import escape_reason, real  # not on the hook's fast path
    from memsearch_tui.engine.memsearch.project import roots_for

    roots = roots_for(root)
    try:
        where = real(root)
        if escape_reason(roots, where) is not None:
            return -1
        top = os.open(where, _DIR_FLAGS)
    except (OSError, ValueError):  # gone or unreadable since: as rglob, nothing listed
        return -1
    try:
        opened, now = os.fstat(top), real(root)
        if escape_reason(roots, now) is None and os.path.samestat(opened, os.stat(now)):
            return top
    except (OSError, ValueError):
        pass
    os.close(top)
    return -1


def _digest_of(root: Path, top: int) -> str:
    """:func:`input_digest` of ``root``, listed and read through its descriptor ``top``."""
    files = sorted(_md_files(str(root), top), key=lambda f: f[0].split(os.sep))
    stamps = tuple((rel, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns) for rel, _path, st in files)
    kept = _DIGESTS.get(str(root))
    if kept is not None and kept[0] == stamps:
        return kept[1]
    from memsearch_tui.engine.memsearch import digest_kept  # the digest another process kept

    newest = max((s[4] for s in stamps), default=0)  # the ctimes: never in the future
    settled = newest < time.time_ns() - RACY_NS
    where = os.path.abspath(root)
    sig = digest_kept.signature(where, stamps, b"limit:%d" % DIGEST_FILE_LIMIT)
    digest = digest_kept.load(where, sig) if settled else None
    if digest is None:
        h = hashlib.sha256()
        folders = _Folders(top)
        try:
            whole = [_feed(h, rel, folders.opener(rel, target), st) for rel, target, st in files]
        finally:
            folders.close()
        digest = f"sha256:{h.hexdigest()}"
        # a listed file not read whole (gone, swapped, cut short): this digest is of no
        # state the stamps name, and a folder moved away and back brings them again
        settled = settled and all(whole)
        if settled:
            digest_kept.save(where, sig, digest)
    if settled:
        if len(_DIGESTS) >= _DIGESTS_KEPT:
            _DIGESTS.clear()
        _DIGESTS[str(root)] = (stamps, digest)
    return digest


class _Folders:
    """Opens each listed file from the folder it was listed in: the input folder's own
    descriptor, then each folder below ``O_NOFOLLOW`` relative to its parent's (one folder
    kept open at a time: the files come sorted, a folder's together)."""

    def __init__(self, top: int) -> None:
        self.top = top
        self.parts: tuple[str, ...] = ()
        self.fd = top

    def opener(self, rel: str, target: str | None) -> Callable[[], int]:
        """How to open ``rel``: its resolved ``target`` for an inside link, else by name."""
        if target is not None:
            return lambda: os.open(target, _OPEN_FLAGS)
        *parts, name = rel.split(os.sep)
        return lambda: os.open(name, _OPEN_FLAGS, dir_fd=self.folder(tuple(parts)))

    def folder(self, parts: tuple[str, ...]) -> int:
        if parts != self.parts:
            self.close()
            fd = self.top
            try:
                for part in parts:  # a link swapped in for a folder: ELOOP / ENOTDIR
                    sub = os.open(part, _DIR_FLAGS, dir_fd=fd)
                    if fd != self.top:
                        os.close(fd)
                    fd = sub
            except OSError:
                if fd != self.top:
                    os.close(fd)
                raise
            self.parts, self.fd = parts, fd
        return self.fd

    def close(self) -> None:
        if self.fd != self.top:
            os.close(self.fd)
        self.parts, self.fd = (), self.top


def _feed(h: Any, rel: str, opener: Callable[[], int], listed: os.stat_result) -> bool:
    """relpath, NUL, the bytes of the regular file ``opener`` opens into ``h``; nothing
    when it is no longer a regular file, nor the file listed (another device or inode),
    or is gone or unreadable: as a file rglob listed and ``is_file`` then denied. Whether
    the listed file was hashed whole."""
    try:
        fd = opener()  # a FIFO opens at once; a link swapped in is ELOOP
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (listed.st_dev, listed.st_ino):
            return False
        h.update(rel.encode())
        h.update(b"\0")
        left = 0
        if st.st_size > DIGEST_FILE_LIMIT:
            h.update(f"size:{st.st_size} mtime_ns:{st.st_mtime_ns}".encode())
        else:
            left = st.st_size
            while left > 0:
                chunk = os.read(fd, min(DIGEST_CHUNK, left))
                if not chunk:  # cut short while we read
                    break
                h.update(chunk)
                left -= len(chunk)
        h.update(b"\0")
        return left <= 0
    except OSError:  # EIO halfway: hash what was read, kept by no one
        return False
    finally:
        os.close(fd)


def _md_files(root: str, top: int) -> list[tuple[str, str | None, os.stat_result]]:
    """(relative path, resolved target or None, stat) of each regular file ``*.md`` under
    ``root``, listed through its descriptor ``top`` (-1: nothing).

    A symlinked ``*.md`` counts only when it stays inside the project (the journal
    listing's rule, ``contained.escape_reason`` under ``project.roots_for``); its target is
    then the resolved path, opened without following links; any other file is opened by
    name from its folder (``_Folders``). Nothing at all when ``root`` itself leads out.
    Folders are entered ``O_NOFOLLOW`` from their parent's descriptor (as many open as
    the depth), never through a symlink, even one swapped in after the parent's listing."""
    from memsearch_tui.engine.core.contained import escape_reason  # not on the hook's fast path
    from memsearch_tui.engine.memsearch.project import roots_for

    roots = roots_for(Path(root))
    if top < 0 or escape_reason(roots, root) is not None:
        return []
    out: list[tuple[str, str | None, os.stat_result]] = []
    stack = [(top, iter(_list_folder(top, "", root, roots, out)), "", root)]
    try:
        while stack:
            fd, subs, prefix, folder = stack[-1]
            name = next(subs, None)
            if name is None:
                stack.pop()
                if fd != top:
                    os.close(fd)
                continue
            try:
                sub = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError:  # as rglob: an unreadable folder adds nothing
                continue
            path = os.path.join(folder, name)
            stack.append(
                (
                    sub,
                    iter(_list_folder(sub, f"{prefix}{name}{os.sep}", path, roots, out)),
                    prefix + name + os.sep,
                    path,
                )
            )
    finally:
        for fd, *_ in stack:
            if fd != top:
                os.close(fd)
    return out


def _list_folder(
    fd: int, prefix: str, folder: str, roots: Any, out: list[tuple[str, str | None, os.stat_result]]
) -> list[str]:
    """The ``*.md`` files of the folder open as ``fd`` into ``out``; the names of its folders."""
    from memsearch_tui.engine.core.contained import escape_reason, real

    subs: list[str] = []
    try:
        it = os.scandir(fd)
    except OSError:  # as rglob: an unreadable folder adds nothing
        return subs
    with it:
        for de in it:
            if de.is_dir(follow_symlinks=False):
                subs.append(de.name)
            elif de.name.endswith(".md"):
                try:
                    st = de.stat()  # through a link, as ``Path.is_file``
                    link = de.is_symlink()
                except OSError:  # a dangling link or a loop: ``is_file`` is False
                    continue
                if not stat.S_ISREG(st.st_mode):
                    continue
                if not link:
                    out.append((prefix + de.name, None, st))
                else:
                    path = os.path.join(folder, de.name)
                    if escape_reason(roots, path) is None:
                        out.append((prefix + de.name, real(path), st))
    return subs
