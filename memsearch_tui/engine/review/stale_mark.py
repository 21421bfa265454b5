"""A proposal's stale mark: why it is stale, and whether that still holds.

A forget or redact marks the pending proposals that could have read the removed text
(:mod:`.journal_stale` decides which). Each mark keeps a reference to the removed lines
(the day file, how many lines, their SHA-256 — never the text, which would leak into the
proposal file); the mark holds until those lines are in the day file again (an undo of
the forget, a restore from the trash). Purging the excerpt keeps it: the text stays gone.
Here, below ``proposals`` (which refuses a stale accept) and ``journal_stale`` (which
marks), so neither imports the other.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.safe_io import read_capped

MAX_DAY_BYTES = 8 * 1024 * 1024  # as ``curator.day_copies``: a bigger file is no journal day


def excerpt_ref(day_file: Path, removed: str) -> dict[str, Any]:
    """What a stale mark keeps of the removed lines, to see later whether they are back."""
    lines = removed.replace("\r\n", "\n").splitlines()
    return {"file": str(day_file), "lines": len(lines), "sha256": _digest(lines)}


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(line.rstrip() for line in lines).encode("utf-8")).hexdigest()


def text_is_back(ref: dict[str, Any]) -> bool:
    """Are the removed lines in the day file again (an undo, a restore from the trash)?"""
    try:
        n, want, path = int(ref["lines"]), str(ref["sha256"]), Path(str(ref["file"]))
        data = read_capped(path, MAX_DAY_BYTES)  # never blocks: the path comes from a proposal file
        lines = data.decode("utf-8", errors="replace").replace("\r\n", "\n").splitlines()
    except (KeyError, TypeError, ValueError, OSError, MemsearchError):
        return False  # no usable reference, or the day is gone: still stale
    return n > 0 and any(_digest(lines[i : i + n]) == want for i in range(len(lines) - n + 1))


def stale_note(prop: Any) -> str:
    """Why ``prop`` is stale ("" when it is not, or no longer is: every removal it was
    marked for has its text back). A mark without references (older files) holds."""
    refs = prop.extra.get("stale_refs")
    if not isinstance(refs, list):
        return str(prop.extra.get("stale") or "")
    for ref in refs:
        if isinstance(ref, dict) and not text_is_back(ref):
            return str(ref.get("note") or prop.extra.get("stale") or "stale")
    return ""
