"""The three-tier store: entries in nested category folders, INDEX.md tables kept in step.

Every write runs in a ``transaction``: the entry file and every INDEX.md it affects are
written atomically under the root's lock, rolled back together if any step fails, and
logged for ``undo``. Pre-write checks refuse secrets, duplicates and unsafe paths before
anything is touched.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.atomic import find_temp_files, fit_name, sweep_temp_files
from memsearch_tui.engine.core.errors import Conflict, InvalidInput, NotFound, Refused
from memsearch_tui.engine.core.paths import (
    ARCHIVED,
    CONFIG,
    INDEX,
    category_path,
    check_memory_root,
    check_parts,
    check_portable_name,
    check_title_chars,
    entry_path,
    id_key,
    normalise_id,
    slugify,
    utf8_name,
)
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.core.secrets import refuse_secrets
from memsearch_tui.engine.core.text import normalise
from memsearch_tui.engine.history.txn import Transaction, recover_unlocked, transaction
from memsearch_tui.engine.store.catalog import Catalog, Summary, walk_entry_files
from memsearch_tui.engine.store.checks import check_duplicate, check_same_title
from memsearch_tui.engine.store.config import default_config_text
from memsearch_tui.engine.store.entry import Entry, check_raw_size, entry_from_bytes, load_entry, new_meta
from memsearch_tui.engine.store.index_files import IndexWriter
from memsearch_tui.engine.store.trash_index import check_trash_index, write_trash_index

MAX_BODY_BYTES = 1_000_000


@record(frozen=False)
class Change:
    """Optional field updates for ``Store.update``; None means 'leave as is'."""

    title: str | None = None
    body: str | None = None
    tags: list[str] | None = None
    importance: float | None = None
    expires: date | None = None
    related: list[str] | None = None

    def apply(self, meta: dict[str, Any]) -> None:
        """Set the given frontmatter fields in ``meta`` (the body is the caller's business)."""
        if self.title is not None:
            meta["title"] = clean_title(self.title)
        for key in ("tags", "importance", "expires", "related"):
            value = getattr(self, key)
            if value is not None:
                meta[key] = value


class Edit:
    """The file operations of one store transaction; indexes follow when it ends.

    Use through ``Store.edit``. Every method keeps the catalog in step and remembers the
    categories it touched, so the INDEX.md chain of each is rewritten once at the end.
    """

    def __init__(self, store: Store, txn: Transaction, cat: Catalog) -> None:
        self.store, self.txn, self.cat = store, txn, cat
        self.touched: set[str] = set()
        self._fresh: set[str] = set()

    def fresh(self, category: str) -> Catalog:
        """The catalog with ``category``'s folder re-checked against the disk (once per edit)."""
        if category not in self._fresh:
            self.cat.refresh(under=category)
            self._fresh.add(category)
        return self.cat

    def id_taken(self, entry_id: str, reserved: Collection[str] = ()) -> bool:
        """True when ``entry_id`` (or its archived twin) is used, or reserved by this edit."""
        if entry_id in reserved or entry_id in self.cat.entries:
            return True
        parts = check_parts(entry_id, "id")  # refuses an unsafe id
        if self.store.root.joinpath(*parts[:-1], parts[-1] + ".md").exists():
            return True
        if len(parts) > 1 and parts[-2] != ARCHIVED:
            return self.store.root.joinpath(*parts[:-1], ARCHIVED, parts[-1] + ".md").exists()
        return False

    def free_id(self, wanted: str, reserved: Collection[str] = ()) -> str:
        """``wanted``, or ``wanted-2``, ``-3`` … when that name is taken: the store's one rule
        for every add, import, restore, archive and split."""
        head, _, name = wanted.rpartition("/")
        n = 1
        while True:
            suffixed = fit_name(f"{name}-{n}", ".md")[:-3]  # a 255-byte name's -2 is over; bounded
            candidate = (f"{head}/" if head else "") + (name if n == 1 else suffixed)
            if not self.id_taken(candidate, reserved):
                return candidate
            n += 1

    def write_entry(self, entry: Entry) -> None:
        """Create or replace an entry file (``entry.path`` must be set)."""
        assert entry.path is not None
        check_place("id", entry.id)
        self.fresh(entry.category)
        self.txn.write(entry.path, entry.to_bytes())
        self.cat.put(entry)
        self.touched.add(entry.category)

    def remove_entry(self, entry: Entry, to: Path | None = None) -> None:
        """Take an entry out of the store: moved to ``to`` (e.g. into .trash/) or deleted."""
        assert entry.path is not None
        self.fresh(entry.category)
        if to is None:
            self.txn.delete(entry.path)
        else:
            self.txn.move(entry.path, to)
        self.cat.drop(entry.id)
        self.touched.add(entry.category)

    def touch_category(self, category: str) -> None:
        """Make sure this category's index chain is rewritten (e.g. a new empty folder)."""
        check_place("category", category)
        self.fresh(category)
        self.touched.add(category)

    def finish(self) -> None:
        writer = IndexWriter(self.store.root, self.cat)
        if len(self.touched) > 8:
            writer.write_all(self.txn)
        else:
            for category in sorted(self.touched):
                writer.write_chain(self.txn, category)


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
        if recover_unlocked(self.root):  # an operation killed half-way: put back before reading
            Catalog(self.root).refresh().close()

    def init(self) -> bool:
        """Create the root with INDEX.md and config.md; True if anything was created."""
        check_memory_root(self.root)
        if self.exists():
            return False
        self.root.mkdir(parents=True, exist_ok=True)
        with transaction(self.root, "init", f"init {self.root}") as txn:
            if not (self.root / CONFIG).exists():
                txn.write(self.root / CONFIG, default_config_text())
            IndexWriter(self.root, self.catalog()).write_all(txn)
        return True

    # -- reading ---------------------------------------------------------------------
    def catalog(self, under: str | None = None) -> Catalog:
        """The entry catalog, re-checked against the disk (below ``under`` only, if given)."""
        cat = Catalog(self.root)
        if under is None or not cat.populated():
            return cat.refresh()
        return cat.refresh(under=under)

    def path_of(self, entry_id: str) -> Path:
        return entry_path(self.root, entry_id)

    def get(self, entry_id: str) -> Entry:
        entry_id = self.resolve_id(entry_id)
        return load_entry(entry_id, self.path_of(entry_id))

    def seen(self, entry_id: str) -> tuple[Entry, bytes]:
        """An entry and the exact bytes it was parsed from: what a face shows, and passes
        back as ``expected=`` with the write the user then asks for (see ``check_expected``)."""
        entry_id = self.resolve_id(entry_id)
        path = self.path_of(entry_id)
        data = read_capped(path)
        return entry_from_bytes(entry_id, path, data), data

    def resolve_id(self, raw: str) -> str:
        """The id of the entry ``raw`` names, for every command: normalised (``.md``
        suffixes, whitespace, NFC), then matched ignoring case when no file has that exact
        name. NotFound lists the nearest ids when nothing matches."""
        entry_id = normalise_id(raw)
        if os.path.lexists(self.path_of(entry_id)):  # present; reading it says what it is
            return entry_id
        ids = list(self.catalog().entries)
        key = id_key(entry_id)
        same = [i for i in ids if id_key(i) == key]
        if len(same) == 1:
            return same[0]
        raise NotFound(f"no entry '{entry_id}' in {self.root}{_nearest(entry_id, same or ids)}")

    def entry_paths(self) -> Iterator[tuple[str, Path]]:
        """(id, path) of every live entry file (active, expired, archived; not trash)."""
        for entry_id, path, _ in walk_entry_files(self.root):
            yield entry_id, path

    def list(self, category: str | None = None, status: str | None = None) -> list[Summary]:
        """Entries of a category and its subcategories (all with no category), sorted by id."""
        self.require()
        if category:
            if not category_path(self.root, category).is_dir():
                raise NotFound(f"no category '{category}' in {self.root}")
            rows = self.catalog(under=category).in_category(category, recursive=True)
        else:
            rows = self.catalog().in_category("", recursive=True)
        if status:
            rows = [r for r in rows if r.status == status]
        return sorted(rows, key=lambda r: r.id)

    def categories(self) -> builtins.list[str]:
        """Every category folder (nested ones as ``a/b``), sorted."""
        out = []
        for dirpath, dirnames, _ in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != ARCHIVED and utf8_name(d))
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
        tags: builtins.list[str] | None = None,
        importance: float | None = None,
        expires: date | None = None,
        related: builtins.list[str] | None = None,
    ) -> Entry:
        """Create an entry after every pre-write check; indexes follow in the same transaction."""
        self.require()
        title = clean_title(title)
        category_path(self.root, category)  # refuses an unsafe category name before any work
        meta = new_meta(
            title, clock.today(), tags=tags or [], importance=importance, expires=expires, related=related or []
        )
        draft = Entry(f"{category}/{slugify(title)}", fmio.ParsedFile(meta, with_newline(body)))
        draft.validate()
        check_content(f"{category}/{title}", draft)
        with self.edit("add", f"add to {category}: {title}") as ed:
            check_same_title(ed.fresh(category), category, title)
            check_duplicate(self.root, ed.cat, body)
            entry_id = ed.free_id(f"{category}/{slugify(title)}")
            entry = Entry(entry_id, draft.doc, self.path_of(entry_id))
            ed.write_entry(entry)
        return entry

    def update(self, entry_id: str, change: Change, *, expected: bytes | None = None) -> Entry:
        """Change fields and/or the body of an entry; ``updated`` becomes today.

        The entry is read under the write lock, so two concurrent updates apply one after
        the other instead of the second silently dropping the first. ``expected`` is the
        file as the caller saw it (a TUI form): if it changed since, Conflict, not an
        overwrite of someone else's change.
        """
        self.require()
        with self.edit("update", f"update {normalise_id(entry_id)}") as ed:
            entry = self.get(entry_id)
            check_expected(entry.path, expected)
            meta = dict(entry.meta)
            change.apply(meta)
            body = entry.body if change.body is None else with_newline(change.body)
            meta["updated"] = clock.today()
            new = Entry(entry.id, entry.doc.derive(meta, body), entry.path)
            new.validate()
            check_content(entry.id, new)
            if change.body is not None:
                check_duplicate(self.root, ed.fresh(entry.category), body, ignore=entry.id)
            ed.write_entry(new)
        return new

    def replace_raw(self, entry_id: str, data: bytes, *, expected: bytes | None = None) -> Entry:
        """Replace an entry with hand-edited bytes (``edit``), validated like any write.
        ``updated`` becomes today unless the edit set it itself.

        ``expected`` is the file as it was handed to the editor: if the file changed on disk
        meanwhile (a hook, an agent), the edit is refused instead of overwriting that change.
        """
        self.require()
        with self.edit("edit", f"edit {normalise_id(entry_id)}") as ed:
            old = self.get(entry_id)
            check_expected(old.path, expected)
            check_raw_size(f"your edit of {old.id}", len(data))
            new = Entry(old.id, fmio.parse(data, f"your edit of {old.id}"), old.path)
            if new.meta.get("updated") == old.meta.get("updated"):  # an edit is a change: dated today,
                new = Entry(old.id, new.doc.derive({**new.meta, "updated": clock.today()}, new.body), old.path)
            new.validate()
            check_content(new.id, new)
            if normalise(new.body) != normalise(old.body):
                check_duplicate(self.root, ed.fresh(old.category), new.body, ignore=old.id)
            ed.write_entry(new)
        return new

    @contextmanager
    def edit(self, kind: str, summary: str, *, record: bool = True) -> Iterator[Edit]:
        """One logged, all-or-nothing change of entries; indexes are rewritten at the end.

        ``kind`` and ``summary`` are what ``undo --list`` shows.
        """
        self.require()
        cat = Catalog(self.root)  # parts are re-checked under the lock as they are touched
        txn: Transaction | None = None
        try:
            with transaction(self.root, kind, summary, record=record) as txn:
                if txn.recovered or not cat.populated():  # recovered: what a killed operation wrote is gone
                    cat.refresh()
                ed = Edit(self, txn, cat)
                yield ed
                ed.finish()
        except BaseException:
            cat.close()
            if txn is not None and txn.touched():  # after the rollback: the catalog may list
                Catalog(self.root).refresh(under=None)  # what it undid. A refusal wrote nothing.
            raise
        finally:
            cat.close()

    # -- indexes ---------------------------------------------------------------------
    def rebuild_index(self) -> int:
        """Rewrite every INDEX.md from the files (full re-read); returns files written."""
        self.require()
        with transaction(self.root, "index-fix", "index check --fix") as txn:
            sweep_temp_files(self.root)
            cat = Catalog(self.root).refresh(full=True)
            n = IndexWriter(self.root, cat).write_all(txn)
            n += write_trash_index(self.root, txn)
        return n

    def check_index(self) -> builtins.list[dict[str, Any]]:
        """Drift between INDEX.md files and the entry files, one dict per problem."""
        self.require()
        cat = self.catalog()
        problems = IndexWriter(self.root, cat).check()
        problems += [{"kind": "unreadable_file", "file": rel, "message": why} for rel, why in cat.skipped]
        problems += [
            {
                "kind": "temp_file",
                "file": tmp.relative_to(self.root).as_posix(),
                "message": "left by an interrupted write; `index check --fix` removes it",
            }
            for tmp in find_temp_files(self.root)
        ]
        return problems + check_trash_index(self.root)


