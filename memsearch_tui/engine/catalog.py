"""A derived, rebuildable cache of entry summaries, so big stores stay fast.

``add`` must refresh a category index and look for duplicates, and ``ls`` must list a
5k-entry category, without parsing thousands of YAML headers each time. The catalog keeps
per file: size and mtime (to notice any change, by any tool), the index fields, and a
normalised-body fingerprint for the duplicate check. Deleting it loses nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator

from .atomic import atomic_write_text
from .entry import Entry, load_entry
from .errors import MemsearchError
from .locking import STATE_DIR
from .paths import ARCHIVED, CONFIG, INDEX

CATALOG_FILE = "catalog.json"
HEAD_CHARS = 256
SCHEMA = 1


@dataclass
class Summary:
    """What the indexes, ``ls`` and the duplicate check need of one entry file."""

    id: str
    title: str
    status: str
    created: str
    updated: str
    tags: list[str]
    mtime_ns: int
    size: int
    norm_len: int = 0
    norm_hash: str = ""
    head: str = ""
    error: str = ""  # non-empty: the file could not be read as an entry

    @property
    def category(self) -> str:
        parts = self.id.split("/")[:-1]
        if parts and parts[-1] == ARCHIVED:
            parts = parts[:-1]
        return "/".join(parts)


def normalise(text: str) -> str:
    """Body text reduced to what matters for 'is this the same note': words, lowercased."""
    return " ".join(re.findall(r"\w+", text.lower()))


def walk_entry_files(root: Path) -> Iterator[tuple[str, Path, os.stat_result]]:
    """Every entry file under ``root``: ``*.md`` except INDEX.md/config.md, no dot-folders."""
    stack = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            it = os.scandir(folder)
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            continue
        with it:
            for de in it:
                if de.name.startswith("."):
                    continue
                if de.is_dir(follow_symlinks=False):
                    stack.append((Path(de.path), f"{prefix}{de.name}/"))
                elif de.name.endswith(".md") and de.name != INDEX and not (prefix == "" and de.name == CONFIG):
                    try:
                        st = de.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    yield f"{prefix}{de.name[:-3]}", Path(de.path), st


def summarise(entry_id: str, path: Path, st: os.stat_result) -> Summary:
    """Summary of one file; an unreadable entry becomes a Summary with ``error`` set."""
    try:
        entry = load_entry(entry_id, path)
    except MemsearchError as exc:
        return Summary(entry_id, entry_id.rsplit("/", 1)[-1], "invalid", "", "", [], st.st_mtime_ns, st.st_size, error=exc.message)
    return from_entry(entry, st)


def from_entry(entry: Entry, st: os.stat_result) -> Summary:
    norm = normalise(entry.body)
    return Summary(
        id=entry.id,
        title=entry.title,
        status=entry.status,
        created=entry.created.isoformat() if entry.created else "",
        updated=entry.updated.isoformat() if entry.updated else "",
        tags=entry.tags,
        mtime_ns=st.st_mtime_ns,
        size=st.st_size,
        norm_len=len(norm),
        norm_hash=hashlib.sha1(norm.encode("utf-8")).hexdigest(),
        head=norm[:HEAD_CHARS],
    )


class Catalog:
    """Summaries of all entries of one root, kept in step with the files by stat."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.file = self.root / STATE_DIR / CATALOG_FILE
        self.entries: dict[str, Summary] = {}
        self._dirty = False

    def load(self) -> "Catalog":
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
            if data.get("schema") == SCHEMA:
                self.entries = {d["id"]: Summary(**d) for d in data["entries"]}
        except (OSError, ValueError, TypeError, KeyError):
            self.entries, self._dirty = {}, True  # a damaged cache is rebuilt, never fatal
        return self

    def refresh(self, *, full: bool = False) -> "Catalog":
        """Re-read files whose size or mtime changed (all of them with ``full``); drop gone ones."""
        seen: dict[str, Summary] = {}
        for entry_id, path, st in walk_entry_files(self.root):
            old = self.entries.get(entry_id)
            if full or old is None or old.mtime_ns != st.st_mtime_ns or old.size != st.st_size:
                seen[entry_id] = summarise(entry_id, path, st)
                self._dirty = True
            else:
                seen[entry_id] = old
        if set(seen) != set(self.entries):
            self._dirty = True
        self.entries = seen
        return self

    def put(self, entry: Entry) -> None:
        """Record a file this process just wrote, without re-reading it."""
        assert entry.path is not None
        self.entries[entry.id] = from_entry(entry, entry.path.stat())
        self._dirty = True

    def drop(self, entry_id: str) -> None:
        if self.entries.pop(entry_id, None) is not None:
            self._dirty = True

    def save(self) -> None:
        if not self._dirty:
            return
        data = {"schema": SCHEMA, "entries": [asdict(s) for s in self.entries.values()]}
        try:
            atomic_write_text(self.file, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
            self._dirty = False
        except OSError:
            pass  # a cache that cannot be written is only slower next time

    def in_category(self, category: str, *, recursive: bool = False) -> list[Summary]:
        pre = category + "/" if category else ""
        return [
            s for s in self.entries.values()
            if s.category == category or (recursive and s.category.startswith(pre))
            or (recursive and not category)
        ]
