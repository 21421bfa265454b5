"""Live refresh: watch both memories and tell the app which files changed, once per burst.

watchfiles already batches events (``debounce``); we also drop the engine's own cache and
log folders, which change on every read of a big store and would make the app refresh
itself in a loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from memsearch_tui.engine.api.files import STATE_DIR

if TYPE_CHECKING:
    from memsearch_tui.tui.app import MemsearchApp

IGNORED_PARTS = {".git", "__pycache__", ".lock"}
# files under STATE_DIR (engine caches and logs) are ignored, except store proposals
DEBOUNCE_MS = 400


class FilesChanged(Message):
    """Files under a watched folder changed (one message per debounced burst)."""

    def __init__(self, paths: set[Path]) -> None:
        super().__init__()
        self.paths = paths


def relevant(path: str) -> bool:
    parts = Path(path).parts
    if any(p in IGNORED_PARTS for p in parts):
        return False
    if STATE_DIR in parts and "proposals" not in parts:
        return False
    name = parts[-1] if parts else ""
    return not (name.endswith((".tmp", "~", ".swp")) or name.startswith(".#") or ".tmp" in name)


async def watch(app: MemsearchApp, folders: list[Path]) -> None:
    """Run forever (as an async worker), posting ``FilesChanged`` to ``app``."""
    from watchfiles import awatch

    existing = [str(f) for f in folders if f.exists()]
    if not existing:
        return
    async for changes in awatch(*existing, debounce=DEBOUNCE_MS, step=50, recursive=True, stop_event=app.watch_stop):
        paths = {Path(p) for _, p in changes if relevant(p)}
        if paths:
            app.post_message(FilesChanged(paths))
