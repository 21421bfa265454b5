"""The engine's file rules a face needs for its own files: the one atomic write (the app's
chosen theme) and the folder name of the engine's own state (the app's file watcher
ignores it: caches and logs change on every read of a big store)."""

from __future__ import annotations

from memsearch_tui.engine.core.atomic import atomic_write_text
from memsearch_tui.engine.core.state_files import STATE_DIR

__all__ = ["STATE_DIR", "atomic_write_text"]
