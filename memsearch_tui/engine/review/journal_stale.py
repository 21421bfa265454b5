"""Proposals built from a journal turn that was later forgotten or redacted are stale.

A pending PROJECT.md/USER.md rewrite (or skill candidate) was written by a model that read
the journals as they were; once a turn is forgotten, accepting it would bring the
forgotten text back. Which journals a proposal read is not recorded, but a task's prompt
takes the newest ``newest`` journals existing when it ran, so a pending journal-fed
proposal is marked when the forgotten day was among the newest days on or before the
day it was made (a false "stale" costs a re-run; a missed one leaks what a person asked
to forget).
"""

from __future__ import annotations

import re
from pathlib import Path

from memsearch_tui.engine.memsearch.journal import journal_files
from memsearch_tui.engine.memsearch.project import memsearch_dir
from memsearch_tui.engine.review import proposals

JOURNAL_TASKS = ("project_review", "user_profile", "memory_to_skill")
_DAY = re.compile(r"^(\d{4}-\d{2}-\d{2})")


def mark_for_day(project: Path, day: str, note: str, *, newest: int = 12) -> list[str]:
    """Mark the pending journal-fed proposals that could have read ``day``; their ids."""
    days = {m.group(1) for p in journal_files(memsearch_dir(Path(project)) / "memory") if (m := _DAY.match(p.name))}
    days.add(day[:10])
    marked = []
    for prop in proposals.list_pending(project):
        if prop.task not in JOURNAL_TASKS or prop.extra.get("stale"):
            continue
        made = prop.created[:10]
        read = sorted((d for d in days if d <= made), reverse=True)[:newest]
        if day[:10] in read:
            proposals.mark_stale(project, prop, note)
            marked.append(prop.id)
    return marked
