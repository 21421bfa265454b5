"""Lifecycle: active → archived → trash → purged, plus expiry, as a reviewable plan.

Rules (thresholds from the root's ``config.md``):

* **archive** an active or expired entry whose last activity — the later of ``updated``
  and the day it was last read (``show``, a search hit opened, the TUI; recorded beside
  the store by ``engine/store/access``, never in the file) —
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

from collections.abc import Callable, Mapping
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core.errors import Conflict, MemsearchError, NotFound
from memsearch_tui.engine.core.paths import ARCHIVED
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.store.links import iso_day, scan
from memsearch_tui.engine.store.trash_index import list_trash, trash_root, write_trash_index

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
                        f"not updated for {plural((today - last).days, 'day')} "
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
                        f"archived and unreferenced for {plural((today - since).days, 'day')} "
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
    return {"action": action, "id": entry_id, "reason": reason, "since": iso_day(since)}


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
    expected: Mapping[str, bytes | None] | None = None,
) -> dict[str, Any]:
    """Carry out ``moves`` (default: the current plan) in one logged transaction; purges last.

    A move whose entry is gone or no longer in the expected state is skipped and reported.
    ``progress(done, total)`` is called as moves are checked (a UI's progress bar).
    ``expected`` (from ``seen``, taken when the plan was shown): the bytes of each move's
    file then; if any of them changed since, the whole plan is refused (Conflict naming
    the files) before anything moves — the plan was judged on files that are not there any
    more, and the person should look at the recomputed one.
    """
    from memsearch_tui.engine.curator import trash as trash_mod
    from memsearch_tui.engine.curator.relocate import relocate

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
            _check_seen(store, moves, expected)
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
                    archive_moves[entry.id] = ed.free_id(archive_target(entry.id), set(archive_moves.values()))
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
            write_trash_index(store.root, ed.txn)
    if purges:
        if progress is not None:
            progress(len(moves), len(moves))
        items = [i for i in list_trash(store.root) if i.key in {m["id"] for m in purges}]
        if not rest:  # else checked with the other moves, before any of them was made
            _check_seen(store, purges, expected)
        trash_mod.purge(store, items, yes=True, expected=_trash_seen(purges, expected))
        done += [m for m in purges if m["id"] in {i.key for i in items}]
    return {"applied": done, "skipped": skipped}


def _file_of(store: Store, move: dict[str, Any]) -> Path:
    """The file a plan move acts on: the entry, or for a purge its trash file."""
    if move["action"] == "purge":
        return trash_root(store.root).joinpath(*str(move["id"]).split("/")).with_suffix(".md")
    return store.path_of(str(move["id"]))


def seen(store: Store, moves: list[dict[str, Any]]) -> dict[str, bytes | None]:
    """The bytes of each move's file as the plan is shown (None: no such file), keyed by
    the move's id: what a face passes back as ``apply(..., expected=)``."""
    out: dict[str, bytes | None] = {}
    for m in moves:
        try:
            out[str(m["id"])] = read_capped(_file_of(store, m))
        except (OSError, MemsearchError):
            out[str(m["id"])] = None
    return out


def _check_seen(store: Store, moves: list[dict[str, Any]], expected: Mapping[str, bytes | None] | None) -> None:
    """Conflict naming every move's file that changed since ``seen`` (under the write lock)."""
    if expected is None:
        return
    changed = []
    for m in moves:
        path = _file_of(store, m)
        try:
            now: bytes | None = read_capped(path)
        except (OSError, MemsearchError):
            now = None
        if now != expected.get(str(m["id"])):
            changed.append(str(path))
    if changed:
        more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        raise Conflict(
            f"{', '.join(changed[:3])}{more}: changed since the plan was shown; nothing applied "
            "(compute the plan again)",
            path=changed[0],
        )


def _trash_seen(purges: list[dict[str, Any]], expected: Mapping[str, bytes | None] | None) -> dict[str, bytes] | None:
    if expected is None:
        return None
    return {str(m["id"]): data for m in purges if (data := expected.get(str(m["id"]))) is not None}


def archive(store: Store, entry_id: str, *, expected: bytes | None = None) -> dict[str, Any]:
    """``archive ID``: move one entry to its category's ``archived/`` now (undoable).

    ``expected``: the file as the user saw it; a change made since is refused (Conflict)."""
    from memsearch_tui.engine.curator.relocate import relocate
    from memsearch_tui.engine.store.store import check_expected

    entry = store.get(entry_id)
    if entry.status == "archived" or ARCHIVED in entry.id.split("/")[:-1]:
        from memsearch_tui.engine.core.errors import Refused

        raise Refused(f"{entry.id} is already archived", code="archived")
    with store.edit("archive", f"archive {entry.id}") as ed:
        check_expected(entry.path, expected, "deciding to archive it")
        target = ed.free_id(archive_target(entry.id))
        relocate(store, ed, {entry.id: target}, mutate=_mark_archived)
    return {"archived": entry.id, "to": target}


def touch_accessed(store: Store, entry_id: str) -> bool:
    """Record that an entry was read today; True if that is news. The entry file is never
    written (see ``engine/store/access``); a missing entry is not recorded."""
    from memsearch_tui.engine.core.paths import normalise_id
    from memsearch_tui.engine.store import access  # lazily: the hook path imports this module

    entry_id = normalise_id(entry_id)
    try:
        path = store.path_of(entry_id)
    except MemsearchError:
        return False
    if not path.is_file():
        return False
    return access.touch(store.root, entry_id)
