"""Forget, redact and restore journal text, and keep everything derived from it honest.

The curator (:mod:`memsearch_tui.engine.curator.journals`) edits the day file and the
trash in one undoable transaction. This module, beside the journal noun (the API layer
may import both the review and the search packages), then marks proposals built from
the removed text stale and refreshes the search indexes, so a forgotten turn stops being
found at once. ``mem.journal`` (the CLI's ``journal`` commands, the TUI's ``d``/``x``
keys) calls these functions, nothing lower.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.curator import journals
from memsearch_tui.engine.maintenance.prompts import MAX_JOURNALS
from memsearch_tui.engine.review.journal_stale import excerpt_ref, mark_for_day


def forget(
    memory_root: Path,
    project: Path,
    day: str,
    *,
    session: str | None = None,
    turn: str | None = None,
    reason: str,
    expected: bytes | None = None,
) -> dict[str, Any]:
    """``journal forget``: the selection goes to the trash; proposals and indexes follow.
    ``expected``: the day file as the user saw it (a change since is refused)."""
    out = journals.forget(memory_root, project, day, session=session, turn=turn, reason=reason, expected=expected)
    return _follow_up(memory_root, project, out)


def redact(
    memory_root: Path,
    project: Path,
    day: str,
    *,
    pattern: str,
    session: str | None = None,
    turn: str | None = None,
    reason: str,
    regex: bool = False,
    expected: bytes | None = None,
) -> dict[str, Any]:
    """``journal redact``: matches become ``[redacted]``; the original lines go to the trash.
    ``expected``: the day file as the user saw it (a change since is refused)."""
    out = journals.redact(
        memory_root,
        project,
        day,
        pattern=pattern,
        session=session,
        turn=turn,
        reason=reason,
        regex=regex,
        expected=expected,
    )
    return _follow_up(memory_root, project, out)


def restore(memory_root: Path, project: Path, ref: str) -> dict[str, Any]:
    """``journal restore KEY``: the excerpt goes back into its day; the indexes follow."""
    out = journals.restore(memory_root, ref)
    out["index"] = refresh(memory_root, project)
    out["memsearch_index"] = scrub_memsearch(memory_root, project, [Path(out["restored"])])
    return out


def _follow_up(memory_root: Path, project: Path, out: dict[str, Any]) -> dict[str, Any]:
    what = "forgotten" if out["action"] == "forget" else "redacted"
    note = f"built from journal {out['day']} before text was {what} ({out['reason']})"
    trashed = Path(out["trash_file"])
    removed = fmio.parse(trashed.read_bytes(), str(trashed)).body  # the lines as they were
    ref = excerpt_ref(Path(out["file"]), removed)
    out["stale_proposals"] = mark_for_day(project, out["day"], note, newest=MAX_JOURNALS, ref=ref)
    out["index"] = refresh(memory_root, project)
    out["memsearch_index"] = scrub_memsearch(memory_root, project, [Path(out["file"])])
    return out


def scrub_memsearch(memory_root: Path | None, project: Path | None, files: list[Path]) -> dict[str, Any]:
    """memsearch's own index loses the chunks its next ``index`` would delete (see
    :func:`memsearch_tui.engine.memsearch.index_scrub.scrub`, which every forget, redact,
    restore and purge calls)."""
    from memsearch_tui.engine.memsearch.index_scrub import scrub

    result = scrub(memory_root, project, files)
    return {**result.as_dict(), "warning": result.warning}


def refresh(memory_root: Path, project: Path) -> dict[str, Any]:
    """Refresh the keyword and vector indexes; a failure is reported, never raised (the
    journal change itself is done and logged; ``vectors index`` catches up later)."""
    from memsearch_tui.engine.search.status import refresh_after_edit  # loads the manifest code only here

    try:
        return refresh_after_edit(memory_root, project)
    except MemsearchError as exc:
        return {"keyword": "deferred", "vectors": "deferred", "error": exc.message}
    except (ImportError, OSError, sqlite3.Error) as exc:  # no vector libraries, a full disk: the edit stands
        return {"keyword": "deferred", "vectors": "deferred", "error": f"{type(exc).__name__}: {exc}"}
