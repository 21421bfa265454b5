"""Proposal history per target file: what was accepted, rejected or superseded, with a base.

The Notes pane shows PROJECT.md / USER.md and every proposal ever made for them. A
proposal file keeps the full proposed text but not the file it would have replaced, so the
base of each diff is the nearest older *accepted* proposal for the same target (what the
file became then), or the file as it is now when there is none — and the base says which.
Read-only, bounded reads. A tampered proposal's target (or one that cannot be checked
while the config does not load) is never read: a shipped proposal file may name
``~/.aws/credentials``; its base is empty and says so, as the Maintenance pane shows no diff.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.review import proposals as props

MAX_NOTE_BYTES = 1_000_000
NEVER_READ = "never read: the proposal is flagged"
NOT_WRITTEN = (
    "not written yet"  # a note file that does not exist (``why_unread``)  # the base label of a flagged proposal
)


@dataclass
class NoteHistoryItem:
    proposal: props.ProjectProposal
    base_text: str
    base_label: str  # "accepted <id>", "file now", or NEVER_READ (a flagged proposal)


def read_note(path: Path) -> str | None:
    """PROJECT.md / USER.md as text (None when missing or not a regular file), at most
    ``MAX_NOTE_BYTES``. Opened non-blocking and checked before reading: a FIFO or device
    named PROJECT.md would otherwise block the worker forever (and the app's exit with it)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_NOTE_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data.decode("utf-8", errors="replace")


def why_unread(path: Path) -> str:
    """Why ``read_note`` gave None for ``path``, in a few words a face shows beside its name:
    a FIFO or device named PROJECT.md is there but never read, which "not written yet"
    would hide. Only ``stat``: it never opens the file, so it cannot block."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return NOT_WRITTEN
    except OSError as exc:
        return f"not read: {exc.strerror or exc.__class__.__name__}"
    if not stat.S_ISREG(mode):
        return "not a regular file: not read"
    return "not readable: not read"


def history(project: Path) -> list[NoteHistoryItem]:
    """Every proposal of ``project``, newest first, each with the text to diff it against."""
    everything = props.list_all(project)  # newest first
    out: list[NoteHistoryItem] = []
    now: dict[str, str | None] = {}
    for i, p in enumerate(everything):
        older = next(
            (q for q in everything[i + 1 :] if q.target == p.target and q.status == props.ACCEPTED and not q.tampered),
            None,
        )
        if p.tampered:  # its target may be any file of the user's: never read
            out.append(NoteHistoryItem(p, "", NEVER_READ))
            continue
        if older is not None and p.status != props.PENDING:  # pending: against the file now
            out.append(NoteHistoryItem(p, older.content, f"accepted {older.id}"))
            continue
        if p.target not in now:
            now[p.target] = read_note(Path(p.target))
        text = now[p.target]
        why = why_unread(Path(p.target)) if text is None else NOT_WRITTEN
        out.append(NoteHistoryItem(p, text or "", "file now" if why == NOT_WRITTEN else f"file now: {why}"))
    return out