def check_expected(path: Path | None, expected: bytes | None, what: str = "") -> None:
    """Conflict when ``path`` no longer holds the ``expected`` bytes; nothing when ``expected``
    is None (the CLI, which acts on what is on disk now).

    The one rule behind every ``expected=`` of the engine: a face (the TUI) passes the bytes
    of the file as the user saw them when they decided, and the write checks them under
    the root's write lock, in the same transaction as the write, so a change that an agent,
    a hook or the CLI made meanwhile is refused instead of overwritten, moved or trashed
    unseen. ``what`` says what the user was doing (default: editing it).
    """
    if expected is None:
        return
    assert path is not None
    try:
        now = read_capped(path)
    except FileNotFoundError:
        raise Conflict(f"{path}: gone since you saw it; nothing written", path=str(path)) from None
    if now != expected:
        raise Conflict(
            f"{path}: changed on disk while you were {what or 'editing it'}; nothing written", path=str(path)
        )


def _nearest(entry_id: str, ids: list[str]) -> str:
    """ "; did you mean: …" with up to three close ids, or "" when none is close."""
    if not ids:
        return ""
    from rapidfuzz import fuzz, process

    found = process.extract(entry_id, ids, scorer=fuzz.WRatio, limit=3, score_cutoff=60)
    return f"; did you mean: {', '.join(f[0] for f in found)}?" if found else ""


