"""Badges on Index entries: an open conflict (two contradicting versions, unconfirmed).

Finding conflicts reads every entry's frontmatter, too slow for the Index's first frame at
100k entries, so the app computes them in a worker after start-up and after each refresh,
stores the ids here, and re-labels the entry nodes already drawn; ``badge_for`` gives the
badge to nodes drawn later (the Index pane calls it when it labels an entry).
"""

from __future__ import annotations

import threading
from typing import Any

from rich.text import Text

_lock = threading.Lock()
_found: dict[str, list[dict[str, Any]]] = {}  # memory root → the last conflicts() answer


def conflicts_for(store) -> list[dict[str, Any]]:
    """``versions.conflicts`` once per change (worker thread): the badges and the Overview
    share it, so a 100k-entry store is read once, not twice."""
    key = str(store.root)
    with _lock:
        if key not in _found:
            from memsearch_tui.engine.curator import versions

            _found[key] = versions.conflicts(store) if store.exists() else []
        return _found[key]


def invalidate() -> None:
    """Files changed: the next ``conflicts_for`` reads them again."""
    with _lock:
        _found.clear()


BADGE = "⚠ "  # before the title: a narrow tree cuts the end of a label
_conflicts: set[str] = set()
_style = "bold"


def set_conflicts(ids: set[str], style: str = "bold") -> bool:
    """Replace the known conflict ids (``style``: the theme's warning colour); True when changed."""
    global _conflicts, _style
    _style = style
    if ids == _conflicts:
        return False
    _conflicts = set(ids)
    return True


def badge_for(entry_id: str) -> Text | None:
    """``⚠`` (to put before the title) for an entry with an open conflict, else None."""
    if entry_id in _conflicts:
        return Text(BADGE, style=_style)
    return None


def relabel(tree) -> int:
    """Add or drop the badge on every entry node of the Index tree; how many carry one."""
    marked = 0
    stack = list(tree.root.children) + [tree.root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        data = node.data
        if data is None or getattr(data, "kind", "") != "entry":
            continue
        label = node.label.copy() if isinstance(node.label, Text) else Text(str(node.label))
        has = label.plain.startswith(BADGE)
        badge = badge_for(data.key)
        if badge is not None and not has:
            node.set_label(Text.assemble(badge, label))
        elif badge is None and has:
            node.set_label(label[len(BADGE) :])
        marked += badge is not None
    return marked
