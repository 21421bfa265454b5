"""A ``Tree`` whose rows fit its width, cut at a word boundary with "…".

Textual's ``Tree`` crops a label that is wider than the tree at the edge, mid-word
("09:05 Alpha dashboar") and scrolls sideways for the rest; at 80 columns most journal
turn titles were cut so. Each row is cut with ``text.clip`` to the cells left after its
guides, so the tree never needs a horizontal scrollbar.
"""

from __future__ import annotations

from typing import TypeVar

from rich.style import Style
from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from memsearch_tui.tui.text import clip

T = TypeVar("T")


def label_room(tree: Tree[T], node: TreeNode[T]) -> int:
    """Cells a node's label has in ``tree``: its width less the node's guides."""
    depth, up = 0, node.parent
    while up is not None:
        depth, up = depth + 1, up.parent
    guides = depth if tree.show_root else max(depth - 1, 0)
    return tree.scrollable_content_region.width - guides * tree.guide_depth


class FittedTree(Tree[T]):
    """``Tree`` with each label cut to the room its row has (see the module)."""

    def render_label(self, node: TreeNode[T], base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        room = label_room(self, node)
        return clip(text, room) if room > 0 else text
