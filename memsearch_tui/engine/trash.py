"""Trash: soft delete with restore, and purge as the one irreversible step.

Layout: ``.trash/<trashed date>/<original id>.md`` (``~2``, ``~3`` on a same-day clash).
Everything ``trash list`` shows can be derived from the path alone (original id, trashed
date); the reason is kept in the file's frontmatter (``trashed``, ``trashed_from``,
``trash_reason``). ``.trash/INDEX.md`` is rendered from the files, so a crash between
the rename and the index write leaves nothing that ``rebuild_trash_index`` cannot repair.
Kept versions travel along in ``<file stem>.versions/``.
"""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from . import clock
from . import frontmatter_io as fmio
from .entry import Entry, as_date, as_str_list
from .errors import InvalidInput, MemsearchError, NotFound, Refused
from .index_md import cell
from .paths import ARCHIVED, INDEX, TRASH, check_parts
from .relocate import free_id, move_versions, versions_dir, _rmdir_up
from .store import Edit, Store
from .store_config import load_store_config
from .txn import Transaction, transaction

TRASH_KEYS = ("trashed", "trashed_from", "trash_reason")
_SUFFIX = re.compile(r"~\d+$")


@dataclass
class TrashItem:
    """One trashed entry, as ``trash list`` and the TUI's Trash pane show it."""

    key: str  # path under .trash/ without .md: 2026-11-30/projects/alpha
    original_id: str
    title: str
    trashed: str
    reason: str
    purge_after: str
    days_left: int
    path: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def trash_root(root: Path) -> Path:
    return Path(root) / TRASH


def _trash_files(root: Path) -> list[Path]:
    base = trash_root(root)
    out = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and not d.endswith(".versions")]
        for name in filenames:
            if name.endswith(".md") and not name.startswith(".") and not (dirpath == str(base) and name == INDEX):
                out.append(Path(dirpath, name))
    return out


def _item(root: Path, path: Path, retention: int, today: date) -> TrashItem:
    key = path.relative_to(trash_root(root)).as_posix()[:-3]
    day, _, rest = key.partition("/")
    meta: dict[str, Any] = {}
    try:
        meta = fmio.parse(path.read_bytes(), str(path)).meta
    except (MemsearchError, OSError):
        pass
    try:
        trashed = as_date(meta.get("trashed"), "trashed", str(path)) or date.fromisoformat(day)
    except (InvalidInput, ValueError):
        trashed = date.fromtimestamp(path.stat().st_mtime)
    original = str(meta.get("trashed_from") or _SUFFIX.sub("", rest or key))
    purge = trashed + timedelta(days=retention)
    return TrashItem(key=key, original_id=original, title=str(meta.get("title") or original.rsplit("/", 1)[-1]),
                     trashed=trashed.isoformat(), reason=str(meta.get("trash_reason") or ""),
                     purge_after=purge.isoformat(), days_left=(purge - today).days, path=str(path))


def list_trash(root: Path) -> list[TrashItem]:
    """Every trashed entry, newest first, with the days left until it may be purged."""
    retention = load_store_config(root).trash_retention_days
    today = clock.today()
    items = [_item(Path(root), p, retention, today) for p in _trash_files(root)]
    return sorted(items, key=lambda i: (i.trashed, i.key), reverse=True)


def render_trash_index(items: list[TrashItem]) -> str:
    lines = ["# Trash", "",
             "Forgotten entries. `memsearch-tui trash restore ID` brings one back; they are purged "
             "after the date shown (`memsearch-tui trash purge`).", "",
             "| Title | Original id | Trashed | Reason | Purge after | File |", "| --- | --- | --- | --- | --- | --- |"]
    for i in items:
        lines.append(f"| {cell(i.title)} | {cell(i.original_id)} | {i.trashed} | {cell(i.reason) or '—'} "
                     f"| {i.purge_after} | [{cell(i.key)}.md]({i.key}.md) |")
    if not items:
        lines.append("| _empty_ | | | | | |")
    return "\n".join(lines) + "\n"


def write_trash_index(root: Path, txn: Transaction) -> bool:
    """Render ``.trash/INDEX.md`` from the trash files; written only when it differs."""
    path = trash_root(root) / INDEX
    items = list_trash(root)
    if not items and not path.exists():
        return False
    text = render_trash_index(items)
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except OSError:
        pass
    txn.write(path, text)
    return True


def rebuild_trash_index(root: Path) -> bool:
    """The repair ``index check --fix`` needs for the trash (unlogged, like any index fix)."""
    with transaction(Path(root), "index-fix", "trash index", record=False) as txn:
        return write_trash_index(Path(root), txn)


def check_trash_index(root: Path) -> list[dict[str, Any]]:
    """Drift of ``.trash/INDEX.md`` from the trash files, in ``index check``'s format."""
    path = trash_root(root) / INDEX
    items = list_trash(root)
    if not items and not path.exists():
        return []
    try:
        ok = path.read_text(encoding="utf-8") == render_trash_index(items)
    except OSError:
        ok = False
    return [] if ok else [{"kind": "trash_index", "file": f"{TRASH}/{INDEX}",
                           "message": "does not match the trashed files"}]


