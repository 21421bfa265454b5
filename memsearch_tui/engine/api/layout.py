"""``mem.layout``: the store's shape — split a large category, merge it back, import, check the indexes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.api.types import ImportResult, ImportSkip

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory

Record = dict[str, Any]
Progress = Callable[[int, int], None]


class Layout:
    """Categories, imports and INDEX.md files of one store, as ``mem.layout``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def split_plan(self, category: str, by: str | None = None) -> Record:
        """Subcategories proposed for ``category`` (by status, year, month or tag); changes nothing."""
        from memsearch_tui.engine.curator import split

        self.mem.store.require()
        return split.plan(self.mem.store, category, by)

    def split(self, category: str, by: str | None = None, *, progress: Progress | None = None) -> Record:
        """Move ``category``'s entries into the planned subcategories (links and related ids follow)."""
        from memsearch_tui.engine.curator import split

        self.mem.require_writable("split")
        self.mem.store.require()
        with self.mem.acting():
            return split.apply(self.mem.store, category, by, progress=progress)

    def merge(self, category: str) -> Record:
        """Undo a split: every entry of ``category``'s subcategories back into it."""
        from memsearch_tui.engine.curator import split

        self.mem.require_writable("merge")
        self.mem.store.require()
        with self.mem.acting():
            return split.merge(self.mem.store, category)

    def import_path(self, path: Path, category: str, *, progress: Progress | None = None) -> ImportResult:
        """Import an agent's own memory (MEMORY.md, CLAUDE.md, a folder of .md), one way."""
        from memsearch_tui.engine.curator import importer

        self.mem.require_writable("import")
        self.mem.store.require()
        with self.mem.acting():
            r = importer.import_path(self.mem.store, path, category, progress=progress)
        skipped = tuple(ImportSkip(**s) for s in r["skipped"])
        return ImportResult(r["source"], r["category"], tuple(r["imported"]), skipped)

    def check_index(self, *, fix: bool = False) -> Record:
        """Drift between INDEX.md files and entry files (``fix``: rewrite them from the files).

        ``problems``: found; ``remaining``: left after a fix (hand fixes); each has a ``fix`` hint."""
        from memsearch_tui.engine.store.index_problems import fix_hint, repairable

        store = self.mem.store
        problems = store.check_index()
        repairs = fix and any(map(repairable, problems))  # nothing to rewrite for hand-fix problems only
        written = store.rebuild_index() if repairs else 0
        remaining = store.check_index() if fix else problems
        for p in problems + remaining:
            p["fix"] = fix_hint(p, store.root)
            p["repairable"] = repairable(p)
        return {"problems": problems, "fixed": repairs, "files_written": written, "remaining": remaining}

    def index_summary(self, problems: list[Record]) -> str:
        """One line on what is wrong with the indexes."""
        from memsearch_tui.engine.store.index_problems import summary

        return summary(problems)
