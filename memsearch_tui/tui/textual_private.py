"""The one door to Textual's private API: every private Textual name memsearch_tui uses is here.

Textual is pinned (pyproject.toml). Five uses (each a name or a few names of one Textual
mechanism) have no public equivalent in it, and each serves exactly one thing below; ``tests/tui/test_textual_private.py`` checks each
against the installed Textual (exists, same signature, behaves as relied on) and checks
that no other module of memsearch_tui names a private Textual attribute. An upgrade that
renames one then fails there, by name, rather than as a slower key or a puzzling frame.

* ``Stylesheet._parse_cache`` (``parsed_sources``, ``seed_parsed``): where ``Stylesheet.parse``
  looks for a source's rules before parsing it. The theme switch (``theme_switch``) reads it
  to keep what Textual parsed, and fills it so the public ``parse`` parses nothing it knows.
* the screen's layout (``LaidOutOncePerSize``): ``Screen._screen_resized``, the only hook
  between a ``Resize`` and the screen's layout (every path that lays a screen out again for a
  new size goes through it); ``Screen._refresh_layout``, ``_layout_required`` (a widget's and
  the screen's), ``Screen._layout_widgets`` and ``textual._time.get_time`` (a message's clock):
  what makes Textual lay a screen out a second time for its first frame, and what stops it.
* ``ScrollView._size_updated`` (``OwnVirtualSize``): where a layout hands a scroll view the
  virtual size the compositor computed.
* ``Screen._css_update_count`` / ``App._css_update_count`` (``mark_styles_current``): how
  Textual knows a screen took the app's current styles; ``refresh_css`` sets it as Textual's
  own does, or a screen shown again would apply the whole stylesheet once more.
* the ``Tree``'s line list: ``Tree._add_node``, ``TreeNode._children`` / ``_updates``,
  ``Tree._invalidate`` (``add_rows``): how ``TreeNode.add`` makes a node and tells the tree;
  ``add_rows`` does it for many rows with one rebuild of the line list instead of one per row;
  ``Tree._line_cache``, ``Tree._on_resize``, ``Tree._tree_lines`` and ``_TreeLine._get_guide_width``
  (``LinesKept``): the rows a style change or a resize throws away, the handler that throws them
  away at a resize with the line list, and what the tree's virtual width is measured from.
  For the Journal's 10,000 days and the Index's first frame (issue 37).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from rich.text import Text
from textual import events, messages
from textual._time import get_time
from textual.app import App
from textual.css.model import RuleSet
from textual.css.stylesheet import CssSource, Stylesheet
from textual.geometry import Region, Size
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import OptionList, Tree
from textual.widgets.tree import TreeNode

ResultT = TypeVar("ResultT")
T = TypeVar("T")

#: Textual's key for a parsed source: ``(css, read_from, is_defaults, tie_breaker, scope)``
ParseKey = tuple[Any, ...]


def parse_key(read_from: Any, source: CssSource) -> ParseKey:
    """The key ``Stylesheet._parse_rules`` caches ``source`` (read from ``read_from``) under."""
    css, is_defaults, tie_breaker, scope = source
    return (css, read_from, is_defaults, tie_breaker, scope)


def parsed_sources(sheet: Stylesheet) -> Iterator[tuple[ParseKey, list[RuleSet]]]:
    """The sources ``sheet`` has parsed with its current variables, and their rules."""
    cache = sheet._parse_cache
    for key in list(cache.keys()):
        rules = cache.get(key)
        if rules is not None:
            yield key, rules


def seed_parsed(sheet: Stylesheet, known: dict[ParseKey, list[RuleSet]]) -> None:
    """Give ``sheet`` rules parsed before with its current variables: its next ``parse``
    takes them instead of parsing those sources again (the cache grows to hold them all)."""
    cache = sheet._parse_cache
    cache.grow(len(sheet.source) + len(known))
    for key, rules in known.items():
        cache.set(key, rules)


def mark_styles_current(app: App[Any], screen: Screen[Any]) -> None:
    """Tell Textual ``screen`` has the app's current styles (as ``App.refresh_css`` does)."""
    screen._css_update_count = app._css_update_count


