"""Crash-safe ``undo`` and ``redo`` on top of the operation log (``history/oplog.py``).

Undo puts every file of the newest operation back to its "before" bytes; redo puts the
most recently undone one forward to its "after" bytes again. Both refuse when a file no
longer holds the bytes they start from: a change made since (by hand, an agent or another
operation) is never silently overwritten. A new operation ends the redo chain, as in any
editor: redo is offered only while every operation logged after it is undone too.

A *move* (archive, trash, restore, split, merge) would otherwise be replayed as a delete
plus a write, and a SIGKILL between the two would lose the entry. So a file to delete and
a file to recreate that hold the same entry body are treated as one move: renamed first
(atomic), then given their exact bytes. Other writes run before deletions, so a crash can
leave a stale index (``index check --fix`` repairs it) but never lose or duplicate an entry.

An operation whose files already hold the target bytes (an undo or redo killed before it
could mark the record) is just marked; a change of only the legacy ``accessed`` date does
not block an undo.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, NotFound
from memsearch_tui.engine.core.locking import root_lock
from memsearch_tui.engine.core.text import normalise
from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.history.changes import read_bytes_or_none
from memsearch_tui.engine.history.oplog import ABSENT, OpRecord
from memsearch_tui.engine.history.txn import Transaction, transaction


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
    """The operation ``undo`` would revert: the newest one still in effect."""
    recs = [r for r in oplog.records(root) if not r.undone]
    if not recs or recs[0].kind == "init":  # undoing `init` would only break the store
        raise NotFound("nothing to undo: the operation log is empty")
    if recs[0].purged:
        raise Conflict(f"cannot undo '{recs[0].summary}': {recs[0].purged}; the undo history ends here")
    _refuse_outside(root, recs[0], "undo")
    return recs[0]


def _refuse_outside(root: Path, rec: OpRecord, verb: str) -> None:
    """Conflict when ``rec`` names files outside this store (an old absolute record in a
    copied or moved store): acting on them would change the other store."""
    away = oplog.outside(root, rec)
    if away:
        raise Conflict(
            f"cannot {verb} '{rec.summary}': the log names {', '.join(away[:3])}, outside this store "
            f"({Path(root).absolute()}); it was logged before the store was copied or moved; nothing changed"
        )


def redoable(root: Path) -> OpRecord | None:
    """The operation ``redo`` would re-apply: the most recently undone one, provided every
    operation logged after it is undone too (a new change ends the redo chain)."""
    recs = oplog.records(root)
    undone = [r for r in recs if r.undone and r.undo_mark > 0]
    if not undone:
        return None
    last = max(undone, key=lambda r: r.undo_mark)
    if any(not r.undone for r in recs if r.seq > last.seq):
        return None
    return last


def redo_pending(root: Path) -> OpRecord:
    """``redoable`` or a NotFound that says why there is nothing to redo."""
    rec = redoable(root)
    if rec is None:
        raise NotFound("nothing to redo: no undo since the last change")
    if rec.purged:
        raise Conflict(f"cannot redo '{rec.summary}': {rec.purged}")
    _refuse_outside(root, rec, "redo")
    return rec


def undo_last(root: Path) -> OpRecord:
    """Revert the newest operation not yet undone; refuse if its files changed since."""
    root = Path(root)
    _logged_or_not_found(root, "undo")
    with root_lock(root):  # the mark comes after the files' transaction ended (see _undo_files)
        return _mark(root, _undo_files(root), undone=True)


def _undo_files(root: Path) -> OpRecord:
    """Put the newest operation's files back; the record as it must be marked undone.

    Marking comes after this transaction has closed its intent journal: a kill between the
    two leaves the files undone and the record not yet marked, which the next undo sees
    ("every file holds its before bytes") and only marks. The other order would let the
    journal roll the files forward again under a record that says undone."""
    with transaction(root, "undo", "undo", record=False) as txn:
        rec = pending(root)
        current, now = _on_disk(rec)
        if all(now[f["path"]] == f["before"] for f in rec.files):
            return rec  # an earlier undo got this far and was interrupted
        changed = [
            f["path"]
            for f in rec.files
            if now[f["path"]] != f["after"] and not _same_but_accessed(current[f["path"]], oplog.after_bytes(root, f))
        ]
        if changed:
            raise Conflict(f"cannot undo '{rec.summary}': changed since: {', '.join(changed)}")
        # Every file holds its "after" bytes now: rebuild the "before" bytes before any move.
        target = {
            f["path"]: oplog.before_bytes(root, f, current[f["path"]])
            for f in rec.files
            if f["before"] != ABSENT and now[f["path"]] != f["before"]
        }
        files = [oplog.keep_for_redo(root, f, current[f["path"]], target.get(f["path"])) for f in rec.files]
        _replay(txn, rec.files[::-1], current, target, start="after", goal="before")
        _remove_empty_dirs(root, rec, created="before")
        return dataclasses.replace(rec, files=files)


def redo_last(root: Path) -> OpRecord:
    """Re-apply the most recently undone operation; refuse if its files changed since."""
    root = Path(root)
    _logged_or_not_found(root, "redo")
    with root_lock(root):  # marked after the files' transaction, as for undo
        return _mark(root, _redo_files(root), undone=False)


def _redo_files(root: Path) -> OpRecord:
    with transaction(root, "redo", "redo", record=False) as txn:
        rec = redo_pending(root)
        current, now = _on_disk(rec)
        if all(now[f["path"]] == f["after"] for f in rec.files):
            return rec  # an earlier redo was interrupted after its writes
        changed = [f["path"] for f in rec.files if now[f["path"]] != f["before"]]
        if changed:
            raise Conflict(f"cannot redo '{rec.summary}': changed since the undo: {', '.join(changed)}")
        target = {
            f["path"]: oplog.redo_bytes(root, f, current[f["path"]])
            for f in rec.files
            if f["after"] != ABSENT and now[f["path"]] != f["after"]
        }
        _replay(txn, rec.files, current, target, start="before", goal="after")
        _remove_empty_dirs(root, rec, created="after")
        return rec


def _logged_or_not_found(root: Path, what: str) -> None:
    """NotFound before the write lock is taken when nothing was ever logged here: an undo
    in a folder with no store must not leave a state folder behind."""
    if not oplog._dirs(root)[0].is_dir():
        raise NotFound(f"nothing to {what}: no operation log at {root} (no store, or nothing changed yet)")


def _on_disk(rec: OpRecord) -> tuple[dict[str, bytes | None], dict[str, str]]:
    """What each file of ``rec`` holds now (None: absent), and its digest."""
    current = {f["path"]: read_bytes_or_none(Path(f["path"])) for f in rec.files}
    return current, {path: oplog._digest(data) for path, data in current.items()}


def _replay(
    txn: Transaction,
    files: list[dict[str, Any]],
    current: dict[str, bytes | None],
    target: dict[str, bytes | None],
    *,
    start: str,
    goal: str,
) -> None:
    """Bring every file from its ``start`` digest to its ``goal`` bytes: moves first (a file
    that goes and one that comes with the same body are one rename), then writes, then
    deletions, so a crash part-way never loses or duplicates an entry."""
    now = {path: oplog._digest(data) for path, data in current.items()}
    comes = [f for f in files if f[goal] != ABSENT and f[start] == ABSENT]
    goes = [f for f in files if f[start] != ABSENT and f[goal] == ABSENT]
    by_body: dict[str, dict[str, Any]] = {}
    for f in goes:
        key = _body_key(current[f["path"]])
        if key is not None:
            by_body.setdefault(key, f)
    paired: set[str] = set()
    for f in comes:
        src = by_body.pop(_body_key(target.get(f["path"])) or "\0", None)
        if src is not None:
            txn.move(Path(src["path"]), Path(f["path"]))  # the entry is never in two places
            paired.update({src["path"], f["path"]})
    for f in files:
        if f[goal] != ABSENT and (f["path"] in paired or now[f["path"]] != f[goal]):
            txn.write(Path(f["path"]), target.get(f["path"]) or b"")
    for f in files:
        if f[goal] == ABSENT and f["path"] not in paired:
            txn.delete(Path(f["path"]))


def _mark(root: Path, rec: OpRecord, *, undone: bool) -> OpRecord:
    mark = oplog.next_undo_mark(root) if undone else 0
    done = dataclasses.replace(rec, undone=undone, undo_mark=mark)
    oplog._save(oplog._dirs(root)[0], done)
    return done


def _remove_empty_dirs(root: Path, rec: OpRecord, *, created: str) -> None:
    """Folders the replay emptied (a new category, a trash day) go when left empty."""
    stop = root.absolute()
    for f in rec.files:
        if f[created] != ABSENT:
            continue
        folder = Path(f["path"]).parent.absolute()
        while folder != stop and stop in folder.parents:
            try:
                os.rmdir(folder)
            except OSError:
                break
            folder = folder.parent


def history(root: Path, limit: int | None = None) -> list[dict[str, object]]:
    """``undo --list``: logged operations, newest first; the redo target says so."""
    recs = oplog.records(Path(root))
    redo = redoable(Path(root))
    out = [r.as_dict() for r in (recs[:limit] if limit else recs)]
    for d in out:
        d["redoable"] = redo is not None and d["seq"] == redo.seq
    return out
