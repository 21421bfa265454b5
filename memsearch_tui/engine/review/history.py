"""Proposal history per target file: what was accepted, rejected or superseded, with a base.

The Notes pane shows PROJECT.md / USER.md and every proposal ever made for them. A
proposal file keeps the full proposed text but not the file it would have replaced, so the
base of each diff is the nearest older *accepted* proposal for the same target (what the
file became then), or the file as it is now when there is none — and the base says which.
Read-only, bounded reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.review import proposals as props

MAX_NOTE_BYTES = 1_000_000


@dataclass
class NoteHistoryItem:
    proposal: props.ProjectProposal
    base_text: str
    base_label: str  # "accepted <id>" or "file now"


def read_note(path: Path) -> str | None:
    """PROJECT.md / USER.md as text (None when missing), at most ``MAX_NOTE_BYTES``."""
    try:
        with Path(path).open("rb") as fh:
            data = fh.read(MAX_NOTE_BYTES)
    except OSError:
        return None
    return data.decode("utf-8", errors="replace")


def history(project: Path) -> list[NoteHistoryItem]:
    """Every proposal of ``project``, newest first, each with the text to diff it against."""
    everything = props.list_all(project)  # newest first
    out: list[NoteHistoryItem] = []
    now: dict[str, str | None] = {}
    for i, p in enumerate(everything):
        older = next(
            (q for q in everything[i + 1 :] if q.target == p.target and q.status == props.ACCEPTED),
            None,
        )
        if older is not None and p.status != props.PENDING:  # pending: against the file now
            out.append(NoteHistoryItem(p, older.content, f"accepted {older.id}"))
            continue
        if p.target not in now:
            now[p.target] = read_note(Path(p.target))
        out.append(NoteHistoryItem(p, now[p.target] or "", "file now"))
    return out
