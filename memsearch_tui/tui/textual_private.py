"""The one door to Textual's private API: every private Textual name memsearch_tui uses is here.

Textual is pinned (pyproject.toml). Four names have no public equivalent in it, and each
is used by exactly one thing below; ``tests/tui/test_textual_private.py`` checks each
against the installed Textual (exists, same signature, behaves as relied on) and checks
that no other module of memsearch_tui names a private Textual attribute. An upgrade that
renames one then fails there, by name, rather than as a slower key or a puzzling frame.

* ``Stylesheet._parse_cache`` (``parsed_sources``, ``seed_parsed``): where ``Stylesheet.parse``
  looks for a source's rules before parsing it. The theme switch (``theme_switch``) reads it
  to keep what Textual parsed, and fills it so the public ``parse`` parses nothing it knows.
* ``Screen._screen_resized`` (``LaidOutOncePerSize``): the only hook between a ``Resize`` and
  the screen's layout; every path that lays a screen out again for a new size goes through it.
* ``ScrollView._size_updated`` (``OwnVirtualSize``): where a layout hands a scroll view the
  virtual size the compositor computed.
* ``Screen._css_update_count`` / ``App._css_update_count`` (``mark_styles_current``): how
  Textual knows a screen took the app's current styles; ``refresh_css`` sets it as Textual's
  own does, or a screen shown again would apply the whole stylesheet once more.
* the ``Tree``'s line list: ``Tree._add_node``, ``TreeNode._children`` / ``_updates``,
  ``Tree._invalidate`` (``add_rows``): how ``TreeNode.add`` makes a node and tells the tree;
  ``add_rows`` does it for many rows with one rebuild of the line list instead of one per row;
  ``Tree._line_cache`` (``LinesKept``): what a style change throws away (``Tree._on_resize``,
  whose rebuild at a resize is kept, is checked too). Both for the Journal's 10,000 days (issue 37).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from rich.text import Text
from textual.app import App
from textual.css.model import RuleSet
from textual.css.stylesheet import CssSource, Stylesheet
from textual.geometry import Size
from textual.screen import Screen
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
    ``screens/modal.OneLayoutPerSize``). ``outer_size`` is the size of its last layout."""

    def _screen_resized(self, size: Size) -> None:
        if self.outer_size == size:  # laid out at this size: the Resize of a first show
            return
        super()._screen_resized(size)


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
    """A ``Tree`` that keeps its line list (which node is on which row) through a style change
    (a focus, a theme) and forgets only the rows it drew. ``Tree`` rebuilt the list from every
    node at each: showing a tab again did it twice (focus styles; 10,000 journal days under
    load). A resize still rebuilds it: Textual runs ``Tree._on_resize`` after any subclass's
    handler, and stopping it there blanked the Index tree's last row at 80×24 (session 16)."""

    def notify_style_update(self) -> None:
        Widget.notify_style_update(self)  # Tree's own would rebuild the line list
        self._line_cache.clear()
        self.refresh()
