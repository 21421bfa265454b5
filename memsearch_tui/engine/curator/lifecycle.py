"""Lifecycle: active → archived → trash → purged, plus expiry, as a reviewable plan.

Rules (thresholds from the root's ``config.md``):

* **archive** an active or expired entry whose last activity — the later of ``updated``
  and ``accessed`` (set when the entry is read: ``show``, a search hit opened, the TUI) —
  is ``archive_after_days`` or more ago. It moves to ``<category>/archived/``.
* **expire** an active entry whose ``expires`` date has passed (status ``expired``).
* **trash** an archived entry whose last activity (the later of ``archived``, ``updated``
  and ``accessed``) is ``forget_after_days`` or more ago and that no live (active or
  expired) entry references through ``related``, a relative link or an ``[[id]]`` link.
* **purge** a trashed entry ``trash_retention_days`` after it was trashed.

``plan`` only reads; ``apply`` carries a plan out in one logged transaction (undoable),
purges excepted. ``upkeep`` is the cheap weekly hook entry point.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.errors import MemsearchError, NotFound
from memsearch_tui.engine.core.paths import ARCHIVED
from memsearch_tui.engine.store.links import _iso, scan

if TYPE_CHECKING:
    from memsearch_tui.engine.store.config import StoreConfig
    from memsearch_tui.engine.store.entry import Entry
    from memsearch_tui.engine.store.store import Store

# The store, YAML and the catalog load inside the functions that need them: `upkeep` runs
# on every agent hook (`--run-due`) and must stay cheap when nothing is due.


def _latest(*values: str) -> date | None:
    days = [date.fromisoformat(v) for v in values if v]
    return max(days) if days else None


def plan(store: Store, cfg: StoreConfig | None = None) -> list[dict[str, Any]]:
    """Every due move with its reason: {"action", "id", "reason", "since"}; reads only."""
    from memsearch_tui.engine.curator import trash as trash_mod
    from memsearch_tui.engine.store.config import load_store_config

    store.require()
    cfg = cfg or load_store_config(store.root)
    today = clock.today()
    infos = scan(store)
    referenced: set[str] = set()
    for i in infos.values():
        if i.status != "archived":
            referenced.update(r for r in i.related + i.links if r != i.id)
    moves: list[dict[str, Any]] = []
    for i in sorted(infos.values(), key=lambda x: x.id):
        last = _latest(i.updated, i.accessed)
        if i.status in ("active", "expired") and ARCHIVED not in i.id.split("/")[:-1]:
            if last and (today - last).days >= cfg.archive_after_days:
                read = f", last read {i.accessed}" if i.accessed else ""
                moves.append(
                    _move(
                        "archive",
                        i.id,
                        f"not updated for {(today - last).days} days "
                        f"(updated {i.updated}{read}; archive_after_days {cfg.archive_after_days})",
                        last,
                    )
                )
                continue
            if i.status == "active" and i.expires and date.fromisoformat(i.expires) < today:
                moves.append(_move("expire", i.id, f"expired on {i.expires}", date.fromisoformat(i.expires)))
        elif i.status == "archived":
            since = _latest(i.archived, i.updated, i.accessed)
            if since and (today - since).days >= cfg.forget_after_days:
                if i.id in referenced:
                    continue
                moves.append(
                    _move(
                        "trash",
                        i.id,
                        f"archived and unreferenced for {(today - since).days} days "
                        f"(forget_after_days {cfg.forget_after_days})",
                        since,
                    )
                )
    for t in trash_mod.purge_candidates(store.root):
        moves.append(
            {
                "action": "purge",
                "id": t.key,
                "reason": f"in trash since {t.trashed} (trash_retention_days {cfg.trash_retention_days})",
                "since": t.trashed,
            }
        )
    return moves


def _move(action: str, entry_id: str, reason: str, since: date | None) -> dict[str, Any]:
    return {"action": action, "id": entry_id, "reason": reason, "since": _iso(since)}


def archive_target(entry_id: str) -> str:
    head, _, name = entry_id.rpartition("/")
    return f"{head}/{ARCHIVED}/{name}" if head else f"{ARCHIVED}/{name}"


def _mark_archived(entry: Entry) -> None:
    entry.meta["status"] = "archived"
    entry.meta["archived"] = clock.today()


def apply(
    store: Store,
    moves: list[dict[str, Any]] | None = None,
    *,
    summary: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Carry out ``moves`` (default: the current plan) in one logged transaction; purges last.

    A move whose entry is gone or no longer in the expected state is skipped and reported.
    ``progress(done, total)`` is called as moves are checked (a UI's progress bar).
    """
    from memsearch_tui.engine.curator import trash as trash_mod
    from memsearch_tui.engine.curator.relocate import free_id, relocate

    store.require()
    moves = plan(store) if moves is None else moves
    done: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    purges = [m for m in moves if m["action"] == "purge"]
    rest = [m for m in moves if m["action"] != "purge"]
    if rest:
        counts = ", ".join(
            f"{sum(m['action'] == a for m in rest)} {a}"
            for a in ("archive", "expire", "trash")
            if any(m["action"] == a for m in rest)
        )
        with store.edit("lifecycle", summary or f"lifecycle: {counts}") as ed:
            archive_moves: dict[str, str] = {}
            for n, m in enumerate(rest, 1):
                if progress is not None:
                    progress(n, len(moves))
                try:
                    entry = store.get(m["id"])
                except (NotFound, MemsearchError):
                    skipped.append({**m, "skipped": "entry no longer exists"})
                    continue
                if m["action"] == "archive" and entry.status in ("active", "expired"):
                    archive_moves[entry.id] = free_id(store, ed, archive_target(entry.id), set(archive_moves.values()))
                elif m["action"] == "expire" and entry.status == "active":
                    entry.meta["status"] = "expired"
                    ed.write_entry(entry)
                    done.append(m)
                elif m["action"] == "trash" and entry.status == "archived":
                    trash_mod.trash_in(store, ed, entry, m.get("reason", "lifecycle"))
                    done.append(m)
                else:
                    skipped.append({**m, "skipped": f"status is now {entry.status}"})
            if archive_moves:
                relocate(store, ed, archive_moves, mutate=_mark_archived)
                done += [{**m, "to": archive_moves[m["id"]]} for m in rest if m["id"] in archive_moves]
            trash_mod.write_trash_index(store.root, ed.txn)
    if purges:
        if progress is not None:
            progress(len(moves), len(moves))
        items = [i for i in trash_mod.list_trash(store.root) if i.key in {m["id"] for m in purges}]
        trash_mod.purge(store, items, yes=True)
        done += [m for m in purges if m["id"] in {i.key for i in items}]
    return {"applied": done, "skipped": skipped}


