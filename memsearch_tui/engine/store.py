"""The three-tier store: entries in nested category folders, INDEX.md tables kept in step.

Every write runs in a ``transaction``: the entry file and every INDEX.md it affects are
written atomically under the root's lock, rolled back together if any step fails, and
logged for ``undo``. Pre-write checks refuse secrets, duplicates and unsafe paths before
anything is touched.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Iterator

from . import clock
from . import frontmatter_io as fmio
from .catalog import Catalog, Summary, normalise, walk_entry_files
from .checks import check_duplicate, check_same_title
from .entry import Entry, load_entry, new_meta
from .errors import InvalidInput, NotFound, Refused
from .index_files import IndexWriter
from .paths import ARCHIVED, CONFIG, INDEX, category_path, check_memory_root, entry_path, slugify
from .secrets import refuse_secrets
from .txn import Transaction, transaction

MAX_BODY_BYTES = 1_000_000
DEFAULT_CONFIG = """---
# memsearch-tui store settings (key: value). Used by the lifecycle and split commands.
archive_after_days: 90
forget_after_days: 180
trash_retention_days: 30
split_threshold: 100
---
"""


@dataclass
class Change:
    """Optional field updates for ``Store.update``; None means 'leave as is'."""

    title: str | None = None
    body: str | None = None
    tags: list[str] | None = None
    importance: float | None = None
    expires: date | None = None
    related: list[str] | None = None


class Store:
    """One memory root. Cheap to construct; reads happen on demand."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root).expanduser().absolute()

    # -- set-up ----------------------------------------------------------------------
    def exists(self) -> bool:
        return (self.root / INDEX).is_file()

    def require(self) -> None:
        """Refuse an agent's memory as root, and a root that was never initialised."""
        check_memory_root(self.root)
        if not self.exists():
            raise NotFound(f"{self.root}: no memory store here (no INDEX.md); run `memsearch-tui init` first")

    def init(self) -> bool:
        """Create the root with INDEX.md and config.md; True if anything was created."""
        check_memory_root(self.root)
        if self.exists():
            return False
        self.root.mkdir(parents=True, exist_ok=True)
        with transaction(self.root, "init", f"init {self.root}") as txn:
            if not (self.root / CONFIG).exists():
                txn.write(self.root / CONFIG, DEFAULT_CONFIG)
            IndexWriter(self.root, self.catalog()).write_all(txn)
        return True

    # -- reading ---------------------------------------------------------------------
    def catalog(self) -> Catalog:
        return Catalog(self.root).load().refresh()

    def path_of(self, entry_id: str) -> Path:
        return entry_path(self.root, entry_id)

    def get(self, entry_id: str) -> Entry:
        entry_id = entry_id.removesuffix(".md")
        path = self.path_of(entry_id)
        if not path.is_file():
            raise NotFound(f"no entry '{entry_id}' in {self.root}")
        return load_entry(entry_id, path)

    def entry_paths(self) -> Iterator[tuple[str, Path]]:
        """(id, path) of every live entry file (active, expired, archived; not trash)."""
        for entry_id, path, _ in walk_entry_files(self.root):
            yield entry_id, path

    def list(self, category: str | None = None, status: str | None = None) -> list[Summary]:
        """Entries of a category and its subcategories (all with no category), sorted by id."""
        self.require()
        cat = self.catalog()
        cat.save()
        if category:
            if not category_path(self.root, category).is_dir():
                raise NotFound(f"no category '{category}' in {self.root}")
            rows = cat.in_category(category, recursive=True)
        else:
            rows = list(cat.entries.values())
        if status:
            rows = [r for r in rows if r.status == status]
        return sorted(rows, key=lambda r: r.id)

    def categories(self) -> list[str]:
        """Every category folder (nested ones as ``a/b``), sorted."""
        out = []
        for dirpath, dirnames, _ in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != ARCHIVED)
            rel = Path(dirpath).relative_to(self.root).as_posix()
            if rel != ".":
                out.append(rel)
        return sorted(out)

    # -- writing ---------------------------------------------------------------------
    def add(
        self,
        category: str,
        title: str,
        body: str,
        *,
        tags: list[str] | None = None,
        importance: float | None = None,
        expires: date | None = None,
        related: list[str] | None = None,
    ) -> Entry:
        """Create an entry after every pre-write check; indexes follow in the same transaction."""
        self.require()
        title = _clean_title(title)
        folder = category_path(self.root, category)
        _check_content(f"{category}/{title}", title, body, tags or [], importance)
        cat = self.catalog()
        check_same_title(cat, category, title)
        check_duplicate(self.root, cat, body)
        entry_id = _free_id(cat, folder, category, slugify(title))
        meta = new_meta(title, clock.today(), tags=tags or [], importance=importance,
                        expires=expires, related=related or [])
        entry = Entry(entry_id, fmio.Document(meta, _with_newline(body)), self.path_of(entry_id))
        with transaction(self.root, "add", f"add {entry_id}") as txn:
            self._write(txn, cat, entry)
        cat.save()
        return entry

    def update(self, entry_id: str, change: Change) -> Entry:
        """Change fields and/or the body of an entry; ``updated`` becomes today."""
        self.require()
        entry = self.get(entry_id)
        meta = dict(entry.meta)
        if change.title is not None:
            meta["title"] = _clean_title(change.title)
        for key in ("tags", "importance", "expires", "related"):
            value = getattr(change, key)
            if value is not None:
                meta[key] = value
        body = entry.body if change.body is None else _with_newline(change.body)
        _check_content(entry.id, str(meta.get("title", "")), body, meta.get("tags") or [], meta.get("importance"))
        cat = self.catalog()
        if change.body is not None:
            check_duplicate(self.root, cat, body, ignore=entry.id)
        meta["updated"] = clock.today()
        new = Entry(entry.id, fmio.Document(meta, body, bom=entry.doc.bom, crlf=entry.doc.crlf), entry.path)
        new.validate()
        with transaction(self.root, "update", f"update {entry.id}") as txn:
            self._write(txn, cat, new)
        cat.save()
        return new

    def replace_raw(self, entry_id: str, data: bytes) -> Entry:
        """Replace an entry with hand-edited bytes (``edit``), validated like any write."""
        self.require()
        old = self.get(entry_id)
        new = Entry(old.id, fmio.parse(data, str(old.path)), old.path)
        new.validate()
        _check_content(new.id, new.title, new.body, new.tags, new.importance)
        cat = self.catalog()
        if normalise(new.body) != normalise(old.body):
            check_duplicate(self.root, cat, new.body, ignore=old.id)
        with transaction(self.root, "edit", f"edit {old.id}") as txn:
            self._write(txn, cat, new)
        cat.save()
        return new

    def _write(self, txn: Transaction, cat: Catalog, entry: Entry) -> None:
        """Write one entry, then the indexes from its category up to the root."""
        assert entry.path is not None
        txn.write(entry.path, entry.to_bytes())
        cat.put(entry)
        IndexWriter(self.root, cat).write_chain(txn, entry.category)

    # -- indexes ---------------------------------------------------------------------
    def rebuild_index(self) -> int:
        """Rewrite every INDEX.md from the files (full re-read); returns files written."""
        self.require()
        cat = Catalog(self.root).refresh(full=True)
        with transaction(self.root, "index-fix", "index check --fix") as txn:
            n = IndexWriter(self.root, cat).write_all(txn)
        cat.save()
        return n

    def check_index(self) -> list[dict[str, Any]]:
        """Drift between INDEX.md files and the entry files, one dict per problem."""
        self.require()
        cat = self.catalog()
        cat.save()
        return IndexWriter(self.root, cat).check()