class LaidOutOncePerSize(Screen[ResultT]):
    """A screen not laid out again at the size it is laid out at already (see
    ``screens/modal.OneLayoutPerSize``). ``outer_size`` is the size of its last layout.

    Nor laid out twice for its first frame. Its first layout (at its first show) hands each
    widget its virtual size, a reactive that asks for a layout (29 widgets on the main
    screen), and the ``Layout`` messages its widgets posted while mounting are handled after
    it: Textual then laid the whole screen out again, to the same boxes (~14 ms and a full
    render at 100k entries under load, issue 37 item 5). The first layout arranges every
    widget afresh, so what was asked before it or by it is answered: those asks are dropped;
    one made after it (a widget's Resize handler changing its content) is laid out as before."""

    _first_laid_out: float | None = None  # when its first full layout ended (Textual's clock)

    def _screen_resized(self, size: Size) -> None:
        if self.outer_size == size:  # laid out at this size: the Resize of a first show
            return
        super()._screen_resized(size)

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        super()._refresh_layout(size, scroll)
        if self._first_laid_out is None and not scroll and self.outer_size:
            self._first_laid_out = get_time()
            for widget in self.walk_children(Widget, with_self=False):
                widget._layout_required = False  # asked by the virtual sizes this layout set
            self._layout_required = False
            self._layout_widgets.clear()

    def on_layout(self, message: messages.Layout) -> None:
        """A widget's ask for a layout, posted before the first one ended: answered by it
        (``prevent_default``: Textual's handler, which lays the screen out again, not run)."""
        if self._first_laid_out is not None and message.time <= self._first_laid_out:
            message.prevent_default()
            message.stop()


class OwnVirtualSize(OptionList):
    """An ``OptionList`` whose scroll view is given the list's own virtual size at a layout
    (see ``widgets/lists.SteadyList``)."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        # ScrollView uses the list's own virtual size whatever it is given; given the view's,
        # it saw a change at every layout. A change of the list's length updates the
        # scrollbar where the options change (OptionList._update_lines).
        return super()._size_updated(size, self.virtual_size, container_size, layout)


def add_rows(parent: TreeNode[T], rows: list[tuple[Text, T]], *, redraw: bool) -> list[TreeNode[T]]:
    """Expandable, collapsed rows added under ``parent`` as ``TreeNode.add`` adds one, without
    the rebuild of the tree's line list and the layout ``add`` asks for after every row
    (~110 µs a row under load: 1.1 s for 10,000 journal days); ``redraw``: ask for them once
    now. Each label must be one line (``Tree.process_label`` keeps a label's first line)."""
    tree = parent.tree
    made: list[TreeNode[T]] = []
    for label, data in rows:
        node = tree._add_node(parent, label, data)
        node.allow_expand = True
        made.append(node)
    parent._children.extend(made)
    parent._updates += 1
    if redraw:
        tree._invalidate()
    return made


class LinesKept(Tree[T]):
    """A ``Tree`` that keeps its line list (which node is on which row) and the rows it drew
    through a style change (a focus, a theme) and through a resize. ``Tree`` rebuilt the list
    from every node at each, forgot every row and laid itself out again: showing a tab again
    did it twice (focus styles; 10,000 journal days under load), and the Index tree drew its
    rows twice before the first frame settled (its first Resize comes after its first draw;
    ~31 ms at 100k entries, issue 37 item 5).

    What a resize does change is kept right: a row is drawn again when the room its label has
    (the width less the scrollbar) is not the room it was drawn at, and the tree's virtual
    width (its widest row: a label may be cut to its room) is measured again from the kept
    list; a new width lays the tree out again (its scrollbars), the same one does not."""

    _rows_room = -1  # the room the rows in ``_line_cache`` were drawn at
    _measured: tuple[object, int] = ((), -1)  # the line list last measured, and at which room

    def render_lines(self, crop: Region) -> list[Strip]:
        room = self.scrollable_content_region.width
        if room != self._rows_room:
            self._rows_room = room
            self._line_cache.clear()
        return super().render_lines(crop)

    def _on_resize(self, event: events.Resize) -> None:
        event.prevent_default()  # Tree's own: rebuild the line list, forget every row, lay out
        self._line_cache.grow(event.size.height)
        lines, room = self._tree_lines, self.scrollable_content_region.width
        if self._measured[0] is lines and self._measured[1] == room:
            return
        self._measured = (lines, room)
        if lines:
            depth, show_root, label_width = self.guide_depth, self.show_root, self.get_label_width
            width = max(label_width(line.node) + line._get_guide_width(depth, show_root) for line in lines)
        else:
            width = self.size.width
        self.virtual_size = Size(width, len(lines))  # a reactive: lays out only if it changed

    def notify_style_update(self) -> None:
        Widget.notify_style_update(self)  # Tree's own would rebuild the line list
        self._line_cache.clear()
        self.refresh()
