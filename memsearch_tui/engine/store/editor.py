"""The one "edit an entry in $EDITOR" round trip, shared by the CLI's ``edit`` and the TUI's ``e``.

The faces differ only in how they run a program (the TUI suspends itself first), so they pass
that in. Everything else is one rule: the editor gets a temporary copy of the file's bytes,
what it saves is validated like any write, and it replaces the entry only if the file still
holds the bytes the editor started from (``expected=``): a change an agent or another tool
made meanwhile is never overwritten. On any refusal (and when the editor fails after writing)
the user's text is kept in a file whose path the error names, so nothing typed is lost: in
the user's data folder (``<data>/unsaved/``), not /tmp, which many systems empty at boot.
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.data_dir import data_home
from memsearch_tui.engine.core.errors import InvalidInput, MemsearchError
from memsearch_tui.engine.store.entry import Entry
from memsearch_tui.engine.store.store import Store

RunProgram = Callable[[list[str]], int]  # runs a command line, returns its exit status


@dataclass(frozen=True)
class EditorResult:
    """What came of one round trip: the entry as it now is, and whether it changed."""

    entry: Entry
    changed: bool


def editor_command() -> list[str]:
    """``$VISUAL``, else ``$EDITOR``, else ``vi``, split as a shell would."""
    return shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")


def edit_in_editor(store: Store, entry_id: str, run: RunProgram) -> EditorResult:
    """Open ``entry_id`` in the user's editor through ``run`` and save what comes back."""
    entry = store.get(entry_id)
    assert entry.path is not None
    original = entry.path.read_bytes()
    edited = edit_bytes(original, entry.path.name, run)
    if edited == original:
        return EditorResult(entry, changed=False)
    try:
        return EditorResult(store.replace_raw(entry.id, edited, expected=original), changed=True)
    except MemsearchError as exc:
        exc.message = f"{exc.message} — nothing saved; your edit is kept in {keep_unsaved(edited, entry.path.name)}"
        raise


def edit_bytes(data: bytes, name: str, run: RunProgram) -> bytes:
    """Let the user edit ``data`` (shown as a file called ``name``); what they saved."""
    command = editor_command()
    with tempfile.TemporaryDirectory(prefix="memsearch-tui-edit-") as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        try:
            code = run([*command, str(path)])
        except FileNotFoundError:
            raise InvalidInput(f"editor {command[0]!r} not found; set $EDITOR") from None
        if code != 0:
            written = path.read_bytes() if path.is_file() else data
            kept = f"; what it wrote is kept in {keep_unsaved(written, name)}" if written != data else ""
            raise InvalidInput(f"editor {command[0]!r} exited with status {code}; nothing saved{kept}")
        return path.read_bytes()


UNSAVED = "unsaved"  # <data>/unsaved/: edits that could not be saved, until the person deletes them
_NAME_CHARS = re.compile(r"[^\w.-]+")
_NAME_BYTES = 200  # with the date (18), a "-n" and the temp fallback's prefix (31): under 255


def unsaved_dir() -> Path:
    """``<data>/unsaved``: where an edit that could not be saved is kept (0700)."""
    return data_home() / UNSAVED


_FALLBACK = "memsearch-tui-unsaved-"  # an edit kept in the system temp folder: the data folder took none


def kept_unsaved() -> list[Path]:
    """The edits kept in :func:`unsaved_dir`, and those :func:`keep_unsaved` had to put in the
    system temp folder (ours only), oldest first (their names start with the date and time
    they were kept): what ``doctor`` lists. Nothing here deletes them."""
    found: list[Path] = []
    for folder, pattern in ((unsaved_dir(), "*"), (Path(tempfile.gettempdir()), f"{_FALLBACK}*")):
        try:  # no folder yet (nothing kept), or one we cannot read
            found += [p for p in folder.glob(pattern) if _own_file(p)]
        except OSError:
            continue
    return sorted(
        found,
        key=lambda p: p.name.removeprefix(_FALLBACK).split("-", 1)[-1] if p.name.startswith(_FALLBACK) else p.name,
    )


def _own_file(path: Path) -> bool:
    try:
        st = path.lstat()
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid()


def keep_unsaved(data: bytes, name: str = "edit.md") -> Path:
    """Write text that could not be saved to a new private file (0600, its folder 0700) in
    :func:`unsaved_dir`, named by when and what (``2026-11-30-120000-deploy.md``); its path."""
    stem = f"{clock.now():%Y-%m-%d-%H%M%S}-{_short_name(name)}"
    try:
        return _write_new(unsaved_dir(), stem, data)
    except OSError:  # the data folder cannot be written (full, read-only): a temp file beats losing it
        fd, keep = tempfile.mkstemp(prefix=_FALLBACK, suffix=f"-{stem}")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        return Path(keep)


def _short_name(name: str) -> str:
    """``name``'s last part, made of word characters, ``.`` and ``-``, at most
    :data:`_NAME_BYTES` bytes in UTF-8 with its suffix kept: a file name is at most 255
    bytes, and 80 Chinese characters (a slug's limit) are 240 before the date is added."""
    clean = Path(_NAME_CHARS.sub("-", Path(name).name) or "edit.md")
    stem, suffix = clean.stem, clean.suffix[:16]
    while stem and len((stem + suffix).encode("utf-8", "surrogatepass")) > _NAME_BYTES:
        stem = stem[:-1]
    return (stem or "edit") + suffix


def _write_new(folder: Path, stem: str, data: bytes) -> Path:
    """``data`` in a new 0600 file ``stem`` in ``folder`` (made 0700), never over another."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    folder.chmod(0o700)  # ours alone, even if it was made wider before
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for n in itertools.count(1):
        path = folder / (stem if n == 1 else f"{Path(stem).stem}-{n}{Path(stem).suffix}")
        try:
            fd = os.open(path, flags, 0o600)
        except FileExistsError:  # two kept in the same second: never over an earlier one
            continue
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        return path
    raise AssertionError("unreachable")  # pragma: no cover - count() never ends
