"""Proposals built from a journal turn that was later forgotten or redacted are stale.

A pending PROJECT.md/USER.md rewrite (or skill candidate) was written by a model that read
the journals as they were; once a turn is forgotten, accepting it would bring the
forgotten text back. Which journals a proposal read is not recorded, but the prompt takes
the newest journals at the time it was made, so every pending journal-fed proposal made
on or after the forgotten day is marked (a false "stale" costs a re-run; a missed one
leaks what a person asked to forget).
"""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.review import proposals

JOURNAL_TASKS = ("project_review", "user_profile", "memory_to_skill")


def mark_for_day(project: Path, day: str, note: str) -> list[str]:
    """Mark pending journal-fed proposals created on or after ``day``; their ids."""
    marked = []
    for prop in proposals.list_pending(project):
        if prop.task in JOURNAL_TASKS and prop.created[:10] >= day[:10] and not prop.extra.get("stale"):
            proposals.mark_stale(project, prop, note)
            marked.append(prop.id)
    return marked
