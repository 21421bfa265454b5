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
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from textual.app import App
from textual.css.model import RuleSet
from textual.css.stylesheet import CssSource, Stylesheet
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import OptionList

ResultT = TypeVar("ResultT")

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
