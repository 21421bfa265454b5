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

import json
import posixpath
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from typing import TYPE_CHECKING

from . import clock
from .atomic import atomic_write_text
from .errors import MemsearchError, NotFound
from .paths import ARCHIVED, INDEX, STATE_DIR

if TYPE_CHECKING:
    from .entry import Entry
    from .store import Store
    from .store_config import StoreConfig

# The store, YAML and the catalog load inside the functions that need them: `upkeep` runs
# on every agent hook (`--run-due`) and must stay cheap when nothing is due.

LINK = re.compile(r"(\]\()([^)\s]+?)(\))")
WIKI = re.compile(r"(\[\[)([^\]|#]+?)((?:[|#][^\]]*)?\]\])")

UPKEEP_FILE = "upkeep.json"
REVIEW_EVERY = timedelta(days=7)
SPLIT_CHECK_EVERY = timedelta(days=1)
_SCAN_FILE = "lifecycle-scan.json"


@dataclass
class Info:
    """What the lifecycle rules need of one live entry."""

    id: str
    status: str
    updated: str
    accessed: str
    archived: str
    expires: str
    related: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)


def _iso(d: date | None) -> str:
    return d.isoformat() if d else ""


def links_of(entry_id: str, body: str) -> list[str]:
    """Ids a body links to: relative ``.md`` links resolved from its folder, and ``[[id]]``."""
    folder = entry_id.rpartition("/")[0]
    out = []
    for m in LINK.finditer(body):
        target = m.group(2).partition("#")[0]
        if target.endswith(".md") and "://" not in target and not target.startswith("/"):
            resolved = posixpath.normpath(posixpath.join(folder, target))
            if not resolved.startswith(".."):
                out.append(resolved[:-3])
    out += [m.group(2).strip().removesuffix(".md") for m in WIKI.finditer(body)]
    return out


def _info(entry: Entry) -> Info:
    from .entry import as_date

    w = entry.where
    return Info(
        id=entry.id, status=entry.status, updated=_iso(entry.updated),
        accessed=_iso(as_date(entry.meta.get("accessed"), "accessed", w)),
        archived=_iso(as_date(entry.meta.get("archived"), "archived", w)),
        expires=_iso(entry.expires), related=entry.related, links=links_of(entry.id, entry.body))


_FAST_KEYS = {"status", "created", "updated", "accessed", "archived", "expires", "related"}
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_PLAIN = re.compile(r"^[\w./\-\u3000-\u9fff]+$")


def _fast_info(entry_id: str, raw: bytes) -> Info | None:
    """Read the few keys lifecycle needs without a YAML parse; None when the file is not
    in the plain shape the store writes (then the full parser decides)."""
    if not raw.startswith(b"---\n") or b"\r" in raw[:2048]:
        return None
    end = raw.find(b"\n---\n", 3)
    if end < 0:
        return None
    try:
        fm, body = raw[4:end].decode("utf-8"), raw[end + 5:].decode("utf-8")
    except UnicodeDecodeError:
        return None
    vals: dict[str, Any] = {}
    block: str | None = None
    for line in fm.split("\n"):
        if block and line.startswith("- "):
            item = line[2:].strip()
            if not _PLAIN.match(item):
                return None
            vals[block].append(item)
            continue
        block = None
        key, sep, value = line.partition(":")
        if not sep or key.startswith((" ", "\t", "-", "#")):
            continue  # nested or continued value of a key we do not read
        if key not in _FAST_KEYS:
            continue
        value = value.strip()
        if key == "related":
            if value in ("", "[]"):
                vals[key] = []
                block = key if value == "" else None
            elif value.startswith("[") and value.endswith("]"):
                items = [v.strip() for v in value[1:-1].split(",") if v.strip()]
                if not all(_PLAIN.match(v) for v in items):
                    return None
                vals[key] = items
            else:
                return None
        elif key == "status":
            if value not in ("active", "archived", "expired"):
                return None
            vals[key] = value
        elif value in ("", "null", "~"):
            vals[key] = ""
        elif _DATE.match(value):
            vals[key] = value
        else:
            return None
    links = links_of(entry_id, body) if ("](" in body or "[[" in body) else []
    return Info(id=entry_id, status=vals.get("status", "active"),
                updated=vals.get("updated") or vals.get("created", ""), accessed=vals.get("accessed", ""),
                archived=vals.get("archived", ""), expires=vals.get("expires", ""),
                related=vals.get("related", []), links=links)


