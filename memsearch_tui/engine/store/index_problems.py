"""Which ``index check`` problems ``index check --fix`` repairs, and the hand fix for the rest.

``--fix`` rewrites INDEX.md files (and ``.trash/INDEX.md``) from the entry files and sweeps
temp files of killed writers. It cannot repair an entry file: a FIFO or a symlink loop
named ``*.md``, broken frontmatter, a file over the size limit, a name that is not UTF-8.
Pointing people at ``--fix`` for those sends them round in a circle, so ``index check``
and ``doctor`` take both the promise and the hint from here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.text import plural, verb

FIX_COMMAND = "memsearch-tui index check --fix"

#: kinds that rewriting the indexes (or sweeping temp files) makes go away
_REPAIRED_KINDS = frozenset(
    {
        "missing_index",
        "missing_row",
        "orphan_row",
        "wrong_count",
        "wrong_updated",
        "wrong_title",
        "wrong_status",
        "temp_file",
        "trash_index",
    }
)


def repairable(problem: dict[str, Any]) -> bool:
    """True when ``index check --fix`` makes ``problem`` go away."""
    kind = str(problem.get("kind", ""))
    if kind == "malformed":  # an index file it can rewrite, unless a folder stands in its place
        return "is a folder" not in str(problem.get("message", ""))
    return kind in _REPAIRED_KINDS


def fix_hint(problem: dict[str, Any], root: Path | None = None) -> str:
    """The command that repairs ``problem``, or what the person must do by hand."""
    if repairable(problem):
        return FIX_COMMAND
    rel = str(problem.get("file", ""))
    where = str(Path(root) / rel) if root is not None and rel else rel
    kind, message = str(problem.get("kind", "")), str(problem.get("message", ""))
    if kind == "outside_category":
        return f"move {where} into a category folder, then run {FIX_COMMAND}"
    if kind == "malformed":
        return f"rename or remove the folder {where}, then run {FIX_COMMAND}"
    return _file_fix(where, message) if kind in ("unreadable_file", "invalid_entry") else f"fix {where} by hand"


def _file_fix(where: str, message: str) -> str:
    """By hand: the one thing that makes this file usable again (or takes it out)."""
    if "symlink loop" in message:
        return f"remove the symlink loop {where} (or point it at a real file)"
    if "outside the memory root" in message:
        return f"remove the link {where}: an entry must be a file inside the memory root (copy the file in instead)"
    if "symlinked folder" in message:
        return f"remove the link {where}, or move the folder it points to into the memory root"
    if "dangling symlink" in message:
        return f"remove the link {where}, or restore the file it points to"
    if "not a regular file" in message:
        return f"remove {where}: it is not a regular file (a FIFO, socket or device), so it cannot be an entry"
    if "not valid UTF-8" in message and "name" in message:
        return f"rename {where} to a name that is valid UTF-8"
    if "-byte limit" in message or "too large" in message:
        return f"shorten or split {where} below the size limit (or move it out of the store)"
    if "permission denied" in message.lower() or "cannot be read" in message:
        return f"make {where} readable (its permissions), or move it out of the store"
    return f"fix the frontmatter of {where} where the message says (or move the file out of the store)"


def summary(problems: list[dict[str, Any]]) -> str:
    """ "N problems found; …" — promising ``--fix`` only for what it repairs."""
    total = plural(len(problems), "problem")
    repaired = sum(map(repairable, problems))
    if not repaired:
        return f"{total} found; each needs a hand fix (see the fix: lines)"
    if repaired == len(problems):
        return f"{total} found; `index check --fix` repairs the indexes"
    hand = len(problems) - repaired
    return f"{total} found; `index check --fix` repairs {repaired}, the other {hand} {verb(hand, 'needs', 'need')} a hand fix"
