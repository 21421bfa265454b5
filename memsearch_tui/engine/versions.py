"""Conflict detection and version history (owned by the curator issue).

``add_entry`` and ``update_entry`` are what the CLI and TUI call for add/update; the curator
work turns a same-topic add or a contradicting update into a new kept version.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from .store import Change, Store


def add_entry(store: Store, category: str, title: str, body: str, *, tags: list[str] | None = None,
              importance: float | None = None, expires: date | None = None,
              related: list[str] | None = None) -> dict[str, Any]:
    """Add an entry; returns {"entry": summary, "conflict": None | {...}}."""
    entry = store.add(category, title, body, tags=tags, importance=importance, expires=expires, related=related)
    return {"entry": entry.summary(), "conflict": None}


def update_entry(store: Store, entry_id: str, change: Change) -> dict[str, Any]:
    """Update an entry; returns {"entry": summary, "conflict": None | {...}}."""
    entry = store.update(entry_id, change)
    return {"entry": entry.summary(), "conflict": None}
