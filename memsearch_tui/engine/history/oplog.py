"""The operation log under the memory root, and ``undo``.

Each applied operation is one JSON record in ``.memsearch-tui/oplog/`` listing, per file,
the SHA-256 of its bytes before and after; the bytes themselves are kept once each in a
content-addressed ``blobs/`` folder. ``undo`` restores the newest operation's "before"
bytes exactly, but only if every file still has its "after" bytes: a change made since
(by hand, an agent or another operation) is never silently overwritten.

A big INDEX.md (a 5,000-row table is ~400 KB, and every add rewrites it) is not kept
whole: its record holds a reverse patch instead, the bytes that differ between its
"after" and "before" (one table line for an add). Undo only runs when the file still
has its "after" bytes, so those plus the patch give the "before" bytes back, checked
against their SHA-256 like any kept copy. Without this the log would keep a 400 KB copy
per add (200 MB for the 500 operations it remembers).

Paths are kept relative to the memory root, so a store copied (``cp -a a b``) or moved
keeps its history and an undo in the copy changes the copy only. Records written before
that hold absolute paths: one under the current root is read as relative to it; one
elsewhere (the store was copied or moved since) is kept as it is and refused by undo and
redo, naming the path, never applied to the other store (``outside``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.atomic import atomic_write_text
from memsearch_tui.engine.core.errors import Conflict
from memsearch_tui.engine.core.paths import INDEX, TRASH, inside
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.safe_io import load_json
from memsearch_tui.engine.core.state_files import BLOBS, OPLOG, STATE_DIR
from memsearch_tui.engine.history.changes import FileChange, loaded_path, stored_path

ABSENT = "absent"
KEEP_OPS = 500
PRUNE_EVERY = 50
PATCH_MIN_BYTES = 32_768  # an INDEX.md this big keeps a reverse patch, not whole copies
PATCH_MAX_BYTES = 65_536  # unless the bytes that differ are more than this
_CHUNK = 4096


@record
class OpRecord:
    """One logged operation."""

    seq: int
    kind: str
    summary: str
    at: str
    files: list[dict[str, Any]]  # path, before, after (digests); "patch" for a patched INDEX.md
    undone: bool = False
    purged: str = ""  # why this operation can no longer be undone (its bytes were purged)
    undo_mark: int = 0  # when undone: 1 + the highest mark before it, so redo knows the order
    txn: str = ""  # the intent journal's id (history/intent.py): this record is its commit

    def as_dict(self) -> dict[str, object]:
        """For display: ``summary`` without its ``[by …]`` suffix, who as ``by``."""
        what, by = split_actor(self.summary)
        return {
            "seq": self.seq,
            "kind": self.kind,
            "summary": what,
            "by": by,
            "at": self.at,
            "files": [f["path"] for f in self.files],
            "undone": self.undone,
            "purged": self.purged,
        }


def with_actor(summary: str, who: str) -> str:
    """The logged summary: ``summary [by who]`` (what ``split_actor`` takes apart again)."""
    return f"{summary} [by {who}]" if who else summary


def split_actor(summary: str) -> tuple[str, str]:
    """``("add notes/x", "mcp:claude")`` from ``"add notes/x [by mcp:claude]"``; ``by`` is ""
    when the summary names no one (logs written before faces were recorded)."""
    head, sep, tail = summary.rpartition(" [by ")
    if not sep or not tail.endswith("]") or "]" in tail[:-1]:
        return summary, ""
    return head, tail[:-1]


def _loaded(root: Path, stored: str) -> str:
    return stored if stored == PURGED else loaded_path(root, stored)


def outside(root: Path, rec: OpRecord) -> list[str]:
    """The paths of ``rec`` that belong to another copy of this store: absolute paths of
    an old record under a root the log was written at before a copy or move (``former_roots``),
    or a relative one that climbs out (``..``, a link). Undo and redo refuse such a record
    rather than touch the other store. An absolute path outside every root is a file the
    operation changed outside the store (a project's journal day, a host's memory file):
    the same file whichever copy of the store undoes it."""
    base = Path(root).absolute()
    former = former_roots(root)
    out = []
    for f in rec.files:
        path = Path(f["path"])
        if f["path"] == PURGED:
            continue
        if path.is_relative_to(base):
            if ".." in path.parts or not inside(base, path.parent):
                out.append(f["path"])
        elif any(path.is_relative_to(old) for old in former):
            out.append(f["path"])
    return out


def former_roots(root: Path) -> set[Path]:
    """Where this store's log says the store was before (absolute paths of old records):
    the folder an ``init`` named, the folder holding a ``.trash``, and the folder of the
    shallowest of a record's several INDEX.md files (every add writes its category's and
    the root's). The current root is left out."""
    kept = _log(root)
    if kept.former is None:  # found once per state of the log
        kept.former = _former_roots(root, kept.recs)
    return set(kept.former)


