"""Badges on Index entries: an open conflict (two contradicting versions, unconfirmed).

Finding conflicts reads every entry's frontmatter, too slow for the Index's first frame at
100k entries, so the app computes them in a worker after start-up and after each refresh,
keeps the ids in its ``Badges`` (one per app: two apps in one process never share them),
and re-labels the entry nodes already drawn; ``badge_for`` gives the badge to nodes drawn
later (the Index tree calls it when it labels an entry).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from rich.text import Text

if TYPE_CHECKING:
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.api.types import OpenConflict

BADGE = "⚠ "  # before the title: a narrow tree cuts the end of a label


class Badges:
    """The conflicts the app last read, and the badge style of the current theme."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._found: list[OpenConflict] | None = None  # the last conflicts() answer
        self._conflicts: set[str] = set()
        self.style = "bold"

    def conflicts_for(self, mem: Memory) -> list[OpenConflict]:
        """``mem.versions.conflicts()`` once per change (worker thread): the badges and the
        Overview share it, so a 100k-entry store is read once, not twice."""
        with self._lock:
            if self._found is None:
                self._found = list(mem.versions.conflicts()) if mem.entries.exists() else []
            return self._found

    def invalidate(self) -> None:
        """Files changed: the next ``conflicts_for`` reads them again."""
        with self._lock:
            self._found = None

    def set_conflicts(self, ids: set[str], style: str = "bold") -> bool:
        """Replace the known conflict ids (``style``: the theme's warning colour); True when changed."""
        changed = ids != self._conflicts or style != self.style
        self._conflicts, self.style = set(ids), style
        return changed

    @property
    def conflicted(self) -> frozenset[str]:
        """The entry ids that carry the badge now."""
        return frozenset(self._conflicts)

    def badge_for(self, entry_id: str) -> Text | None:
        """``⚠`` (to put before the title) for an entry with an open conflict, else None."""
        return Text(BADGE, style=self.style) if entry_id in self._conflicts else None

    def relabel(self, tree: Any) -> int:
        """Add, drop or restyle the badge on every entry node of the Index tree; how many carry one."""
        marked = 0
        stack = list(tree.root.children) + [tree.root]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            data = node.data
            if data is None or getattr(data, "kind", "") != "entry":
                continue
            label = node.label.copy() if isinstance(node.label, Text) else Text(str(node.label))
            bare = label[len(BADGE) :] if label.plain.startswith(BADGE) else label
            badge = self.badge_for(data.key)
            new = Text.assemble(badge, bare) if badge is not None else bare
            if new.markup != label.markup:
                node.set_label(new)
            marked += badge is not None
        return marked
