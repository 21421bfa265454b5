"""Crash-safe ``undo`` on top of the operation log (``engine/oplog.py``).

``undo_last`` restores every file's "before" bytes, but it undoes a *move* (archive,
trash, restore, split, merge) as a delete plus a write: a SIGKILL between the two would
lose the entry. Here a file the undo must delete and a file it must recreate that hold
the same entry body are treated as one move: renamed back first (atomic), then given
their exact old bytes. Other writes run before deletions, so a crash can leave a stale
index (``index check --fix`` repairs it) but never lose or duplicate an entry.

Two more differences: an operation whose files all already hold their "before" bytes (an
undo killed before it could mark the record) is just marked undone; and a change of
only the ``accessed`` date (an entry was read since) does not block the undo.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, NotFound
from memsearch_tui.engine.core.text import normalise
from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.history.changes import read_bytes_or_none
from memsearch_tui.engine.history.oplog import ABSENT, OpRecord
from memsearch_tui.engine.history.txn import transaction


def _body_key(data: bytes | None) -> str | None:
    """What identifies an entry across a move: its normalised body (None if not Markdown)."""
    if data is None:
        return None
    try:
        body = fmio.parse(data, "undo").body
    except InvalidInput:
        return None
    key = normalise(body)
    return key or None


def _same_but_accessed(current: bytes | None, after: bytes | None) -> bool:
    if current is None or after is None:
        return False
    try:
        a, b = fmio.parse(current, "undo"), fmio.parse(after, "undo")
    except InvalidInput:
        return False
    return a.body == b.body and _without_accessed(a.meta) == _without_accessed(b.meta)


def _without_accessed(meta: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in meta.items() if k != "accessed"}


def pending(root: Path) -> OpRecord:
    recs = [r for r in oplog.records(root) if not r.undone]
    if not recs or recs[0].kind == "init":  # undoing `init` would only break the store
        raise NotFound("nothing to undo: the operation log is empty")
    if recs[0].purged:
        raise Conflict(f"cannot undo '{recs[0].summary}': {recs[0].purged}; the undo history ends here")
    return recs[0]


def undo_last(root: Path) -> OpRecord:
    """Revert the newest operation not yet undone; refuse if its files changed since."""
    root = Path(root)
    with transaction(root, "undo", "undo", record=False) as txn:
        rec = pending(root)
        current = {f["path"]: read_bytes_or_none(Path(f["path"])) for f in rec.files}
        now = {path: oplog._digest(data) for path, data in current.items()}
        if all(now[f["path"]] == f["before"] for f in rec.files):
            return _mark(root, rec)  # an earlier undo got this far and was interrupted
        changed = [
            f["path"]
            for f in rec.files
            if now[f["path"]] != f["after"] and not _same_but_accessed(current[f["path"]], oplog.after_bytes(root, f))
        ]
        if changed:
            raise Conflict(f"cannot undo '{rec.summary}': changed since: {', '.join(changed)}")
        # Every file holds its "after" bytes now: rebuild the "before" bytes before any move.
        before = {
            f["path"]: oplog.before_bytes(root, f, current[f["path"]])
            for f in rec.files
            if f["before"] != ABSENT and now[f["path"]] != f["before"]
        }
        creates = [f for f in rec.files if f["after"] == ABSENT and f["before"] != ABSENT]
        deletes = [f for f in rec.files if f["before"] == ABSENT and f["after"] != ABSENT]
        by_body: dict[str, dict[str, str]] = {}
        for f in deletes:
            key = _body_key(oplog.blob(root, f["after"]))
            if key is not None:
                by_body.setdefault(key, f)
        paired: set[str] = set()
        for f in creates:
            src = by_body.pop(_body_key(oplog.blob(root, f["before"])) or "\0", None)
            if src is not None:
                txn.move(Path(src["path"]), Path(f["path"]))  # the entry is never in two places
                paired.update({src["path"], f["path"]})
        for f in reversed(rec.files):
            if f["before"] != ABSENT and (f["path"] in paired or now[f["path"]] != f["before"]):
                data = before[f["path"]] if f["path"] in before else oplog.blob(root, f["before"])
                txn.write(Path(f["path"]), data or b"")
        for f in reversed(rec.files):
            if f["before"] == ABSENT and f["path"] not in paired:
                txn.delete(Path(f["path"]))
        _remove_empty_dirs(root, rec)
        return _mark(root, rec)


def _mark(root: Path, rec: OpRecord) -> OpRecord:
    done = OpRecord(**{**rec.__dict__, "undone": True})
    oplog._save(oplog._dirs(root)[0], done)
    return done


def _remove_empty_dirs(root: Path, rec: OpRecord) -> None:
    """Folders the operation created (a new category, a trash day) go when left empty."""
    stop = root.absolute()
    for f in rec.files:
        if f["before"] != ABSENT:
            continue
        folder = Path(f["path"]).parent.absolute()
        while folder != stop and stop in folder.parents:
            try:
                os.rmdir(folder)
            except OSError:
                break
            folder = folder.parent


def history(root: Path, limit: int | None = None) -> list[dict[str, object]]:
    """``undo --list``: logged operations, newest first."""
    recs = oplog.records(Path(root))
    return [r.as_dict() for r in (recs[:limit] if limit else recs)]