# -- trashing ------------------------------------------------------------------------
def trash_path(root: Path, entry_id: str, day: date) -> Path:
    base = trash_root(root) / day.isoformat()
    path = base.joinpath(*entry_id.split("/")).with_suffix(".md")
    n = 2
    while path.exists():
        path = base.joinpath(*entry_id.split("/")).with_name(f"{entry_id.rsplit('/', 1)[-1]}~{n}.md")
        n += 1
    return path


def trash_in(store: Store, ed: Edit, entry: Entry, reason: str) -> Path:
    """Move ``entry`` into the trash inside an open edit; returns its trash file."""
    assert entry.path is not None
    today = clock.today()
    dest = trash_path(store.root, entry.id, today)
    ed.remove_entry(entry, to=dest)  # one rename: the entry is never in both places
    meta = dict(entry.meta)
    meta.update({"trashed": today, "trashed_from": entry.id, "trash_reason": reason})
    doc = fmio.Document(meta, entry.body, bom=entry.doc.bom, crlf=entry.doc.crlf)
    ed.txn.write(dest, fmio.dump(doc))
    move_versions(store.root, ed, entry.id, entry.id, new_base=dest.with_name(dest.stem + ".versions"))
    return dest


def referrers(store: Store, entry_id: str) -> list[str]:
    """Live entries whose ``related`` names ``entry_id`` (shown when trashing by hand)."""
    from .lifecycle import scan  # local: lifecycle builds on this module

    return sorted(r.id for r in scan(store).values() if entry_id in r.related)


def trash(store: Store, entry_id: str, reason: str = "") -> dict[str, Any]:
    """``trash ID [--reason]``: move a live entry to the trash (logged, undoable)."""
    entry = store.get(entry_id)
    refs = [r for r in referrers(store, entry.id) if r != entry.id]
    with store.edit("trash", f"trash {entry.id}" + (f": {reason}" if reason else "")) as ed:
        dest = trash_in(store, ed, entry, reason or "trashed by hand")
        write_trash_index(store.root, ed.txn)
    key = dest.relative_to(trash_root(store.root)).as_posix()[:-3]
    return {"trashed": entry.id, "key": key, "referenced_by": refs}


# -- restoring -----------------------------------------------------------------------
def find_item(root: Path, ref: str) -> TrashItem:
    """A trash item by its key (``2026-11-30/a/b``) or original id (newest wins)."""
    ref = ref.removesuffix(".md").removeprefix(f"{TRASH}/")
    check_parts(ref, "trash id")
    items = list_trash(root)
    for i in items:
        if i.key == ref:
            return i
    for i in items:  # newest first
        if i.original_id == ref:
            return i
    for i in items:  # an archived entry by the id it will get back: a/b for a/archived/b
        if _restore_target(i) == ref:
            return i
    raise NotFound(f"nothing in {trash_root(root)} for '{ref}' (see `memsearch-tui trash list`)")


def _restore_target(item: TrashItem) -> str:
    parts = item.original_id.split("/")
    parts = [p for p in parts[:-1] if p != ARCHIVED] + parts[-1:]
    return "/".join(parts)


def restore(store: Store, ref: str) -> dict[str, Any]:
    """``trash restore ID``: back to its category (recreated, suffixed on a clash), active, updated today."""
    store.require()
    item = find_item(store.root, ref)
    src = Path(item.path)
    doc = fmio.parse(src.read_bytes(), str(src))
    with store.edit("restore", f"restore {item.original_id} from trash") as ed:
        new_id = free_id(store, ed, _restore_target(item))
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
        entry = Entry(new_id, fmio.Document(meta, doc.body, bom=doc.bom, crlf=doc.crlf), dest)
        ed.write_entry(entry)
        vsrc = src.with_name(src.stem + ".versions")
        move_versions(store.root, ed, item.original_id, new_id, old_base=vsrc, new_base=versions_dir(store.root, new_id))
        _rmdir_up(src.parent, trash_root(store.root))
        write_trash_index(store.root, ed.txn)
    return {"restored": new_id, "from": item.key, "original_id": item.original_id,
            "renamed": new_id != _restore_target(item), "related_dropped": dropped}


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


def purge(store: Store, items: list[TrashItem], *, yes: bool) -> dict[str, Any]:
    """Delete trashed files for good. Without ``yes`` nothing happens (Refused, listing them)."""
    store.require()
    keys = [i.key for i in items]
    if not yes:
        raise Refused(f"purge would delete {len(items)} trashed entr{'y' if len(items) == 1 else 'ies'} for good"
                      + (": " + ", ".join(keys) if keys else "") + "; add --yes to do it", code="confirm")
    with transaction(store.root, "purge", f"purge {len(items)} from trash", record=False) as txn:
        for i in items:
            path = Path(i.path)
            txn.delete(path)
            vdir = path.with_name(path.stem + ".versions")
            if vdir.is_dir():
                for f in vdir.iterdir():
                    txn.delete(f)
                _rmdir_up(vdir, trash_root(store.root))
            _rmdir_up(path.parent, trash_root(store.root))
        write_trash_index(store.root, txn)
    return {"purged": keys}
