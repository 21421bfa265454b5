"""``mem.layout``: the store's shape — split a large category, merge it back, import, check the indexes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from memsearch_tui.engine.api.types import Progress
from memsearch_tui.engine.core.record import record

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory


@record
class ImportSkip:
    """An item ``import`` left out, and why."""

    title: str
    source: str
    reason: str


@record
class ImportResult:
    """``import``: the entries made from ``source`` into ``category`` and the items skipped."""

    source: str
    category: str
    imported: tuple[str, ...]
    skipped: tuple[ImportSkip, ...]


@record
class SplitPlan:
    """``split plan``: ``category``'s ``entries`` grouped ``by`` status, year, month or tag:
    entries per subcategory (``groups``) and each entry's new id (``moves``)."""

    category: str
    by: str
    entries: int
    threshold: int
    over_threshold: bool
    groups: dict[str, int]
    moves: dict[str, str]


@record
class SplitDone:
    """``split apply``: ``moved`` entries of ``category`` (old id → new id), by ``by``."""

    category: str
    moved: int
    moves: dict[str, str]
    by: str
    groups: dict[str, int]


@record
class MergeDone:
    """``merge``: ``moved`` entries of ``category``'s subcategories back into it (old → new id)."""

    category: str
    moved: int
    moves: dict[str, str]


@record
class IndexProblem:
    """One drift between the INDEX.md files and the entry files, with its ``fix``
    (``repairable``: ``index check --fix`` makes it go away)."""

    kind: str
    file: str
    message: str
    fix: str
    repairable: bool


@record
class IndexCheck:
    """``index check``: the ``problems`` found; with ``--fix`` (``fixed``: something was
    rewritten) the ``files_written`` and the problems ``remaining`` (hand fixes)."""

    problems: tuple[IndexProblem, ...]
    fixed: bool
    files_written: int
    remaining: tuple[IndexProblem, ...]


class Layout:
    """Categories, imports and INDEX.md files of one store, as ``mem.layout``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def split_plan(self, category: str, by: str | None = None) -> SplitPlan:
        """Subcategories proposed for ``category`` (by status, year, month or tag); changes nothing."""
        from memsearch_tui.engine.curator import split

        self.mem.store.require()
        return SplitPlan(**split.plan(self.mem.store, category, by))

    def split(self, category: str, by: str | None = None, *, progress: Progress | None = None) -> SplitDone:
        """Move ``category``'s entries into the planned subcategories (links and related ids follow)."""
        from memsearch_tui.engine.curator import split

        self.mem.require_writable("split")
        self.mem.store.require()
        with self.mem.acting():
            return SplitDone(**split.apply(self.mem.store, category, by, progress=progress))

    def merge(self, category: str) -> MergeDone:
        """Undo a split: every entry of ``category``'s subcategories back into it."""
        from memsearch_tui.engine.curator import split

        self.mem.require_writable("merge")
        self.mem.store.require()
        with self.mem.acting():
            return MergeDone(**split.merge(self.mem.store, category))

    def import_path(self, path: Path, category: str, *, progress: Progress | None = None) -> ImportResult:
        """Import an agent's own memory (MEMORY.md, CLAUDE.md, a folder of .md), one way."""
        from memsearch_tui.engine.curator import importer

        self.mem.require_writable("import")
        self.mem.store.require()
        with self.mem.acting():
            r = importer.import_path(self.mem.store, path, category, progress=progress)
        skipped = tuple(ImportSkip(**s) for s in r["skipped"])
        return ImportResult(r["source"], r["category"], tuple(r["imported"]), skipped)

    def check_index(self, *, fix: bool = False) -> IndexCheck:
        """Drift between INDEX.md files and entry files (``fix``: rewrite them from the files).

        ``problems``: found; ``remaining``: left after a fix (hand fixes); each has a ``fix`` hint."""
        from memsearch_tui.engine.store.index_problems import fix_hint, repairable

        store = self.mem.store
        problems = store.check_index()
        repairs = fix and any(map(repairable, problems))  # nothing to rewrite for hand-fix problems only
        written = store.rebuild_index() if repairs else 0
        remaining = store.check_index() if fix else problems

        def found(ps: list[dict[str, str]]) -> tuple[IndexProblem, ...]:
            return tuple(IndexProblem(**p, fix=fix_hint(p, store.root), repairable=repairable(p)) for p in ps)

        return IndexCheck(found(problems), repairs, written, found(remaining))

    def index_summary(self, problems: Sequence[IndexProblem]) -> str:
        """One line on what is wrong with the indexes."""
        from memsearch_tui.engine.store.index_problems import summary

        return summary([asdict(p) for p in problems])
