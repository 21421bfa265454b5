"""``mem.entries``: the store's entries — list, read, show, add, update, edit, and the store itself.

Writes go through ``curator.versions`` (pre-write checks, duplicates, a contradicting body
kept as a version); under ``writes="review"`` (an agent) they become store proposals
instead (:meth:`Proposals.propose_store_change`).
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api import limits
from memsearch_tui.engine.api.literal import file_title
from memsearch_tui.engine.api.types import Category, Document, EntrySummary, FullEntry, WriteResult
from memsearch_tui.engine.core.contained import read_inside
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, MemsearchError, NotFound, Refused
from memsearch_tui.engine.core.paths import INDEX, category_path, inside
from memsearch_tui.engine.core.safe_io import MAX_ENTRY_BYTES
from memsearch_tui.engine.core.secrets import refuse_secrets
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.memsearch.project import roots_for
from memsearch_tui.engine.store.store import Change, clean_title

if TYPE_CHECKING:
    from datetime import date

    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.store.catalog import Summary as CatalogSummary
    from memsearch_tui.engine.store.entry import Entry as StoreEntry
    from memsearch_tui.engine.store.overview import CategoryStats

DAY_REF = re.compile(r"^(?:memory/)?(\d{4}-\d{2}-\d{2})(?:\.md)?$")  # a journal day as callers name it
SPECIAL = {"project.md": "PROJECT.md", "project": "PROJECT.md", "user.md": "USER.md", "user": "USER.md"}
STATUSES = ("active", "archived", "expired", "invalid")


class Entries:
    """The entries of one memory store, as ``mem.entries``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem
        self.store = mem.store

    # -- the store itself ------------------------------------------------------------------
    def init_store(self) -> bool:
        """Create the store (INDEX.md, config.md) if it is not there; True if anything was made."""
        return self.store.init()

    def exists(self) -> bool:
        """Is there a store at the memory root (its INDEX.md)? A face offers ``init`` if not."""
        return self.store.exists()

    # -- reading ---------------------------------------------------------------------------
    def category_names(self) -> tuple[str, ...]:
        """Every category folder (nested ones as ``a/b``), sorted; no entry is read."""
        return tuple(self.store.categories())

    def tally(self) -> dict[str, tuple[int, int]]:
        """Per category with direct entries: (entries, of them not active), from the catalog
        brought up to date with the disk: what the Index tree counts, no entry in memory."""
        self.store.require()
        cat = self.store.catalog()
        try:
            return cat.tally()
        finally:
            cat.close()

    def cached_tally(self) -> dict[str, tuple[int, int]] | None:
        """:meth:`tally` from the catalog as last saved, without re-checking the files (None
        when there is no catalog yet): what a face's first frame draws."""
        from memsearch_tui.engine.store.catalog import Catalog

        if not self.store.exists():
            return None
        cat = Catalog(self.mem.root)
        try:
            return cat.tally() if cat.populated() else None
        finally:
            cat.close()

    def rows(self, category: str) -> tuple[EntrySummary, ...]:
        """The entries directly in ``category`` (unreadable ones too), as the catalog last
        saw them (no re-check of the disk: a face calls :meth:`tally` for that), by id."""
        from memsearch_tui.engine.store.catalog import Catalog

        cat = Catalog(self.mem.root)
        try:
            return tuple(_summary(r) for r in cat.in_category(category))
        finally:
            cat.close()

    def find(self, text: str, limit: int) -> tuple[EntrySummary, ...]:
        """Up to ``limit`` entries, by id, whose title, id or a tag contains ``text``
        (case-folded), as the catalog last saw them: a filter over 100k entries that never
        holds them all in memory."""
        from memsearch_tui.engine.store.catalog import Catalog

        cat = Catalog(self.mem.root)
        try:
            return tuple(_summary(r) for r in cat.matching(text.strip(), limit))
        finally:
            cat.close()

    def summary(self, entry_id: str) -> EntrySummary | None:
        """One entry as the catalog last saw it (None when it does not know the id)."""
        from memsearch_tui.engine.store.catalog import Catalog

        cat = Catalog(self.mem.root)
        try:
            found = cat.entries.get(entry_id)
        finally:
            cat.close()
        return None if found is None else _summary(found)

    def stats(self, *, fresh: bool = True) -> tuple[CategoryStats, ...]:
        """One row per top-level category (nested ones roll up): entries by status, largest
        first; ``fresh=False``: as the catalog last saved them, without a stat of every file."""
        from memsearch_tui.engine.store.overview import category_stats

        return tuple(category_stats(self.store, fresh=fresh))

    def seen(self, entry_id: str) -> tuple[FullEntry, bytes]:
        """An entry and the exact bytes it was parsed from: what a face shows, and passes
        back as ``expected=`` with the write the person then asks for. Not an access."""
        e, data = self.store.seen(entry_id)
        return entry_of(e), data

    def path_of(self, entry_id: str) -> str:
        """Where entry ``entry_id``'s file is (or would be); refuses an unsafe id."""
        return str(self.store.path_of(entry_id))

    def list(self, category: str | None = None, status: str | None = None) -> tuple[EntrySummary, ...]:
        """Entries of a category and below (all with no category), sorted by id."""
        if status is not None and status not in STATUSES:
            raise InvalidInput(f"status {status!r}: expected active, archived, expired or invalid")
        return tuple(_summary(r) for r in self.store.list(category or None, status))

    def categories(self) -> tuple[Category, ...]:
        """Every category and how many entries it holds (with its subcategories)."""
        self.store.require()
        names = self.store.categories()
        counts = dict.fromkeys(names, 0)
        for r in self.store.list():
            parts = r.category.split("/")
            for i in range(1, len(parts) + 1):
                key = "/".join(parts[:i])
                if key in counts:
                    counts[key] += 1
        return tuple(Category(n, counts[n]) for n in names)

    def show(self, entry_id: str) -> FullEntry:
        """One entry whole (reading it counts as activation for the lifecycle)."""
        self.store.require()
        e = self.store.get(entry_id)
        self.record_access(e.id)
        return entry_of(e)

    def read(self, ref: str, lines: tuple[int, int] | None = None) -> Document:
        """An entry (by id), a journal day, PROJECT.md, USER.md or an INDEX.md, whole or a line range."""
        limits.text("id_or_path", ref, limits.REF)
        ref = ref.strip()
        if not ref:
            raise InvalidInput("which file? give an entry id, a day YYYY-MM-DD, PROJECT.md or USER.md")
        kind, path, name = self._resolve(ref)
        return self._document(kind, path, name, lines)

    def store_file(self, rel: str) -> Document:
        """An INDEX.md or an entry by its path under the memory root (``memory://`` resources).

        Nothing else: no hidden folders (trash, versions, state), no other file types, and
        the resolved path (symlinks followed) must stay inside the root.
        """
        limits.text("path", rel, limits.REF)
        root = self.mem.root
        parts = Path(rel).parts
        if not rel or Path(rel).is_absolute() or ".." in parts or any(p.startswith(".") for p in parts):
            raise Refused(f"{rel!r}: not a file of the memory store", code="unsafe_path")
        if not rel.endswith(".md"):
            raise Refused(f"{rel!r}: only INDEX.md files and entries are resources", code="unsafe_path")
        path = root / rel
        if not inside(root, path):
            raise Refused(f"{rel!r}: resolves outside the memory root", code="unsafe_path")
        if Path(rel).name == INDEX:
            return self._document("index", path, Path(rel).as_posix(), None)
        entry_id = rel.removesuffix(".md")
        if not self.store.path_of(entry_id).is_file():
            raise NotFound(f"no entry '{entry_id}' in {root}")
        return self._document("entry", self.store.path_of(entry_id), entry_id, None)

    def titles(self, ids: builtins.list[str]) -> dict[str, str]:
        """id → title for the ids the catalog knows (search hits); {} if it cannot say."""
        from memsearch_tui.engine.api.literal import catalog_titles

        return catalog_titles(self.mem.root, ids)

    def record_access(self, entry_id: str) -> None:
        """Reading an entry counts as activation for the lifecycle; never fails a read."""
        if self.mem.writes == "read-only":
            return
        from memsearch_tui.engine.curator import lifecycle

        try:
            lifecycle.touch_accessed(self.store, entry_id)
        except (MemsearchError, OSError):
            pass

    # -- writing ---------------------------------------------------------------------------
    def add(
        self,
        category: str,
        title: str,
        body: str,
        tags: builtins.list[str] | None = None,
        importance: float | None = None,
        *,
        expires: date | None = None,
        reason: str = "",
    ) -> WriteResult:
        """A new entry (or, on an existing topic, an update or a kept conflicting version)."""
        self.mem.require_writable("remember")
        tags = limits.tags(tags)
        limits.text("category", category, limits.REF)
        limits.text("body", body, self.mem.body_cap)
        limits.text("reason", reason, limits.REASON)
        importance = limits.importance(importance)
        title = clean_title(title)
        category = category.strip().strip("/")
        self.store.require()
        category_path(self.mem.root, category)  # refuses unsafe category names now
        refuse_secrets(f"{category}/{title}", category, title, body, " ".join(tags), reason)
        if self.mem.writes == "review":
            self._check_duplicate(body)
            payload = {"category": category, "title": title, "body": body, "tags": tags, "importance": importance}
            return self.mem.proposals.propose_store_change("remember", f"{category}/{title}", payload, reason)
        from memsearch_tui.engine.curator import versions

        with self.mem.acting():
            out = versions.add_entry(
                self.store, category, title, body, tags=tags, importance=importance, expires=expires
            )
        return written(out)

    def update(
        self,
        entry_id: str,
        *,
        title: str | None = None,
        body: str | None = None,
        tags: builtins.list[str] | None = None,
        importance: float | None = None,
        expires: date | None = None,
        expected: int | None = None,
        reason: str = "",
    ) -> WriteResult:
        """Change an entry; a contradicting body is kept as a new version, never lost.

        ``expected``: the version the caller read; if the entry moved on since, refused.
        """
        self.mem.require_writable("revise")
        limits.text("id", entry_id, limits.REF)
        limits.text("reason", reason, limits.REASON)
        if body is not None:
            limits.text("body", body, self.mem.body_cap)
        if title is not None:
            title = clean_title(title)
        tags = None if tags is None else limits.tags(tags)
        importance = limits.importance(importance)
        if all(v is None for v in (title, body, tags, importance, expires)):
            raise InvalidInput("nothing to change: give a title, body, tags, importance or expiry")
        entry = self.store.get(entry_id)
        if expected is not None and entry.version != expected:
            raise Conflict(
                f"{entry.id} is at version {entry.version}, not {expected}: read it again and revise that",
                code="conflict",
            )
        refuse_secrets(entry.id, title or "", body or "", " ".join(tags or []), reason)
        if self.mem.writes == "review":
            if body is not None:
                self._check_duplicate(body, ignore=entry.id)
            payload = {
                "id": entry.id,
                "title": title,
                "body": body,
                "tags": tags,
                "importance": importance,
                "expected_version": entry.version,
            }
            return self.mem.proposals.propose_store_change("revise", entry.id, payload, reason)
        from memsearch_tui.engine.curator import versions

        change = Change(title=title, body=body, tags=tags, importance=importance, expires=expires)
        with self.mem.acting():  # no actor: a person's own update (CLI, app), never a conflict to confirm
            out = versions.update_entry(self.store, entry.id, change, by_person=not self.mem.actor)
        return written(out)

    def replace(self, entry_id: str, data: bytes, *, expected: bytes) -> EntrySummary:
        """Replace an entry with the person's edited bytes (validated like any write, one
        logged operation). ``expected``: the file as the editor opened it; a change made
        on disk since (an agent, a hook) is refused (Conflict), never overwritten."""
        self.mem.require_writable("edit")
        with self.mem.acting():  # the store checks the size and the frontmatter
            new = self.store.replace_raw(entry_id, data, expected=expected)
        return summary_of(new.summary())

    def edit(self, entry_id: str, call: Callable[[builtins.list[str]], int]) -> tuple[EntrySummary, bool]:
        """Edit an entry in $EDITOR (``call`` runs it); validated before it replaces the file.

        Returns the entry as saved and whether it changed."""
        self.mem.require_writable("edit")
        from memsearch_tui.engine.store.editor import edit_in_editor

        self.store.require()
        with self.mem.acting():
            result = edit_in_editor(self.store, entry_id, call)
        return summary_of(result.entry.summary()), result.changed

    def _check_duplicate(self, body: str, ignore: str | None = None) -> None:
        from memsearch_tui.engine.store.checks import check_duplicate

        cat = self.store.catalog()
        try:
            check_duplicate(self.mem.root, cat, body, ignore=ignore)
        finally:
            cat.close()

    # -- reading files by reference ------------------------------------------------------
    def _document(self, kind: str, path: Path, name: str, lines: tuple[int, int] | None) -> Document:
        try:
            text = self._read_contained(kind, path).decode("utf-8", errors="replace")
        except FileNotFoundError:
            raise NotFound(f"{name}: no such file") from None
        all_lines = text.splitlines(keepends=True)
        total = len(all_lines)
        start, end = _line_range(lines, total)
        chunk = "".join(all_lines[start - 1 : end])
        if len(chunk) > limits.READ:
            chunk = chunk[: limits.READ]
            end = start + chunk.count("\n") - 1 if chunk.count("\n") else start
        if kind == "entry":
            entry = self.store.get(name)
            self.record_access(entry.id)
            return Document(
                "entry", entry.id, str(path), entry.title, chunk, (start, end), total,
                entry.version, entry.status, tuple(entry.tags),
            )  # fmt: skip
        return Document(kind, name, str(path), file_title(kind, str(path)), chunk, (start, end), total)

    def _read_contained(self, kind: str, path: Path) -> bytes:
        """The file's bytes under the one containment rule: a store file inside the memory
        root, a project file inside the project (``contained.read_inside``: a symlink out,
        a FIFO or a file over the bound is refused, naming it)."""
        if kind in ("entry", "index"):
            return read_inside((self.mem.root,), path, MAX_ENTRY_BYTES)
        return read_inside(roots_for(self.mem.memsearch_dir), path)

    def _resolve(self, ref: str) -> tuple[str, Path, str]:
        """(kind, file, name) for a reference; refuses anything outside the two memories."""
        mdir, root = self.mem.memsearch_dir, self.mem.root
        special = SPECIAL.get(ref.lower())
        if special:
            return ("project" if special == "PROJECT.md" else "user"), mdir / special, special
        day = DAY_REF.match(ref)
        if day:
            return "journal", mdir / "memory" / f"{day.group(1)}.md", f"memory/{day.group(1)}.md"
        p = Path(ref).expanduser()
        if p.is_absolute():
            if inside(mdir, p) and p.suffix == ".md":
                rel = p.resolve().relative_to(mdir.resolve()).as_posix()
                kind = {"PROJECT.md": "project", "USER.md": "user"}.get(rel, "journal")
                if kind == "journal" and not rel.startswith("memory/"):
                    raise Refused(f"{ref}: not a journal, PROJECT.md or USER.md", code="unsafe_path")
                return kind, p, rel
            if inside(root, p):
                return self._resolve(p.resolve().relative_to(root.resolve()).as_posix())
            raise Refused(f"{ref}: outside the memory root and the project's .memsearch", code="unsafe_path")
        parts = Path(ref).parts
        if ".." in parts or any(part.startswith(".") for part in parts):  # .trash, .versions, state
            raise Refused(f"{ref}: not a memory file", code="unsafe_path")
        if Path(ref).name == INDEX:
            path = root / ref
            if not inside(root, path):
                raise Refused(f"{ref}: resolves outside the memory root", code="unsafe_path")
            return "index", path, Path(ref).as_posix()
        entry_id = ref.removesuffix(".md")
        path = self.store.path_of(entry_id)  # refuses unsafe ids and symlinks out of the root
        if not path.is_file():
            raise NotFound(f"no entry '{entry_id}' in {root}")
        return "entry", path, entry_id


