"""Category split and merge: keep a category small enough to scan, reversibly.

``plan`` groups a category's direct entries by status, year, month or first tag and
proposes one subcategory per group; ``apply`` moves them (``relocate``: one rename per
entry, ``related`` ids and links rewritten everywhere, indexes rebuilt) in one logged
transaction. ``merge`` flattens a category's subcategories back into it.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput, NotFound, Refused
from memsearch_tui.engine.core.paths import ARCHIVED, INDEX, category_path, rmdir_up, slugify
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.curator.relocate import relocate
from memsearch_tui.engine.store.catalog import Summary
from memsearch_tui.engine.store.config import load_store_config
from memsearch_tui.engine.store.store import Store

BY = ("status", "year", "month", "tag")


def _group(s: Summary, by: str) -> str | None:
    """The subcategory of one entry; None keeps it where it is."""
    if by == "status":
        return None if s.status == "archived" else s.status
    if by in ("year", "month"):
        day = s.created or s.updated
        if not day:
            return "undated"
        return day[:4] if by == "year" else day[:7]
    return slugify(s.tags[0]) if s.tags else "untagged"


def _target(category: str, group: str, s: Summary) -> str:
    name = s.id.rsplit("/", 1)[-1]
    archived = s.id.split("/")[-2:-1] == [ARCHIVED]
    return f"{category}/{group}/{ARCHIVED}/{name}" if archived else f"{category}/{group}/{name}"


def direct_entries(store: Store, category: str) -> list[Summary]:
    if not category_path(store.root, category).is_dir():
        raise NotFound(f"no category '{category}' in {store.root}")
    return sorted((s for s in store.catalog(under=category).in_category(category) if not s.error), key=lambda s: s.id)


def default_by(rows: list[Summary]) -> str:
    """Years when the entries span several, else months, else the first tag."""
    years = {(s.created or s.updated)[:4] for s in rows}
    if len(years) > 1:
        return "year"
    months = {(s.created or s.updated)[:7] for s in rows}
    return "month" if len(months) > 1 else "tag"


def plan(store: Store, category: str, by: str | None = None) -> dict[str, Any]:
    """Proposed subcategories: {"category", "by", "entries", "threshold", "groups", "moves"}."""
    store.require()
    rows = direct_entries(store, category)
    by = by or default_by(rows)
    if by not in BY:
        raise InvalidInput(f"--by must be one of {', '.join(BY)}, got {by!r}")
    moves: dict[str, str] = {}
    groups: Counter[str] = Counter()
    for s in rows:
        group = _group(s, by)
        if group is None:
            continue
        moves[s.id] = _target(category, group, s)
        groups[group] += 1
    threshold = load_store_config(store.root).split_threshold
    return {
        "category": category,
        "by": by,
        "entries": len(rows),
        "threshold": threshold,
        "over_threshold": len(rows) > threshold,
        "groups": dict(sorted(groups.items())),
        "moves": moves,
    }


def apply_moves(
    store: Store,
    category: str,
    moves: dict[str, str],
    *,
    kind: str = "split",
    summary: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Move entries per ``moves`` (targets suffixed if taken) in one logged transaction;
    ``progress(done, total)`` as each move is checked (a UI's progress bar)."""
    store.require()
    if not moves:
        raise Refused(f"nothing to move in '{category}'", code="empty")
    with store.edit(kind, summary or f"{kind} {category}: {plural(len(moves), 'entry', 'entries')}") as ed:
        final: dict[str, str] = {}
        for n, (old, new) in enumerate(moves.items(), 1):
            if progress is not None:
                progress(n, len(moves))
            if not store.path_of(old).is_file():
                raise NotFound(f"{old}: gone since the plan was made; make a new plan")
            final[old] = ed.free_id(new, set(final.values()))
        relocate(store, ed, final)
        ed.touch_category(category)
    return {"category": category, "moved": len(final), "moves": final}


def apply(
    store: Store, category: str, by: str | None = None, *, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """``split apply CATEGORY [--by]``: plan and move at once."""
    p = plan(store, category, by)
    out = apply_moves(
        store, p["category"], p["moves"], summary=f"split {p['category']} by {p['by']}", progress=progress
    )
    return {**out, "by": p["by"], "groups": p["groups"]}


def merge(store: Store, category: str) -> dict[str, Any]:
    """``merge CATEGORY``: every entry of its subcategories back into it; empty folders go."""
    store.require()
    base = category_path(store.root, category)
    if not base.is_dir():
        raise NotFound(f"no category '{category}' in {store.root}")
    rows = [s for s in store.catalog(under=category).in_category(category, recursive=True) if s.category != category]
    if not rows:
        raise Refused(f"'{category}' has no subcategories with entries to merge", code="empty")
    subs = sorted({p for p in base.iterdir() if p.is_dir() and not p.name.startswith(".") and p.name != ARCHIVED})
    with store.edit(
        "merge", f"merge {plural(len(rows), 'entry', 'entries')} of {category}'s subcategories into it"
    ) as ed:
        final: dict[str, str] = {}
        for s in sorted(rows, key=lambda r: r.id):
            name = s.id.rsplit("/", 1)[-1]
            archived = s.id.split("/")[-2:-1] == [ARCHIVED]
            wanted = f"{category}/{ARCHIVED}/{name}" if archived else f"{category}/{name}"
            final[s.id] = ed.free_id(wanted, set(final.values()))
        relocate(store, ed, final)
        for sub in subs:
            for dirpath, _, files in os.walk(sub, topdown=False):
                if INDEX in files:
                    ed.txn.delete(Path(dirpath, INDEX))
                rmdir_up(Path(dirpath), base)
        # Indexes are rewritten for touched categories: not for folders that just went away.
        ed.touched = {c for c in ed.touched if category_path(store.root, c).is_dir()} | {category}
    return {"category": category, "moved": len(final), "moves": final}


def over_threshold(store: Store) -> list[tuple[str, int]]:
    """Categories holding more direct entries than ``split_threshold`` (for ``--run-due``)."""
    threshold = load_store_config(store.root).split_threshold
    counts: Counter[str] = Counter(s.category for s in store.catalog().entries.values() if not s.error)
    return sorted((c, n) for c, n in counts.items() if c and n > threshold)
