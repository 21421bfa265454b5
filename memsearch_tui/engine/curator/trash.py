"""Trash: soft delete with restore, and purge as the one irreversible step.

Layout: ``.trash/<trashed date>/<original id>.md`` (``~2``, ``~3`` on a same-day clash).
Everything ``trash list`` shows can be derived from the path alone (original id, trashed
date); the reason is kept in the file's frontmatter (``trashed``, ``trashed_from``,
``trash_reason``). ``.trash/INDEX.md`` is rendered from the files, so a crash between
the rename and the index write leaves nothing that ``rebuild_trash_index`` cannot repair.
Kept versions travel along in ``<file stem>.versions/`` (``<stem's start>~<hash>.versions/``
when that would be over 255 bytes: see :func:`versions_of`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.atomic import fit_name
from memsearch_tui.engine.core.errors import Conflict, MemsearchError, NotFound, Refused
from memsearch_tui.engine.core.paths import (
    ARCHIVED,
    TRASH,
    check_parts,
    id_key,
    inside,
    normalise_id,
    rmdir_up,
    versions_dir,
)
from memsearch_tui.engine.core.safe_io import MAX_ENTRY_BYTES, read_capped
from memsearch_tui.engine.core.sqlite_scrub import scrub
from memsearch_tui.engine.core.state_files import PURGE_PENDING, STATE_DIR
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.curator import day_copies, journals
from memsearch_tui.engine.curator.relocate import move_versions
from memsearch_tui.engine.history import oplog
from memsearch_tui.engine.history.txn import actor, transaction
from memsearch_tui.engine.store.catalog import CATALOG_FILE
from memsearch_tui.engine.store.entry import Entry, as_str_list
from memsearch_tui.engine.store.index_md import cell
from memsearch_tui.engine.store.links import scan
from memsearch_tui.engine.store.store import Edit, Store, check_expected
from memsearch_tui.engine.store.trash_index import (
    TrashItem,
    list_trash,
    trash_root,
    write_trash_index,
)

TRASH_KEYS = ("trashed", "trashed_from", "trash_reason")
MIN_NEEDLE_BYTES = 16
# Why a purge's history record cannot be undone (``undo`` says it when it reaches it).
PURGE_FINAL = "purged for good after its confirmation: a purge keeps nothing to undo"


# -- trashing ------------------------------------------------------------------------
def trash_path(root: Path, entry_id: str, day: date) -> Path:
    base = trash_root(root) / day.isoformat()
    path = base.joinpath(*entry_id.split("/")).with_suffix(".md")
    n = 2
    while path.exists():
        path = path.with_name(fit_name(f"{entry_id.rsplit('/', 1)[-1]}~{n}", ".md"))
        n += 1
    return path


def versions_of(path: Path) -> Path:
    """The folder a trashed file's kept versions travel in: ``<stem>.versions`` beside it,
    bounded to a file name's 255 bytes (a 255-byte entry name is 9 bytes short of room).
    The one place trash, restore and purge derive it, so they always agree."""
    return path.with_name(fit_name(path.stem, ".versions"))


def trash_in(store: Store, ed: Edit, entry: Entry, reason: str) -> Path:
    """Move ``entry`` into the trash inside an open edit; returns its trash file."""
    assert entry.path is not None
    today = clock.today()
    dest = trash_path(store.root, entry.id, today)
    ed.remove_entry(entry, to=dest)  # one rename: the entry is never in both places
    meta = dict(entry.meta)
    meta.update({"trashed": today, "trashed_from": entry.id, "trash_reason": reason})
    doc = entry.doc.derive(meta, entry.body)
    ed.txn.write(dest, fmio.dump(doc))
    move_versions(store.root, ed, entry.id, entry.id, new_base=versions_of(dest))
    return dest


def referrers(store: Store, entry_id: str) -> list[str]:
    """Live entries whose ``related`` names ``entry_id`` (shown when trashing by hand)."""
    return sorted(r.id for r in scan(store).values() if entry_id in r.related)


def trash(store: Store, entry_id: str, reason: str = "", *, expected: bytes | None = None) -> dict[str, Any]:
    """``trash ID [--reason]``: move a live entry to the trash (logged, undoable).

    ``expected``: the file as the user saw it; a change made since is refused (Conflict)."""
    entry = store.get(entry_id)
    refs = [r for r in referrers(store, entry.id) if r != entry.id]
    with store.edit("trash", f"trash {entry.id}" + (f": {reason}" if reason else "")) as ed:
        check_expected(entry.path, expected, "deciding to trash it")
        entry = store.get(entry.id)  # re-read under the lock: the trash copy is what is on disk now
        dest = trash_in(store, ed, entry, reason or "trashed by hand")
        write_trash_index(store.root, ed.txn)
    key = dest.relative_to(trash_root(store.root)).as_posix()[:-3]
    return {"trashed": entry.id, "key": key, "referenced_by": refs}


# -- restoring -----------------------------------------------------------------------
def find_item(root: Path, ref: str) -> TrashItem:
    """A trash item by its key (``2026-11-30/a/b``) or original id (newest wins)."""
    ref = normalise_id(ref).removeprefix(f"{TRASH}/")  # the one id normaliser of every command
    check_parts(ref, "trash id")
    items = list_trash(root)
    for same in (lambda a, b: a == b, lambda a, b: id_key(a) == id_key(b)):  # exact, then case/NFC
        for i in items:
            if same(i.key, ref):
                return i
        for i in items:  # newest first
            if same(i.original_id, ref):
                return i
        for i in items:  # an archived entry by the id it will get back: a/b for a/archived/b
            if same(_restore_target(i), ref):
                return i
    raise NotFound(f"nothing in {trash_root(root)} for '{ref}' (see `memsearch-tui trash list`)")


def _restore_target(item: TrashItem) -> str:
    parts = item.original_id.split("/")
    parts = [p for p in parts[:-1] if p != ARCHIVED] + parts[-1:]
    return "/".join(parts)


def restore(store: Store, ref: str, *, expected: bytes | None = None) -> dict[str, Any]:
    """``trash restore ID``: back to its category (recreated, suffixed on a clash), active, updated today.

    ``expected``: the trashed file as the user saw it (the Trash pane's preview); a change
    made since is refused (Conflict) instead of restoring text nobody looked at."""
    item = find_item(store.root, ref)
    src = Path(item.path)
    if src.is_symlink() or not (inside(trash_root(store.root), src) and inside(store.root, src)):  # resolved
        raise Refused(f"{src}: resolves outside {trash_root(store.root)}; not restored", code="unsafe_path")
    raw = read_capped(src)
    doc = fmio.parse(raw, str(src))
    if journals.is_journal_item(doc.meta):  # forgotten journal text goes back into its day
        return journals.restore_item(store.root, src, doc, expected=expected)
    if day_copies.COPY_KEY in doc.meta:  # a merged conflicted copy goes back beside its day
        check_expected(src, expected, "deciding to restore it")
        return day_copies.restore_copy(store.root, src, doc)
    store.require()
    with store.edit("restore", f"restore {item.original_id} from trash") as ed:
        check_expected(src, expected, "deciding to restore it")
        if read_capped(src) != raw:  # changed between the read above and the lock: no lost update
            raise Conflict(f"{src}: changed while it was being restored; nothing written, try again", path=str(src))
        new_id = ed.free_id(_restore_target(item))
        dest = store.path_of(new_id)
        ed.txn.move(src, dest)
        meta = {k: v for k, v in doc.meta.items() if k not in TRASH_KEYS and k != "archived"}
        meta["status"] = "active"
        meta["updated"] = clock.today()
        related = as_str_list(meta.get("related"), "related", str(dest))
        kept = [r for r in related if r != new_id and (r in ed.cat.entries or store.path_of(r).exists())]
        dropped = [r for r in related if r not in kept]
        if dropped:
            meta["related"] = kept
        entry = Entry(new_id, doc.derive(meta, doc.body), dest)
        ed.write_entry(entry)
        vsrc = versions_of(src)
        move_versions(
            store.root, ed, item.original_id, new_id, old_base=vsrc, new_base=versions_dir(store.root, new_id)
        )
        rmdir_up(src.parent, trash_root(store.root))
        write_trash_index(store.root, ed.txn)
    return {
        "restored": new_id,
        "from": item.key,
        "original_id": item.original_id,
        "renamed": new_id != _restore_target(item),
        "related_dropped": dropped,
    }


# -- purging -------------------------------------------------------------------------
def purge_candidates(root: Path, *, older_than: int | None = None, everything: bool = False) -> list[TrashItem]:
    """Items past their purge date (or trashed more than ``older_than`` days ago, or all)."""
    today = clock.today()
    out = []
    for i in list_trash(root):
        if everything:
            out.append(i)
        elif older_than is not None:
            if (today - date.fromisoformat(i.trashed)).days >= older_than:
                out.append(i)
        elif i.days_left <= 0:
            out.append(i)
    return out


def purge(
    store: Store, items: list[TrashItem], *, yes: bool, expected: Mapping[str, bytes] | None = None
) -> dict[str, Any]:
    """Delete trashed files for good. Without ``yes`` nothing happens (Refused, listing them).

    ``expected`` maps an item's key to its file's bytes as the user saw them: a changed
    one refuses the whole purge (Conflict), since a purge cannot be undone.

    Purge means gone: the files and their kept versions, every copy the operation log
    kept (the operations that touched them can no longer be undone, and say so), and the
    catalog's free pages. The search copies are scrubbed by ``engine.api.trash.purge`` (this
    package cannot reach them); a marker left here makes the next upkeep do it otherwise.
    """
    store.require()
    keys = [i.key for i in items]
    if not yes:
        raise Refused(
            f"purge would delete {plural(len(items), 'trashed entry', 'trashed entries')} for good"
            + (": " + ", ".join(keys) if keys else "")
            + "; add --yes to do it",
            code="confirm",
        )
    with transaction(store.root, "purge", f"purge {len(items)} from trash", record=False) as txn:
        for i in items:
            if expected is not None and i.key in expected:
                check_expected(Path(i.path), expected[i.key], "deciding to purge it")
        gone = _what_goes(items)
        for i in items:
            path = Path(i.path)
            txn.delete(path)
            vdir = versions_of(path)
            if vdir.is_dir():
                for f in vdir.iterdir():
                    txn.delete(f)
                rmdir_up(vdir, trash_root(store.root))
            rmdir_up(path.parent, trash_root(store.root))
        write_trash_index(store.root, txn)
        (store.root / STATE_DIR / PURGE_PENDING).touch()  # search copies: see engine/search/purge.py
        ended = oplog.forget(store.root, gone)  # the log's copies go under the same lock
        # In the history, done and not undoable: no bytes kept, nothing it deleted named.
        summary = oplog.with_actor(f"purge {plural(len(items), 'entry', 'entries')} from the trash", actor())
        oplog.append(store.root, "purge", summary, [], txn=txn.id, purged=PURGE_FINAL)
        scan(store)  # the lifecycle cache of live entries is rewritten without the purged ids
        problems = [p for p in (scrub(store.root / STATE_DIR / CATALOG_FILE),) if p]
    return {"purged": keys, "history_ended": ended, "not_scrubbed": problems}


def _what_goes(items: list[TrashItem]) -> oplog.Forget:
    """The bytes, bodies and title cells of the items (and their kept versions) to purge."""
    digests: set[str] = set()
    needles: set[bytes] = set()
    cells: set[bytes] = set()
    words: set[str] = set()
    for i in items:
        path = Path(i.path)
        vdir = versions_of(path)
        for f in [path, *(sorted(vdir.iterdir()) if vdir.is_dir() else [])]:
            data = f.read_bytes()
            digests.add(hashlib.sha256(data).hexdigest())
            needles.update(_body_needles(data, str(f)))
        if i.title.strip():
            cells.add(f"| {cell(i.title)} |".encode())
            words.add(i.title)
        words.add(i.original_id)
    note = f"an entry it touched was purged from the trash on {clock.today().isoformat()}"
    return oplog.Forget(digests, sorted(needles), sorted(cells), sorted(words), note)


def _body_needles(data: bytes, where: str) -> list[bytes]:
    """The body as it sits in a file (LF and CRLF forms); too short a body is no needle
    (a two-word body would match unrelated copies); its exact bytes still go by digest."""
    if len(data) > MAX_ENTRY_BYTES:
        return []  # not an entry the store wrote (its exact bytes still go by digest)
    try:
        body = fmio.parse(data, where).body.strip()
    except MemsearchError:
        body = data.decode("utf-8", "replace").strip()
    if len(body.encode()) < MIN_NEEDLE_BYTES:
        return []
    lf = body.replace("\r\n", "\n").encode()
    return [lf, lf.replace(b"\n", b"\r\n")]
