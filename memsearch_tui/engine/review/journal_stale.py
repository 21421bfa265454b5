"""Proposals built from a journal turn that was later forgotten or redacted are stale.

A pending PROJECT.md/USER.md rewrite (or skill candidate) was written by a model that read
the journals as they were; once a turn is forgotten, accepting it would bring the
forgotten text back. Which journals a proposal read is not recorded, but a task's prompt
takes the newest ``newest`` journals existing when it ran, so a pending journal-fed
proposal is marked when the forgotten day was among the newest days on or before the
day it was made (a false "stale" costs a re-run; a missed one leaks what a person asked
to forget).

The mark ends when the text is back: undoing the forget or restoring the turn from the
trash puts the same lines into the day file again. So the mark carries a reference to the
removed lines (the day file, how many lines, their SHA-256 — never the text itself, which
would leak it into the proposal file) and :func:`stale_note` checks it whenever it is
asked; purging the excerpt keeps the proposal stale, since the text stays gone.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from memsearch_tui.engine.memsearch.journal import journal_files
from memsearch_tui.engine.memsearch.project import memsearch_dir
from memsearch_tui.engine.review import proposals
from memsearch_tui.engine.review.stale_mark import excerpt_ref, stale_note

__all__ = ["JOURNAL_TASKS", "excerpt_ref", "mark_for_day", "stale_note"]

JOURNAL_TASKS = ("project_review", "user_profile", "memory_to_skill")
_DAY = re.compile(r"^(\d{4}-\d{2}-\d{2})")


def mark_for_day(
    project: Path, day: str, note: str, *, newest: int = 12, ref: dict[str, Any] | None = None
) -> list[str]:
    """Mark the pending journal-fed proposals that could have read ``day``; their ids.
    ``ref`` (:func:`excerpt_ref`) lets the mark end when the removed lines come back."""
    days = {m.group(1) for p in journal_files(memsearch_dir(Path(project)) / "memory") if (m := _DAY.match(p.name))}
    days.add(day[:10])
    marked = []
    for prop in proposals.list_pending(project):
        if prop.task not in JOURNAL_TASKS:
            continue
        made = prop.created[:10]
        read = sorted((d for d in days if d <= made), reverse=True)[:newest]
        if day[:10] in read:
            proposals.mark_stale(project, prop, note, ref=ref)
            marked.append(prop.id)
    return marked
