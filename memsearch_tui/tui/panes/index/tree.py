"""The Index pane's tree: root INDEX → categories → entries, built lazily.

Big stores stay fast because nothing is drawn or built before it is needed: the tree shows
top-level categories first, a category's children are created when it is expanded, and
its entries arrive in batches of ``BATCH`` with a "load more" row (toolong's rule: draw
only what is visible).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text
from textual.widgets.tree import TreeNode

from memsearch_tui.engine.api.types import EntrySummary
from memsearch_tui.tui.palette import PALETTE, status_style
from memsearch_tui.tui.panes.base import plural
from memsearch_tui.tui.panes.index.model import FILTER_LIMIT, IndexModel, NodeData
from memsearch_tui.tui.text import clip, printable
from memsearch_tui.tui.widgets.fitted_tree import OneStylePerFrame, label_room

if TYPE_CHECKING:
    from memsearch_tui.tui.app import MemsearchApp

BATCH = 200
DATE_CELL = re.compile(r"  \d{4}-\d{2}-\d{2}$")  # an entry label's last cell: its updated date


def entry_label(s: EntrySummary, badge: Text | None = None) -> Text:
    """An entry's row: title, status, updated date; ``badge`` (an open conflict) first."""
    text = Text(printable(s.title, keep_newlines=False))  # a hand-written title: masked, escaped
    if s.status != "active":
        text.append(f" [{s.status}]", style=status_style(s.status))
    if s.updated:
        text.append(f"  {s.updated}", style="dim")
    if badge is not None:  # an open conflict, before the title
        text = Text.assemble(badge, text)
    return text


def category_label(name: str, count: int, flagged: int) -> Text:
    text = Text(printable(name, keep_newlines=False), style="bold")  # a folder name from disk
    text.append(f"  {count}", style=PALETTE.accent)
    if flagged:
        text.append(f" ({flagged} not active)", style=PALETTE.warning)
    return text