def entry_of(e: StoreEntry) -> FullEntry:
    """An engine entry as the API's FullEntry (dates as ISO strings, lists as tuples)."""
    s = e.summary()
    return FullEntry(
        e.id, e.title, e.status, e.category, s["created"], s["updated"], e.version, tuple(e.tags),
        e.importance, tuple(e.related), s["expires"], e.body, str(e.path),
    )  # fmt: skip


def _summary(r: CatalogSummary) -> EntrySummary:
    """A catalog row as the API's EntrySummary (what ``ls`` and the Index show)."""
    return EntrySummary(
        r.id, r.title, r.status, r.category, r.updated or None, tuple(r.tags), r.version or None, r.error
    )


def summary_of(e: dict[str, Any]) -> EntrySummary:
    """An engine entry summary (``Entry.summary()``) as the API's EntrySummary."""
    return EntrySummary(
        e["id"], e["title"], e["status"], e["category"], e.get("updated"), tuple(e.get("tags") or ()), e.get("version")
    )


def written(out: dict[str, Any]) -> WriteResult:
    """What ``curator.versions`` reports about a write, as a WriteResult."""
    conflict = out.get("conflict") or {}
    return WriteResult(
        out["action"], out.get("message") or "", summary_of(out["entry"]), None, str(conflict.get("why") or "")
    )


def _line_range(lines: tuple[int, int] | None, total: int) -> tuple[int, int]:
    if lines is None:
        return 1, max(total, 1) if total else 0
    start, end = int(lines[0]), int(lines[1])
    if start < 1 or end < start:
        raise InvalidInput(f"lines {start}-{end}: expected 1 ≤ start ≤ end")
    if start > max(total, 1):
        raise InvalidInput(f"lines {start}-{end}: the file has {plural(total, 'line')}")
    return start, min(end, total)
