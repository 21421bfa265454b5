"""The one "edit an entry in $EDITOR" round trip, shared by the CLI's ``edit`` and the TUI's ``e``.

The faces differ only in how they run a program (the TUI suspends itself first), so they pass
that in. Everything else is one rule: the editor gets a temporary copy of the file's bytes,
what it saves is validated like any write, and it replaces the entry only if the file still
holds the bytes the editor started from (``expected=``): a change an agent or another tool
made meanwhile is never overwritten. On any refusal the user's text is kept in a file whose
path the error names, so nothing typed is lost.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
        exc.message = f"{exc.message} — nothing saved; your edit is kept in {keep_unsaved(edited)}"
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
            raise InvalidInput(f"editor {command[0]!r} exited with status {code}; nothing saved")
        return path.read_bytes()


def keep_unsaved(data: bytes) -> Path:
    """Write text that could not be saved to a private temp file; its path."""
    fd, keep = tempfile.mkstemp(prefix="memsearch-tui-unsaved-", suffix=".md")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return Path(keep)
