"""Plain helpers shared by the curator tests (a module name no other test folder uses)."""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.store.store import Store


def files(root: Path) -> dict[str, bytes]:
    """Every file of a store except caches, locks and the oplog: what undo must restore."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memsearch-tui" not in p.parts and not p.name.startswith(".")
    }


def bodies(root: Path) -> list[str]:
    """Sorted bodies of every entry, live or trashed (the crash-safety invariant)."""
    from memsearch_tui.engine.core import frontmatter_io as fmio
    from memsearch_tui.engine.store.trash_index import trash_files

    store = Store(root)
    paths = [p for _, p in store.entry_paths()] + trash_files(root)
    return sorted(fmio.parse(p.read_bytes(), str(p)).body for p in paths)