def _read_info(entry_id: str, path: Path) -> Info | None:
    from .entry import load_entry

    try:
        info = _fast_info(entry_id, path.read_bytes())
        return info if info is not None else _info(load_entry(entry_id, path))
    except (MemsearchError, OSError):
        return None  # unreadable: `index check` reports it; lifecycle leaves it alone


def scan(store: Store) -> dict[str, Info]:
    """Lifecycle facts of every live entry, cached by (mtime, size) so a 10k store stays fast."""
    from .catalog import walk_entry_files

    cache_file = store.root / STATE_DIR / _SCAN_FILE
    try:
        cache = json.loads(cache_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cache = {}
    out: dict[str, Info] = {}
    fresh: dict[str, Any] = {}
    dirty = False
    for entry_id, path, st in walk_entry_files(store.root):
        stamp = [st.st_mtime_ns, st.st_size]
        hit = cache.get(entry_id)
        if hit and hit[0] == stamp:
            info = Info(**hit[1])
        else:
            dirty = True
            found = _read_info(entry_id, path)
            if found is None:
                continue
            info = found
        out[entry_id] = info
        fresh[entry_id] = [stamp, info.__dict__]
    if dirty or len(fresh) != len(cache):
        try:
            atomic_write_text(cache_file, json.dumps(fresh, separators=(",", ":")))
        except OSError:
            pass
    return out


def _latest(*values: str) -> date | None:
    days = [date.fromisoformat(v) for v in values if v]
    return max(days) if days else None


def plan(store: Store, cfg: StoreConfig | None = None) -> list[dict[str, Any]]:
    """Every due move with its reason: {"action", "id", "reason", "since"}; reads only."""
    from . import trash as trash_mod
    from .store_config import load_store_config

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
                moves.append(_move("archive", i.id, f"not updated for {(today - last).days} days "
                                   f"(updated {i.updated}{read}; archive_after_days {cfg.archive_after_days})", last))
                continue
            if i.status == "active" and i.expires and date.fromisoformat(i.expires) < today:
                moves.append(_move("expire", i.id, f"expired on {i.expires}", date.fromisoformat(i.expires)))
        elif i.status == "archived":
            since = _latest(i.archived, i.updated, i.accessed)
            if since and (today - since).days >= cfg.forget_after_days:
                if i.id in referenced:
                    continue
                moves.append(_move("trash", i.id, f"archived and unreferenced for {(today - since).days} days "
                                   f"(forget_after_days {cfg.forget_after_days})", since))
    for t in trash_mod.purge_candidates(store.root):
        moves.append({"action": "purge", "id": t.key, "reason": f"in trash since {t.trashed} "
                      f"(trash_retention_days {cfg.trash_retention_days})", "since": t.trashed})
    return moves


def _move(action: str, entry_id: str, reason: str, since: date | None) -> dict[str, Any]:
    return {"action": action, "id": entry_id, "reason": reason, "since": _iso(since)}


def archive_target(entry_id: str) -> str:
    head, _, name = entry_id.rpartition("/")
    return f"{head}/{ARCHIVED}/{name}" if head else f"{ARCHIVED}/{name}"


def _mark_archived(entry: Entry) -> None:
    entry.meta["status"] = "archived"
    entry.meta["archived"] = clock.today()


def apply(store: Store, moves: list[dict[str, Any]] | None = None, *, summary: str = "") -> dict[str, Any]:
    """Carry out ``moves`` (default: the current plan) in one logged transaction; purges last.

    A move whose entry is gone or no longer in the expected state is skipped and reported.
    """
    from . import trash as trash_mod
    from .relocate import free_id, relocate

    store.require()
    moves = plan(store) if moves is None else moves
    done: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    purges = [m for m in moves if m["action"] == "purge"]
    rest = [m for m in moves if m["action"] != "purge"]
    if rest:
        counts = ", ".join(f"{sum(m['action'] == a for m in rest)} {a}" for a in ("archive", "expire", "trash")
                           if any(m["action"] == a for m in rest))
        with store.edit("lifecycle", summary or f"lifecycle: {counts}") as ed:
            archive_moves: dict[str, str] = {}
            for m in rest:
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
        items = [i for i in trash_mod.list_trash(store.root) if i.key in {m["id"] for m in purges}]
        trash_mod.purge(store, items, yes=True)
        done += [m for m in purges if m["id"] in {i.key for i in items}]
    return {"applied": done, "skipped": skipped}


def archive(store: Store, entry_id: str) -> dict[str, Any]:
    """``archive ID``: move one entry to its category's ``archived/`` now (undoable)."""
    from .relocate import free_id, relocate

    entry = store.get(entry_id)
    if entry.status == "archived" or ARCHIVED in entry.id.split("/")[:-1]:
        from .errors import Refused

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
    from . import frontmatter_io as fmio  # lazily: the hook path imports this module
    from .atomic import atomic_write_bytes
    from .errors import LockTimeout
    from .locking import root_lock

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


# -- hooks -----------------------------------------------------------------------------
def _state(root: Path) -> tuple[Path, dict[str, Any]]:
    path = Path(root) / STATE_DIR / UPKEEP_FILE
    try:
        return path, json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return path, {}


def _due(state: dict[str, Any], key: str, every: timedelta) -> bool:
    last = state.get(key)
    if not last:
        return True
    try:
        from datetime import datetime

        return clock.now() - datetime.fromisoformat(last.replace("Z", "+00:00")) >= every
    except ValueError:
        return True


def upkeep(memory_root: Path, project: Path) -> list[dict[str, Any]]:
    """Weekly lifecycle review and daily split check for ``--run-due``; never raises.

    Both only create proposals (``<root>/.memsearch-tui/proposals/``): automatic archiving
    can misjudge, so a person accepts them in the TUI or with ``store-proposals accept``.
    """
    root = Path(memory_root)
    rows: list[dict[str, Any]] = []
    if not (root / INDEX).is_file():
        return [_row("lifecycle", "skip", f"no memory store at {root}"), _row("split", "skip", f"no memory store at {root}")]
    state_path, state = _state(root)
    for task, every, fn in (("lifecycle", REVIEW_EVERY, _upkeep_lifecycle), ("split", SPLIT_CHECK_EVERY, _upkeep_split)):
        if not _due(state, f"{task}_last", every):
            rows.append(_row(task, "skip", f"checked {state[f'{task}_last']}; next check after {every.days} day(s)"))
            continue
        try:
            from .store import Store

            rows.append(fn(Store(root)))
            state[f"{task}_last"] = clock.iso_z()
        except Exception as exc:  # a hook must never crash the agent's session
            rows.append(_row(task, "error", f"{type(exc).__name__}: {exc}"))
    try:
        atomic_write_text(state_path, json.dumps(state, indent=2))
    except OSError:
        pass
    return rows


def _row(task: str, result: str, reason: str) -> dict[str, Any]:
    return {"platform": "store", "task": task, "result": result, "reason": reason}


def _upkeep_lifecycle(store: Store) -> dict[str, Any]:
    from . import store_proposals as sp

    moves = plan(store)
    if not moves:
        return _row("lifecycle", "none", "nothing due for archive, expiry, trash or purge")
    prop = sp.propose_lifecycle(store.root, moves)
    return _row("lifecycle", "proposed", f"{len(moves)} move(s) waiting for review: proposal {prop['id']}")


def _upkeep_split(store: Store) -> dict[str, Any]:
    from . import split
    from . import store_proposals as sp

    made = []
    for category, count in split.over_threshold(store):
        made.append(sp.propose_split(store, category)["id"])
    if not made:
        return _row("split", "none", "no category over split_threshold")
    return _row("split", "proposed", f"split proposal(s) waiting for review: {', '.join(made)}")