class IndexTree(OneStylePerFrame[NodeData]):
    """The category tree; the model fetches a category's entries when it is expanded."""

    if TYPE_CHECKING:  # the tree only ever lives in the memsearch app (its badges)

        @property
        def app(self) -> MemsearchApp: ...  # type: ignore[override]

    def __init__(self, **kw: Any) -> None:
        super().__init__("Memory", **kw)
        self.model = IndexModel()
        self.show_root = True
        self.guide_depth = 2

    def render_label(self, node: TreeNode[NodeData], base_style: Style, style: Style) -> Text:
        """An entry row that does not fit drops its date cell first, then ends in "…"
        (Tree would cut it mid-date: "2026-11-2")."""
        text = super().render_label(node, base_style, style)
        if node.data is None or node.data.kind != "entry":
            return text
        room = label_room(self, node)
        if room > 0 and text.cell_len > room:
            if date := DATE_CELL.search(text.plain):
                text.right_crop(len(date.group()))
            if text.cell_len > room:
                text = clip(text, room)
        return text

    # -- whole-tree views ------------------------------------------------------------
    def fill(self, model: IndexModel) -> None:
        """The full view: root and top-level categories (children come on expand)."""
        self.model = model
        self.clear()
        self.root.set_label(category_label("INDEX", model.counts.get("", 0), model.flagged.get("", 0)))
        self.root.data = NodeData("root", "", filled=True)
        self._add_category_children(self.root, "")
        self.root.expand()

    def show_filter(self, text: str) -> int:
        """The filtered view: every match under its category, expanded. Returns the count."""
        hits, n = self.model.filter(text)
        self.clear()
        self.root.data = NodeData("root", "", filled=True)
        more = "+" if n >= FILTER_LIMIT else ""
        self.root.set_label(Text(f"filter “{text.strip()}”: {plural(n, 'match', 'matches')}{more}"))
        for cat in sorted(hits):
            node = self.root.add(
                category_label(cat or "(root)", len(hits[cat]), 0), NodeData("cat", cat, filled=True), expand=True
            )
            for s in hits[cat]:
                node.add_leaf(entry_label(s, self.app.badges.badge_for(s.id)), NodeData("entry", s.id))
        self.root.expand()
        first = next((c.children[0] for c in self.root.children if c.children), None)
        if first is not None:
            self.go_to(first)
        return n

    def restore(self, expanded: set[str]) -> None:
        """Expand these categories again (after a reload or a cleared filter)."""
        for key in sorted(expanded, key=lambda k: k.count("/")):
            node = self.find_cat(key)
            if node is not None:
                node.expand()
                self.populate(node)

    # -- lazy building ---------------------------------------------------------------
    def _add_category_children(self, node: TreeNode[NodeData], category: str) -> None:
        m = self.model
        for child in m.children.get(category, []):
            name = child.rsplit("/", 1)[-1]
            node.add(
                category_label(name, m.counts.get(child, 0), m.flagged.get(child, 0)),
                NodeData("cat", child),
                allow_expand=True,
            )
        if category:
            self._add_batch(node, category, 0)

    def _add_batch(self, node: TreeNode[NodeData], category: str, start: int) -> None:
        rows = self.model.rows(category)
        for s in rows[start : start + BATCH]:
            node.add_leaf(entry_label(s, self.app.badges.badge_for(s.id)), NodeData("entry", s.id))
        rest = len(rows) - (start + BATCH)
        if rest > 0:
            node.add_leaf(
                Text(f"… {rest} more (Enter loads {min(rest, BATCH)})", style=f"italic {PALETTE.accent}"),
                NodeData("more", category, offset=start + BATCH),
            )

    def populate(self, node: TreeNode[NodeData]) -> None:
        data = node.data
        if data is None or data.kind != "cat" or data.filled:
            return
        data.filled = True
        self._add_category_children(node, data.key)

    def load_more(self, node: TreeNode[NodeData]) -> TreeNode[NodeData] | None:
        data = node.data
        parent = node.parent
        if data is None or parent is None:
            return None
        node.remove()
        before = len(parent.children)
        self._add_batch(parent, data.key, data.offset)
        return parent.children[before] if len(parent.children) > before else None

    def find_cat(self, key: str, *, expand: bool = False) -> TreeNode[NodeData] | None:
        """The tree node of category ``key``, creating (and optionally expanding) its ancestors."""
        node = self.root
        if not key:
            return node
        parts = key.split("/")
        for i in range(1, len(parts) + 1):
            want = "/".join(parts[:i])
            self.populate(node)
            if expand:
                node.expand()
            found = next((c for c in node.children if c.data and c.data.kind == "cat" and c.data.key == want), None)
            if found is None:
                return None
            node = found
        return node

    def expanded_keys(self) -> set[str]:
        out: set[str] = set()
        stack = list(self.root.children)
        while stack:
            node = stack.pop()
            if node.data and node.data.kind == "cat" and node.is_expanded:
                out.add(node.data.key)
                stack.extend(node.children)
        return out

    def reveal(self, entry_id: str, category: str) -> TreeNode[NodeData] | None:
        """The node of ``entry_id``, expanding its category and loading batches as needed."""
        node = self.find_cat(category, expand=True)
        if node is None:
            return None
        self.populate(node)
        node.expand()
        while True:
            target = next(
                (c for c in node.children if c.data and c.data.kind == "entry" and c.data.key == entry_id), None
            )
            if target is not None:
                return target
            more = next((c for c in node.children if c.data and c.data.kind == "more"), None)
            if more is None:
                return None
            self.load_more(more)

    def go_to(self, node: TreeNode[NodeData]) -> None:
        _ = self.last_line  # rebuilds the tree's line map so a new node has its line number
        self.move_cursor(node)
        self.scroll_to_node(node, animate=False)
        # again once the new lines are laid out: before that the scroll is clamped to the old
        # height, and a node far down stayed below the bottom edge
        self.call_after_refresh(self.scroll_to_node, node, animate=False)
