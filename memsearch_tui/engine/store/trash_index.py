"""The trash's listing and its derived ``.trash/INDEX.md``.

Everything about a trashed entry can be derived from its path under ``.trash/`` and its
frontmatter, so the index is rendered from the files: a crash between a rename and the
index write leaves nothing that ``rebuild_trash_index`` cannot repair. It sits in the
store layer because ``index check`` (a store operation) verifies it; trashing, restoring
and purging are the curator's (``engine/curator/trash.py``).
"""

from __future__ import annotations

import os
import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import InvalidInput, MemsearchError
from memsearch_tui.engine.core.paths import INDEX, TRASH, utf8_name
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.safe_io import open_regular, read_capped, unusable_reason
from memsearch_tui.engine.history.txn import Transaction, transaction
from memsearch_tui.engine.store.config import load_store_config
from memsearch_tui.engine.store.entry import as_date
from memsearch_tui.engine.store.index_md import cell

_SUFFIX = re.compile(r"~\d+$")


@record
class TrashItem:
    """One trashed entry, as ``trash list`` and the TUI's Trash pane show it."""

    key: str  # path under .trash/ without .md: 2026-11-30/projects/alpha
    original_id: str
    title: str
    trashed: str
    reason: str
    purge_after: str
    days_left: int
    path: str


def trash_root(root: Path) -> Path:
    return Path(root) / TRASH


def trash_files(root: Path, problems: list[tuple[str, str]] | None = None) -> list[Path]:
    """Trashed entry files: regular ``*.md`` files with UTF-8 names (anything else is
    listed in ``problems`` for ``index check``, never opened)."""
    base = trash_root(root)
    out = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and not d.endswith(".versions")]
        for name in filenames:
            if name.endswith(".md") and not name.startswith(".") and not (dirpath == str(base) and name == INDEX):
                path = Path(dirpath, name)
                rel = f"{TRASH}/" + os.fsencode(path.relative_to(base)).decode("utf-8", "backslashreplace")
                reason = None if utf8_name(name) and utf8_name(dirpath) else "name is not valid UTF-8; not read"
                reason = reason or unusable_reason(path)
                if reason is None:
                    out.append(path)
                elif problems is not None:
                    problems.append((rel, reason))
    return out


def _item(root: Path, path: Path, retention: int, today: date) -> TrashItem:
    key = path.relative_to(trash_root(root)).as_posix()[:-3]
    day, _, rest = key.partition("/")
    meta: dict[str, Any] = {}
    try:
        meta = fmio.parse(read_capped(path), str(path)).meta
    except (MemsearchError, OSError):
        pass
    try:
        trashed = as_date(meta.get("trashed"), "trashed", str(path)) or date.fromisoformat(day)
    except (InvalidInput, ValueError):
        try:
            trashed = date.fromtimestamp(path.stat().st_mtime)
        except OSError:
            trashed = today
    original = str(meta.get("trashed_from") or _SUFFIX.sub("", rest or key))
    purge = trashed + timedelta(days=retention)
    return TrashItem(
        key=key,
        original_id=original,
        title=str(meta.get("title") or original.rsplit("/", 1)[-1]),
        trashed=trashed.isoformat(),
        reason=str(meta.get("trash_reason") or ""),
        purge_after=purge.isoformat(),
        days_left=(purge - today).days,
        path=str(path),
    )


def list_trash(root: Path) -> list[TrashItem]:
    """Every trashed entry, newest first, with the days left until it may be purged."""
    retention = load_store_config(root).trash_retention_days
    today = clock.today()
    items = [_item(Path(root), p, retention, today) for p in trash_files(root)]
    return sorted(items, key=lambda i: (i.trashed, i.key), reverse=True)


def read_text_regular(path: Path) -> str:
    """UTF-8 text of a regular file (OSError for a FIFO or device; ValueError if not UTF-8)."""
    with open_regular(path) as fh:
        return fh.read().decode("utf-8")


def render_trash_index(items: list[TrashItem]) -> str:
    lines = [
        "# Trash",
        "",
        "Forgotten entries. `memsearch-tui trash restore ID` brings one back; they are purged "
        "after the date shown (`memsearch-tui trash purge`).",
        "",
        "| Title | Original id | Trashed | Reason | Purge after | File |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for i in items:
        lines.append(
            f"| {cell(i.title)} | {cell(i.original_id)} | {i.trashed} | {cell(i.reason) or '—'} "
            f"| {i.purge_after} | [{cell(i.key)}.md]({i.key}.md) |"
        )
    if not items:
        lines.append("| _empty_ | | | | | |")
    return "\n".join(lines) + "\n"


def write_trash_index(root: Path, txn: Transaction) -> bool:
    """Render ``.trash/INDEX.md`` from the trash files; written only when it differs."""
    path = trash_root(root) / INDEX
    items = list_trash(root)
    if not items and not path.exists():
        return False
    text = render_trash_index(items)
    try:
        if read_text_regular(path) == text:
            return False
    except (OSError, ValueError):  # unreadable or not UTF-8: rewritten from the files
        pass
    txn.write(path, text)
    return True


def rebuild_trash_index(root: Path) -> bool:
    """The repair ``index check --fix`` needs for the trash (unlogged, like any index fix)."""
    with transaction(Path(root), "index-fix", "trash index", record=False) as txn:
        return write_trash_index(Path(root), txn)


def check_trash_index(root: Path) -> list[dict[str, Any]]:
    """Drift of ``.trash/INDEX.md`` from the trash files, in ``index check``'s format, and
    every trash file that cannot be used."""
    path = trash_root(root) / INDEX
    skipped: list[tuple[str, str]] = []
    trash_files(root, skipped)
    unusable = [{"kind": "unreadable_file", "file": rel, "message": why} for rel, why in skipped]
    items = list_trash(root)
    if not items and not path.exists():
        return unusable
    try:
        ok = read_text_regular(path) == render_trash_index(items)
    except (OSError, ValueError):  # ValueError: not valid UTF-8
        ok = False
    if ok:
        return unusable
    return [
        *unusable,
        {"kind": "trash_index", "file": f"{TRASH}/{INDEX}", "message": "does not match the trashed files"},
    ]