def clean_title(title: str) -> str:
    title = " ".join(str(title).split())
    if not title:
        raise InvalidInput("title is empty")
    if len(title) > 200:
        raise InvalidInput(f"title is {len(title)} characters long; 200 at most")
    check_title_chars(title)
    return title


def with_newline(body: str) -> str:
    """Bodies end with a newline, as editors and `cat` expect."""
    return body if body.endswith("\n") or not body else body + "\n"


def check_content(where: str, entry: Entry) -> None:
    """Size and secrets: the body and every frontmatter value (known keys or not)."""
    size = len(entry.body.encode("utf-8"))
    if size > MAX_BODY_BYTES:
        raise Refused(
            f"{where}: body is {size / 1e6:.1f} MB; entries hold notes, 1 MB at most "
            "(store the path to a large file instead)",
            code="too_large",
        )
    check_place("id", entry.id)
    refuse_secrets(where, fmio.export_meta(entry.meta) if entry.meta else "", entry.body)


def check_place(what: str, place: str) -> None:
    """A category or id becomes a folder, a file name and an INDEX.md row: a credential
    there is stored as surely as one in a title, so it is refused the same way. The one
    check for every path taken from input (add, import, split and merge targets, relocate).
    Names that would not show as they are, or not be files everywhere, are refused first
    (and named by their code point: the name itself may be what is wrong)."""
    refuse_secrets(f"{what} {place}", place)
    check_portable_name(what, place)
