"""What was forgotten or redacted from journal days: remembered after the trash is purged.

A sync tool's conflicted copy made before a forget still holds the forgotten turn. The
trash's journal records let a merge leave it out (``day_copies.removed_from``), but a
purge deletes them, and the turn came back from the copy. So each forget or redaction also
writes, in the same logged transaction, one small line per removed turn to the memory
root's state folder (``.memsearch-tui/journal-forgotten.json``): the project, the day, the
turn's anchor ids and a SHA-256 of its text as the merge compares it (words, lowercased),
never the text itself, so no secret is kept there. A purge leaves this record alone;
``journal restore`` / ``trash restore`` of the excerpt drops its lines (the turn is back);
``undo`` of the forget puts the record back as it was, with the day.

The file is bounded (the newest ``MAX_TURNS`` lines are kept) and read capped; a damaged
one is read as empty (the trash's records still count) and rewritten whole at the next
forget.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.core.state_files import JOURNAL_FORGOTTEN, state_file
from memsearch_tui.engine.core.text import normalise
from memsearch_tui.engine.history.txn import Transaction
from memsearch_tui.engine.memsearch.journal import Turn, parse_journal

MAX_TURNS = 20_000  # ~3 MB of JSON: years of forgetting; the oldest go first
MAX_BYTES = 8 * 1024 * 1024


def turn_text(turn: Turn, lines: list[str]) -> str:
    """A turn's text as a merge compares it: its bullets, else the lines under its heading
    (``lines``: the turn's lines, heading first), reduced to words, lowercased."""
    return normalise(" ".join(turn.bullets) or "\n".join(lines[1:]))


def fingerprint(text: str) -> str:
    """SHA-256 of a :func:`turn_text`: recognises the turn again without keeping it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def removed_turns(old_text: str, new_text: str, start: int, end: int) -> list[dict[str, str]]:
    """The turns within lines ``start``–``end`` of ``old_text`` that ``new_text`` no longer
    has as they were (all of them for a forget; the changed ones for a redaction)."""
    old_lines, new_lines = old_text.splitlines(), new_text.splitlines()
    still = {
        fingerprint(turn_text(t, new_lines[t.line - 1 : t.end_line]))
        for t in parse_journal(new_text, Path("day.md")).turns
    }
    out = []
    for s in parse_journal(old_text, Path("day.md")).sessions:
        sid = next((a.session_id for a in [*s.anchors, *(t.anchor for t in s.turns if t.anchor)] if a.session_id), "")
        for t in s.turns:
            if t.line < start or t.end_line > end:
                continue
            text = fingerprint(turn_text(t, old_lines[t.line - 1 : t.end_line]))
            if text in still:
                continue
            tid = t.anchor.fields.get("turn", "") if t.anchor else ""
            out.append({"session_id": (t.anchor.session_id if t.anchor else "") or sid, "turn_id": tid, "text": text})
    return out


def read(root: Path) -> list[dict[str, str]]:
    """Every remembered line (empty when there is none, or it is damaged)."""
    path = state_file(root, JOURNAL_FORGOTTEN)
    try:
        data = json.loads(read_capped(path, MAX_BYTES))
    except (FileNotFoundError, MemsearchError, OSError, ValueError):
        return []
    rows = data.get("turns") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        return []
    return [{k: str(v) for k, v in r.items()} for r in rows if isinstance(r, dict)]


def remember(txn: Transaction, root: Path, project: Path, day: str, key: str, rows: list[dict[str, str]]) -> None:
    """Add ``rows`` (:func:`removed_turns`) of ``day`` in ``project``, removed into trash
    item ``key``, inside the forget's transaction."""
    base = {"project": str(Path(project).resolve()), "day": day, "key": key}
    _write(txn, root, read(root) + [{**base, **r} for r in rows])


def drop(txn: Transaction, root: Path, key: str) -> None:
    """Forget the lines of trash item ``key`` (restored: the turn is back in its day)."""
    rows = read(root)
    kept = [r for r in rows if r.get("key") != key]
    if len(kept) != len(rows):
        _write(txn, root, kept)


def _write(txn: Transaction, root: Path, rows: list[dict[str, Any]]) -> None:
    body = json.dumps({"version": 1, "turns": rows[-MAX_TURNS:]}, ensure_ascii=False, indent=0)
    txn.write(state_file(root, JOURNAL_FORGOTTEN), body + "\n")