def _former_roots(root: Path, recs: list[OpRecord]) -> set[Path]:
    base = Path(root).absolute()
    inside_base = os.path.join(base, "")  # a path under the current root names no former one
    found: set[Path] = set()
    for rec in recs:
        paths = [Path(p) for f in rec.files if os.path.isabs(p := f["path"]) and not p.startswith(inside_base)]
        if rec.kind == "init":
            head = split_actor(rec.summary)[0].removeprefix("init ").strip()
            if head.startswith("/"):
                found.add(Path(head))
        for path in paths:
            if TRASH in path.parts:
                found.add(Path(*path.parts[: path.parts.index(TRASH)]))
        indexes = sorted((p for p in paths if p.name == INDEX), key=lambda p: len(p.parts))
        if len(indexes) > 1 and indexes[0].parent in indexes[1].parents:
            found.add(indexes[0].parent)
    return {p for p in found if p != base and not p.is_relative_to(base)}


def _dirs(root: Path) -> tuple[Path, Path]:
    base = Path(root) / STATE_DIR
    return base / OPLOG, base / BLOBS


def _digest(data: bytes | None) -> str:
    return ABSENT if data is None else hashlib.sha256(data).hexdigest()


def _keep_blob(blobs: Path, data: bytes | None) -> str:
    """Store bytes under their hash. Not fsynced (it would double the cost of every write):
    a blob lost to a power cut is detected by its hash at undo time, never restored wrong."""
    digest = _digest(data)
    path = blobs / digest
    if data is not None and not path.exists():
        blobs.mkdir(parents=True, exist_ok=True)
        tmp = blobs / f".{digest}.tmp"
        try:
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError as exc:  # a full disk: no half-written blob left, and the file named
            tmp.unlink(missing_ok=True)
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    return digest


def blob(root: Path, digest: str) -> bytes | None:
    """The kept bytes of ``digest`` (None for "absent"), verified against their name, so a
    blob lost or damaged by a crash is refused instead of restored wrong."""
    if digest == ABSENT:
        return None
    blobs = _dirs(root)[1]
    try:
        data = (blobs / digest).read_bytes()
    except FileNotFoundError:
        raise Conflict(f"cannot undo: the kept copy {digest[:12]}… is missing from {blobs}") from None
    if hashlib.sha256(data).hexdigest() != digest:
        raise Conflict(f"cannot undo: the kept copy {digest[:12]}… in {blobs} is damaged")
    return data


def before_bytes(root: Path, f: dict[str, Any], current: bytes | None) -> bytes | None:
    """The bytes logged file ``f`` had before its operation (None: it did not exist).

    ``current`` is what the file holds now; a patched file needs it to be the logged
    "after" bytes, which undo has checked before it restores anything.
    """
    patch = f.get("patch")
    if patch is None:
        return blob(root, f["before"])
    return _patched(f, current, patch, start="after", goal="before", verb="undo")


def after_bytes(root: Path, f: dict[str, Any]) -> bytes | None:
    """The kept "after" bytes of ``f``; None for a patched file (only its digest is kept)."""
    return None if "patch" in f else blob(root, f["after"])


def keep_for_redo(root: Path, f: dict[str, Any], after: bytes | None, before: bytes | None) -> dict[str, Any]:
    """``f`` as an undo leaves it: a patched INDEX.md kept only its "before" difference,
    so the undo also keeps how to get its "after" bytes back (a forward patch, or the
    whole copy when the difference is too big), for ``redo``."""
    if "patch" not in f or after is None or before is None:
        return f
    forward = _reverse_patch(after, before)
    if forward is None:
        _keep_blob(_dirs(root)[1], after)
        return f
    return {**f, "redo": forward}