def archive(store: Store, entry_id: str) -> dict[str, Any]:
    """``archive ID``: move one entry to its category's ``archived/`` now (undoable)."""
    from memsearch_tui.engine.curator.relocate import free_id, relocate

    entry = store.get(entry_id)
    if entry.status == "archived" or ARCHIVED in entry.id.split("/")[:-1]:
        from memsearch_tui.engine.core.errors import Refused

        raise Refused(f"{entry.id} is already archived", code="archived")
    with store.edit("archive", f"archive {entry.id}") as ed:
        target = free_id(store, ed, archive_target(entry.id))
        relocate(store, ed, {entry.id: target}, mutate=_mark_archived)
    return {"archived": entry.id, "to": target}


def touch_accessed(store: Store, entry_id: str) -> bool:
    """Record that an entry was read today (``accessed``); True if the file changed.

    Cheap and quiet on purpose: at most one write per entry per day, atomic, not logged
    for undo, ``updated`` untouched, no index rewrite (accessed is no index column). Only
    the ``accessed:`` line is written: the rest of the file, comments and YAML style
    included, stays byte for byte. If another process holds the write lock the activation
    is simply skipped.
    """
    from memsearch_tui.engine.core import frontmatter_io as fmio  # lazily: the hook path imports this module
    from memsearch_tui.engine.core.atomic import atomic_write_bytes
    from memsearch_tui.engine.core.errors import LockTimeout
    from memsearch_tui.engine.core.locking import root_lock

    today = clock.today().isoformat()
    try:
        with root_lock(store.root, timeout=0.5):
            path = store.path_of(entry_id.removesuffix(".md"))
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                return False
            fmio.parse(data, str(path))  # only well-formed entries are touched
            new = _with_accessed_line(data, today)
            if new is None or new == data:
                return False
            atomic_write_bytes(path, new)
            return True
    except (LockTimeout, MemsearchError, OSError):
        return False


def _with_accessed_line(data: bytes, day: str) -> bytes | None:
    """``data`` with its frontmatter's ``accessed:`` line set to ``day`` (added if absent)."""
    text = data.decode("utf-8")
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(nl)
    start = 1 if lines and lines[0].lstrip("\ufeff") == "---" else None
    if start is None:
        return None
    close = next((i for i in range(start, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
    if close is None:
        return None
    line = f"accessed: {day}"
    for i in range(start, close):
        if re.match(r"accessed\s*:", lines[i]):
            lines[i] = line
            break
    else:
        lines.insert(close, line)
    return nl.join(lines).encode("utf-8")
