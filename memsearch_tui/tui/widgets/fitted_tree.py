"""A ``Tree`` whose rows fit its width, cut at a word boundary with "…".

Textual's ``Tree`` crops a label that is wider than the tree at the edge, mid-word
("09:05 Alpha dashboar") and scrolls sideways for the rest; at 80 columns most journal
turn titles were cut so. Each row is cut with ``text.clip`` to the cells left after its
guides, so the tree never needs a horizontal scrollbar.

``OneStylePerFrame``: Textual's ``Tree.render_line`` asks for the widget's ``rich_style``
for every line it draws, and each ask walks every ancestor up to the screen blending their
backgrounds: ~40 walks a frame for one answer. The trees here ask once per ``render_lines``
(styles cannot change within it); ~1/3 of the Index tree's first frame at 100k entries.

``FittedTree.get_label_width``: Textual's ``Tree`` measures every row's label by drawing it,
each time it rebuilds its line list (a new node, a resize, its tab shown again), to size its
sideways scroll. A fitted row never needs that scroll, so nothing is drawn to measure it: the
Journal key drew 10,000 day labels three times (1.6 s on the 1M-chunk index, issue 37).
"""

from __future__ import annotations

from typing import TypeVar

from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from memsearch_tui.tui.text import clip
from memsearch_tui.tui.textual_private import LinesKept

T = TypeVar("T")


def label_room(tree: Tree[T], node: TreeNode[T]) -> int:
    """Cells a node's label has in ``tree``: its width less the node's guides."""
    depth, up = 0, node.parent
    while up is not None:
        depth, up = depth + 1, up.parent
    guides = depth if tree.show_root else max(depth - 1, 0)
    return tree.scrollable_content_region.width - guides * tree.guide_depth


class OneStylePerFrame(LinesKept[T]):
    """``Tree`` whose ``rich_style`` is computed once per ``render_lines`` (see the module)."""

    _frame_style: Style | None = None
    _in_frame = False

    def render_lines(self, crop: Region) -> list[Strip]:
        self._in_frame, self._frame_style = True, None
        try:
            return super().render_lines(crop)
        finally:
            self._in_frame, self._frame_style = False, None

    @property
    def rich_style(self) -> Style:
        if not self._in_frame:
            return super().rich_style
        if self._frame_style is None:
            self._frame_style = super().rich_style
        return self._frame_style


class FittedTree(OneStylePerFrame[T]):
    """``Tree`` with each label cut to the room its row has (see the module)."""

    def render_label(self, node: TreeNode[T], base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        room = label_room(self, node)
        return clip(text, room) if room > 0 else text

    def get_label_width(self, node: TreeNode[T]) -> int:
        """0: every label is cut to fit its row (``render_label``), so the tree's virtual width
        is that of its guides, never wider than the tree, as when each label was drawn to be
        measured, and no row is drawn only to be measured (only the rows on screen are)."""
        return 0
