"""Who links to whom: ``related`` ids, relative ``.md`` links and ``[[wiki]]`` links.

``scan`` reads the few frontmatter keys lifecycle and relocation need from every live
entry, without a YAML parse when the file is in the store's own plain shape, and caches
them per file by (mtime, size) in the state folder so a 10k store stays fast.
"""

from __future__ import annotations

import functools
import json
import posixpath
import re
from dataclasses import field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from memsearch_tui.engine.core.atomic import atomic_write_text
from memsearch_tui.engine.core.clock import real_date
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.safe_io import load_json, read_capped
from memsearch_tui.engine.core.state_files import LINK_SCAN, STATE_DIR

if TYPE_CHECKING:
    from memsearch_tui.engine.store.entry import Entry


class Rooted(Protocol):
    """A store, as far as ``scan`` needs one (the catalog reads this module: no import of
    the Store, which imports the catalog)."""

    root: Path


LINK = re.compile(r"(\]\()([^)\s]+?)(\))")
WIKI = re.compile(r"(\[\[)([^\]|#]+?)((?:[|#][^\]]*)?\]\])")

_SCAN_FILE = LINK_SCAN


@record(frozen=False)
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


def iso_day(d: date | None) -> str:
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
    from memsearch_tui.engine.store.entry import as_date

    w = entry.where
    return Info(
        id=entry.id,
        status=entry.status,
        updated=iso_day(entry.updated),
        accessed=iso_day(as_date(entry.meta.get("accessed"), "accessed", w)),
        archived=iso_day(as_date(entry.meta.get("archived"), "archived", w)),
        expires=iso_day(entry.expires),
        related=entry.related,
        links=links_of(entry.id, entry.body),
    )


_FAST_KEYS = {"status", "created", "updated", "accessed", "archived", "expires", "related"}
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@functools.cache
def _plain() -> re.Pattern[str]:
    """Compiled on first use, not on import (its CJK range: ~1 ms of every start, loaded)."""
    return re.compile(r"^[\w./\-\u3000-\u9fff]+$")


def fast_info(entry_id: str, raw: bytes) -> Info | None:
    """Read the few keys lifecycle needs without a YAML parse; None when the file is not
    in the plain shape the store writes (then the full parser decides)."""
    if not raw.startswith(b"---\n") or b"\r" in raw[:2048]:
        return None
    end = raw.find(b"\n---\n", 3)
    if end < 0:
        return None
    try:
        fm, body = raw[4:end].decode("utf-8"), raw[end + 5 :].decode("utf-8")
    except UnicodeDecodeError:
        return None
    vals: dict[str, Any] = {}
    block: str | None = None
    for line in fm.split("\n"):
        if block and line.startswith("- "):
            item = line[2:].strip()
            if not _plain().match(item):
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
                if not all(map(_plain().match, items)):
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
        elif _DATE.match(value) and real_date(value):  # 2026-02-30: the full parser refuses it
            vals[key] = value
        else:
            return None
    links = links_of(entry_id, body) if ("](" in body or "[[" in body) else []
    return Info(
        id=entry_id,
        status=vals.get("status", "active"),
        updated=vals.get("updated") or vals.get("created", ""),
        accessed=vals.get("accessed", ""),
        archived=vals.get("archived", ""),
        expires=vals.get("expires", ""),
        related=vals.get("related", []),
        links=links,
    )


def _read_info(entry_id: str, path: Path) -> Info | None:
    from memsearch_tui.engine.store.entry import load_entry

    try:
        info = fast_info(entry_id, read_capped(path))
        return info if info is not None else _info(load_entry(entry_id, path))
    except (MemsearchError, OSError):
        return None  # unreadable: `index check` reports it; lifecycle leaves it alone


def _load_cache(root: Path) -> dict[str, Any]:
    try:
        cache = load_json(root / STATE_DIR / _SCAN_FILE)
    except (OSError, ValueError):  # a broken cache is rebuilt
        return {}
    return cache if isinstance(cache, dict) else {}


def scanned(root: Path) -> dict[str, tuple[list[int], Info]]:
    """What the last ``scan`` cached: id → ([mtime_ns, size, ctime_ns] of the file it read,
    its facts). The catalog's upgrade takes the facts of the files unchanged since from here."""
    out: dict[str, tuple[list[int], Info]] = {}
    for entry_id, hit in _load_cache(root).items():
        try:
            info = Info(**hit[1])
        except (TypeError, KeyError, IndexError):  # a damaged row: read the file instead
            continue
        days = (info.status, info.updated, info.accessed, info.archived, info.expires)
        if all(isinstance(v, str) for v in days) and all(
            isinstance(r, str) for r in (*_items(info.related), *_items(info.links))
        ):
            out[entry_id] = (list(hit[0]), info)
    return out


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [None]


def scan(store: Rooted) -> dict[str, Info]:
    """Lifecycle facts of every live entry, cached by (mtime, size, ctime) so a 10k store stays fast."""
    from memsearch_tui.engine.store.access import last_read  # sqlite3: not on the hook's import path
    from memsearch_tui.engine.store.walk import walk_entry_paths

    cache_file = store.root / STATE_DIR / _SCAN_FILE
    cache = _load_cache(store.root)
    out: dict[str, Info] = {}
    fresh: dict[str, Any] = {}
    dirty = False
    for entry_id, where, st in walk_entry_paths(store.root):
        path = Path(where)
        stamp = [st.st_mtime_ns, st.st_size, st.st_ctime_ns]  # ctime: `cp -p` keeps mtime and size
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
    for entry_id, day in last_read(store.root).items():  # reads are recorded beside the files
        seen = out.get(entry_id)
        if seen is not None and day > seen.accessed:
            seen.accessed = day
    return out