def redo_bytes(root: Path, f: dict[str, Any], current: bytes | None) -> bytes | None:
    """The bytes logged file ``f`` had after its operation, for ``redo`` (None: deleted).

    ``current`` is what the file holds now, which redo has checked is the "before" bytes.
    """
    forward = f.get("redo")
    if "patch" not in f or forward is None:
        return blob(root, f["after"])  # a patched file whose whole copy the undo kept
    return _patched(f, current, forward, start="before", goal="after", verb="redo")


def _patched(
    f: dict[str, Any], current: bytes | None, patch: dict[str, Any], *, start: str, goal: str, verb: str
) -> bytes:
    """``f``'s ``goal`` bytes from ``current`` (checked to be its ``start`` bytes) and a kept
    difference, checked against the ``goal`` digest: damage is refused, never restored."""
    if current is None or _digest(current) != f[start]:
        raise Conflict(f"cannot {verb}: {f['path']} changed since")
    data = _apply(current, patch)
    if _digest(data) != f[goal]:
        raise Conflict(f"cannot {verb}: the kept difference for {f['path']} is damaged")
    return data


def _apply(base: bytes, patch: dict[str, Any]) -> bytes:
    """``base`` with its bytes between ``head`` and the last ``tail`` replaced by ``middle``."""
    return base[: patch["head"]] + bytes.fromhex(patch["middle"]) + base[len(base) - patch["tail"] :]


def next_undo_mark(root: Path) -> int:
    """The mark of the next undo: one more than any kept record's."""
    return max((r.undo_mark for r in records(root)), default=0) + 1


def _reverse_patch(before: bytes, after: bytes) -> dict[str, Any] | None:
    """How to get ``before`` back from ``after``: keep ``head`` bytes and ``tail`` bytes
    of it, put ``middle`` between. None when the difference is too big to be worth it."""
    head = _common_prefix(before, after)
    limit = min(len(before), len(after)) - head
    tail = _common_suffix(before, after, limit)
    middle = before[head : len(before) - tail]
    if len(middle) > PATCH_MAX_BYTES:
        return None
    return {"head": head, "tail": tail, "middle": middle.hex()}


