"""Moving entries without leaving anything dangling: ids, ``related`` lists and links.

An id is the entry's path, so archiving, splitting or merging a category changes ids.
``relocate`` moves each file with one atomic rename (an entry is never copied, so a crash
can neither lose nor duplicate it), rewrites the moved entries' own relative links for
their new folder, and rewrites every other live entry's ``related`` ids, relative links
and ``[[id]]`` wiki links that named a moved entry. Kept versions move along.
"""

from __future__ import annotations

import copy
import posixpath
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.atomic import fsync_dir
from memsearch_tui.engine.core.errors import MemsearchError, Refused
from memsearch_tui.engine.core.paths import rmdir_up, versions_dir
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.store.catalog import category_of
from memsearch_tui.engine.store.entry import Entry, as_str_list
from memsearch_tui.engine.store.links import LINK, WIKI, scan
from memsearch_tui.engine.store.store import Edit, Store, check_place


def _folder(entry_id: str) -> str:
    return entry_id.rpartition("/")[0]


def rewrite_links(body: str, old_id: str, new_id: str, moved: dict[str, str]) -> str:
    """Relative ``.md`` links and ``[[id]]`` of a file that moves from old_id to new_id."""
    old_dir, new_dir = _folder(old_id), _folder(new_id)

    def link(m: re.Match[str]) -> str:
        target, hash_, anchor = m.group(2).partition("#")
        if "://" in target or target.startswith(("/", "mailto:")) or not target.endswith(".md"):
            return m.group(0)
        resolved = posixpath.normpath(posixpath.join(old_dir, target))
        if resolved.startswith(".."):
            return m.group(0)
        dest = moved.get(resolved[:-3], resolved[:-3]) + ".md"
        if dest == resolved and old_dir == new_dir:
            return m.group(0)
        rel = posixpath.relpath(dest, new_dir or ".")
        return f"{m.group(1)}{rel}{hash_}{anchor}{m.group(3)}"

    def wiki(m: re.Match[str]) -> str:
        target = m.group(2).strip().removesuffix(".md")
        return f"{m.group(1)}{moved[target]}{m.group(3)}" if target in moved else m.group(0)

    return WIKI.sub(wiki, LINK.sub(link, body))


def _fix_related(meta: dict[str, Any], moved: dict[str, str], where: str) -> bool:
    related = as_str_list(meta.get("related"), "related", where)
    fixed = [moved.get(r, r) for r in related]
    if fixed != related:
        meta["related"] = fixed
        return True
    return False


def relocate(
    store: Store, ed: Edit, moves: dict[str, str], mutate: Callable[[Entry], None] | None = None
) -> dict[str, Entry]:
    """Move entries ``old id → new id`` inside the edit ``ed``; returns the moved entries.

    ``mutate`` may change each moved entry (status, dates) before it is written.
    Targets must be free (use ``Edit.free_id``). References elsewhere are rewritten.
    """
    out: dict[str, Entry] = {}
    folders: set[Path] = set()
    for category in sorted({category_of(i) for pair in moves.items() for i in pair}):
        ed.fresh(category)  # once per edit: afterwards the catalog rows change in one batch
    db = ed.cat.db
    batch = not db.in_transaction
    if batch:
        db.execute("BEGIN")
    try:
        for old_id, new_id in moves.items():
            entry = store.get(old_id)
            before = (copy.deepcopy(entry.meta), entry.body)
            if mutate:
                mutate(entry)
            _fix_related(entry.meta, moves, entry.where)
            entry.doc.body = rewrite_links(entry.body, old_id, new_id, moves)
            out[new_id] = move_file(store, ed, entry, new_id, before, folders)
    finally:
        if batch:
            db.execute("COMMIT")  # on failure Store.edit rolls files back and re-syncs the catalog
        for folder in folders:  # one fsync per folder, not two per rename
            fsync_dir(folder)
    fix_references(store, ed, moves, skip=set(moves.values()))
    return out


def move_file(
    store: Store,
    ed: Edit,
    entry: Entry,
    new_id: str,
    before: tuple[dict[str, Any], str],
    folders: set[Path] | None = None,
) -> Entry:
    """Rename ``entry`` to ``new_id`` and then, only if its bytes changed, rewrite it.

    With ``folders`` the caller fsyncs the touched folders once at the end (a rename is
    atomic either way; the fsync only makes it durable), which makes big splits fast.
    """
    assert entry.path is not None
    check_place("id", new_id)  # a move target is a new file name and INDEX.md row
    new_path = store.path_of(new_id)
    if new_path.exists():
        raise Refused(f"cannot move {entry.id} to {new_id}: that file exists", code="exists")
    old_category = entry.category
    moved = Entry(new_id, entry.doc, new_path)
    ed.fresh(old_category)
    ed.fresh(moved.category)
    if folders is None:
        ed.txn.move(entry.path, new_path)
    else:
        # Bulk move: the folders are fsynced once at the end, not twice per rename.
        ed.txn.move(entry.path, new_path, sync=False)
        folders.update({entry.path.parent, new_path.parent})
    if (entry.meta, entry.body) != before:
        ed.txn.write(new_path, moved.to_bytes())
    ed.cat.drop(entry.id)
    ed.cat.put(moved)
    ed.touched.update({entry.category, moved.category})
    move_versions(store.root, ed, entry.id, new_id)
    return moved


def move_versions(
    root: Path, ed: Edit, old_id: str, new_id: str, old_base: Path | None = None, new_base: Path | None = None
) -> None:
    """Carry ``.versions/<old>/`` to ``.versions/<new>/`` (or given folders) file by file."""
    src = old_base or versions_dir(root, old_id)
    dst = new_base or versions_dir(root, new_id)
    if not src.is_dir() or src == dst:
        return
    for f in sorted(src.iterdir()):
        if f.is_file() and not f.name.startswith("."):
            ed.txn.move(f, dst / f.name)
    rmdir_up(src, root)


def fix_references(store: Store, ed: Edit, moves: dict[str, str], skip: set[str]) -> list[str]:
    """Rewrite ``related``, links and wiki links naming a moved id in every other entry.

    Candidates come from the lifecycle scan (cached per file), so only entries that do
    name a moved id are read and rewritten.
    """
    if not moves:
        return []
    targets = set(moves)
    changed = []
    for entry_id, info in sorted(scan(store).items()):
        if entry_id in skip or not (targets.intersection(info.related) or targets.intersection(info.links)):
            continue
        path = store.path_of(entry_id)
        try:
            entry = Entry(entry_id, fmio.parse(read_capped(path), str(path)), path)
            entry.validate()
        except (MemsearchError, OSError):  # an unreadable entry is left for `index check` to report
            continue
        touched = _fix_related(entry.meta, moves, entry.where)
        body = rewrite_links(entry.body, entry_id, entry_id, moves)
        if touched or body != entry.body:
            entry.doc.body = body
            ed.write_entry(entry)
            changed.append(entry_id)
    return changed