def _clean_title(title: str) -> str:
    title = " ".join(str(title).split())
    if not title:
        raise InvalidInput("title is empty")
    if len(title) > 200:
        raise InvalidInput(f"title is {len(title)} characters long; 200 at most")
    return title


def _with_newline(body: str) -> str:
    return body if body.endswith("\n") or not body else body + "\n"


def _check_content(where: str, title: str, body: str, tags: list[str], importance: Any) -> None:
    size = len(body.encode("utf-8"))
    if size > MAX_BODY_BYTES:
        raise Refused(
            f"{where}: body is {size / 1e6:.1f} MB; entries hold notes, 1 MB at most "
            "(store the path to a large file instead)", code="too_large")
    if importance is not None and not (isinstance(importance, (int, float)) and 0 <= importance <= 1):
        raise InvalidInput(f"{where}: importance must be a number from 0 to 1, got {importance!r}")
    refuse_secrets(where, title, body, " ".join(tags))


def _free_id(cat: Catalog, folder: Path, category: str, slug: str) -> str:
    """``category/slug``, suffixed -2, -3 … while the file (or an archived one) is taken."""
    n = 1
    while True:
        name = slug if n == 1 else f"{slug}-{n}"
        candidate = f"{category}/{name}"
        taken = (folder / f"{name}.md").exists() or (folder / ARCHIVED / f"{name}.md").exists()
        if not taken and candidate not in cat.entries:
            return candidate
        n += 1