def _common_prefix(a: bytes, b: bytes) -> int:
    """Length of the common prefix, compared a chunk at a time (no per-byte loop over 400 KB)."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i : i + _CHUNK] == b[i : i + _CHUNK]:
        i += _CHUNK
    end = min(i + _CHUNK, n)
    while i < end and a[i] == b[i]:
        i += 1
    return min(i, n)


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """Length of the common suffix, at most ``limit`` (so it never overlaps the prefix)."""
    la, lb = len(a), len(b)
    i = 0
    while i + _CHUNK <= limit and a[la - i - _CHUNK : la - i] == b[lb - i - _CHUNK : lb - i]:
        i += _CHUNK
    while i < limit and a[la - i - 1] == b[lb - i - 1]:
        i += 1
    return i


def _file_record(blobs: Path, c: FileChange) -> dict[str, Any]:
    """Digests and kept bytes of one changed file. Only INDEX.md files are patched: they are
    derived tables, while an entry's kept "after" copy lets undo tell an ``accessed``-only
    change from a real one."""
    if c.before is not None and c.after is not None and len(c.after) >= PATCH_MIN_BYTES and c.path.name == INDEX:
        patch = _reverse_patch(c.before, c.after)
        if patch is not None:
            return {"path": str(c.path), "before": _digest(c.before), "after": _digest(c.after), "patch": patch}
    return {"path": str(c.path), "before": _keep_blob(blobs, c.before), "after": _keep_blob(blobs, c.after)}


def _now() -> str:
    return clock.iso_z()


def append(
    root: Path, kind: str, summary: str, changes: list[FileChange], *, txn: str = "", purged: str = ""
) -> OpRecord:
    """Log one applied operation (blobs first, then the record, so a record never dangles).

    ``purged``: the operation is in the history but cannot be undone, and this says why (a
    purge: its record keeps no bytes and names nothing it deleted)."""
    log, blobs = _dirs(root)
    log.mkdir(parents=True, exist_ok=True)
    files = [_file_record(blobs, c) for c in changes]
    seq = _next_seq(log)
    rec = OpRecord(seq=seq, kind=kind, summary=summary, at=_now(), files=files, txn=txn, purged=purged)
    _save(log, rec)
    rec = dataclasses.replace(rec, files=[{**f, "path": str(Path(f["path"]).absolute())} for f in files])
    if seq % PRUNE_EVERY == 0:
        prune(root)
    return rec


def prune(root: Path, keep: int = KEEP_OPS) -> int:
    """Forget all but the newest ``keep`` operations and the kept bytes only they used.

    The log would otherwise grow with every write (each keeps its files' old and new
    bytes); undo reaches back ``keep`` operations, which is far more than anyone walks.
    """
    log, blobs = _dirs(root)
    paths = sorted((p for p in log.glob("*.json") if p.stem.isdigit()), key=lambda p: int(p.stem))
    old = paths[:-keep] if keep else paths
    if not old:
        return 0
    for p in old:
        p.unlink(missing_ok=True)
    used = {d for r in records(root) for f in r.files for d in (f["before"], f["after"])}
    for blob in blobs.iterdir() if blobs.is_dir() else []:
        if blob.name not in used:
            blob.unlink(missing_ok=True)
    return len(old)


def _next_seq(log: Path) -> int:
    seqs = [int(p.stem) for p in log.glob("*.json") if p.stem.isdigit()]
    return max(seqs, default=0) + 1


def _save(log: Path, rec: OpRecord) -> None:
    """Write ``rec`` (its paths absolute in memory) with its paths relative to the root."""
    root = log.parent.parent
    data = {
        "seq": rec.seq,
        "kind": rec.kind,
        "summary": rec.summary,
        "at": rec.at,
        "files": [{**f, "path": stored_path(root, Path(f["path"]))} if f["path"] != PURGED else f for f in rec.files],
        "undone": rec.undone,
    }
    if rec.purged:
        data["purged"] = rec.purged
    if rec.undone and rec.undo_mark:
        data["undo_mark"] = rec.undo_mark
    if rec.txn:
        data["txn"] = rec.txn
    atomic_write_text(log / f"{rec.seq:08d}.json", json.dumps(data, indent=2, ensure_ascii=False))


def txn_ids(root: Path, newest: int = 8) -> set[str]:
    """The journal ids of the newest logged records: the transactions that committed (only
    the last can have been cut short after its record, but a few are read to be safe)."""
    log, _ = _dirs(root)
    paths = sorted((p for p in log.glob("*.json") if p.stem.isdigit()), key=lambda p: int(p.stem))[-newest:]
    out = set()
    for p in paths:
        try:
            txn = load_json(p).get("txn")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(txn, str) and txn:
            out.add(txn)
    return out


def records(root: Path) -> list[OpRecord]:
    """All logged operations, newest first.

    Read again only when the log folder changed (a record's name, inode, size or time): one
    undo asked for them five times (the newest, the other roots, the next mark) and the
    undo history once more, each a parse of up to ``KEEP_OPS`` files. Each caller gets its
    own copies of the records' file lists."""
    return [dataclasses.replace(r, files=[dict(f) for f in r.files]) for r in _log(root).recs]


@record(frozen=False)
class _Read:
    """One state of a log folder, as read: its records and (once asked) its former roots."""

    sig: tuple[tuple[str, int, int, int], ...]
    recs: list[OpRecord]
    former: set[Path] | None = None


_READ: dict[tuple[str, str], _Read] = {}  # (log folder, root) -> the folder's last state read


def _log(root: Path) -> _Read:
    """The log of ``root`` as it is now: the kept read when the folder has not changed."""
    log, _ = _dirs(root)
    key = (str(log.absolute()), str(Path(root).absolute()))
    sig = _signature(log)
    kept = _READ.get(key)
    if sig is None or kept is None or kept.sig != sig:
        kept = _Read(sig or (), _read_records(root, log))
        if sig is not None:
            _READ[key] = kept
    return kept


def _signature(log: Path) -> tuple[tuple[str, int, int, int], ...] | None:
    """Every record file's name, inode, size and change time (None: no folder)."""
    try:
        with os.scandir(log) as entries:
            out = []
            for e in entries:
                if e.name.endswith(".json"):
                    st = e.stat(follow_symlinks=False)
                    out.append((e.name, st.st_ino, st.st_size, st.st_mtime_ns))
    except OSError:
        return None
    return tuple(sorted(out))


def _read_records(root: Path, log: Path) -> list[OpRecord]:
    out = []
    for p in sorted(log.glob("*.json"), reverse=True):
        try:
            d = load_json(p)
            d["files"] = [{**f, "path": _loaded(root, f["path"])} for f in d["files"]]
            out.append(OpRecord(**d))
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            continue  # a damaged record is skipped, never fatal
    return out


# -- purge -----------------------------------------------------------------------------
PURGED = "purged"  # what a forgotten digest is replaced by in a record


@record(frozen=False)
class Forget:
    """What a purge removes from the log.

    ``digests``: bytes known to be purged (the trashed file, its kept versions).
    ``needles``: byte strings (an entry's body) whose presence anywhere in a kept copy
    dooms that copy. ``index_needles``: byte strings (a title's table cell) that doom a
    kept INDEX.md copy or patch. ``words``: strings that must leave record summaries.
    """

    digests: set[str]
    needles: list[bytes]
    index_needles: list[bytes]
    words: list[str]
    note: str


def forget(root: Path, what: Forget) -> int:
    """Remove every kept copy of purged bytes from the log; returns records changed.

    Runs inside the purge's transaction (under the root's write lock). An earlier state of
    a purged file is found by walking the log back from the purged bytes (an update's
    "before" of a doomed "after"); any other kept copy that holds the purged
    body (a move's source, a merge) or, for INDEX.md copies, the purged title's table cell
    goes as well. Each record that loses a copy keeps its
    place in ``undo --list`` but says it was purged, and ``undo`` stops there.
    """
    log, blobs = _dirs(root)
    if not log.is_dir():
        return 0
    doomed = set(what.digests)
    recs = records(root)
    index_copies = {f[k] for r in recs for f in r.files for k in ("before", "after") if Path(f["path"]).name == INDEX}
    for digest in _kept_digests(blobs):
        if digest not in doomed and _holds(blobs / digest, what, digest in index_copies):
            doomed.add(digest)
    for rec in recs:  # newest first: a doomed entry's "after" dooms its "before" (an older text)
        for f in rec.files:
            if f["after"] in doomed and f["before"] != ABSENT and Path(f["path"]).name != INDEX:
                doomed.add(f["before"])
    changed = 0
    for rec in recs:
        new = _forget_in(rec, doomed, what)
        if new is not rec:
            _save(log, new)
            changed += 1
    for digest in doomed:
        (blobs / digest).unlink(missing_ok=True)
    return changed


def _kept_digests(blobs: Path) -> list[str]:
    return [p.name for p in blobs.iterdir() if len(p.name) == 64] if blobs.is_dir() else []


def _holds(path: Path, what: Forget, is_index: bool) -> bool:
    """Whether a kept copy holds purged text (a title cell counts in INDEX.md copies only)."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    needles = [*what.needles, *what.index_needles] if is_index else what.needles
    return any(n in data for n in needles)


def _forget_in(rec: OpRecord, doomed: set[str], what: Forget) -> OpRecord:
    """``rec`` with doomed digests and patches replaced by ``PURGED`` (itself if untouched)."""
    files = []
    hit = False
    for f in rec.files:
        g = dict(f)
        for key, side in (("patch", "before"), ("redo", "after")):
            patch = g.get(key)
            if patch is not None and any(
                n in bytes.fromhex(patch["middle"]) for n in [*what.needles, *what.index_needles]
            ):
                g.pop(key)
                g[side] = PURGED
                hit = True
        for key in ("before", "after"):
            if g[key] in doomed:
                g[key] = PURGED
                hit = True
        if {g["before"], g["after"]} <= {PURGED, ABSENT} and any(w and w in g["path"] for w in what.words):
            g["path"] = PURGED  # the purged entry's own path names it (the id comes from its title)
        files.append(g)
    summary = rec.summary
    if any(w and w in summary for w in what.words):
        summary = f"{rec.kind} (names a purged entry)"
        hit = True
    if not hit:
        return rec
    return dataclasses.replace(rec, summary=summary, files=files, purged=what.note)
