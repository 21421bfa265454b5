"""What a theme switch costs, kept small: Textual's CSS refresh without its repeated work.

Textual 8.2.8 (pinned in pyproject) answers a theme switch with ``App.refresh_css``: it
re-parses every stylesheet source with the new colour variables, applies the stylesheet to
every node of the DOM, and repaints a widget's subtree for each colour rule that changed on
it. On this app that was ~0.6 s of a ``ctrl+t`` on an idle machine. Three parts of that are
repeated work, and this module removes them (``MemsearchApp.refresh_css`` uses all three):

* ``RuleCache``: a source's parsed rules depend only on its text and, when it names a
  ``$variable``, on the theme's variables; they are kept, so switching back to a theme
  parses nothing, and sources with no variable are parsed once for every theme. The
  theme ``ctrl+t`` goes to next is parsed ahead while the app is idle (``parse_ahead``),
  and each theme's colour variables are computed once (``theme_variables``);
* ``shown_nodes``: the stylesheet is applied to the nodes of the pane on screen (and the
  chrome around it), not to the seven hidden panes; a hidden pane takes the new styles
  when it is shown (``MemsearchApp._pane_shown``), before its first frame;
* ``one_refresh_per_widget``: each widget repaints once, not once per changed rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from textual.app import App
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.theme import Theme
from textual.widgets import TabPane

from memsearch_tui.tui.textual_private import ParseKey, parse_key, parsed_sources, seed_parsed

_VARIABLES: dict[int, tuple[Theme, dict[str, str]]] = {}  # id(theme) → (theme, its variables)


def theme_variables(app: App[Any], theme: Theme) -> dict[str, str]:
    """Textual's ``App.get_css_variables`` for any theme, computed once per theme (the
    colour system takes a few ms, and a switch asked for it twice)."""
    known = _VARIABLES.get(id(theme))
    if known is not None and known[0] is theme:
        return known[1]
    variables = {**app.get_theme_variable_defaults(), **theme.to_color_system().generate(), **theme.variables}
    _VARIABLES[id(theme)] = (theme, variables)
    return variables


class RuleCache:
    """Parsed rules per stylesheet source (and per theme, for a source naming a variable).

    It reaches Textual's parse cache only through ``textual_private``; the parses it does
    itself go through a spare ``Stylesheet``'s public ``parse``."""

    def __init__(self) -> None:
        self._rules: dict[tuple[ParseKey, frozenset[Any] | None], list[RuleSet]] = {}
        self._themed: frozenset[Any] | None = None  # the app stylesheet's variables, once known

    @staticmethod
    def _key(key: ParseKey, themed: frozenset[Any]) -> tuple[ParseKey, frozenset[Any] | None]:
        return (key, themed if "$" in key[0] else None)

    def remember(self, sheet: Stylesheet, variables: dict[str, str] | None = None) -> None:
        """Keep what Textual parsed itself with ``sheet``'s variables (``variables``, else the
        ones last set through ``switch``; the theme the app started in, a widget's CSS
        added since): call it before the variables change."""
        if variables is not None:
            self._themed = frozenset(variables.items())
        if self._themed is None:  # not known yet: keeping nothing is only slower
            return
        for key, parsed in parsed_sources(sheet):
            if not any(rule.errors for rule in parsed):
                self._rules[self._key(key, self._themed)] = parsed

    def switch(self, sheet: Stylesheet, variables: dict[str, str]) -> None:
        """``Stylesheet.set_variables`` then ``reparse``, from the cache: only a source not
        seen with these variables is parsed (by Textual's public ``parse``, which reports
        bad CSS as ``reparse`` does)."""
        self.remember(sheet)  # the theme switched from: switching back parses nothing
        sheet.set_variables(variables)
        themed = self._themed = frozenset(variables.items())  # its hash is computed once
        known: dict[ParseKey, list[RuleSet]] = {}
        for read_from, source in sheet.source.items():
            key = parse_key(read_from, source)
            parsed = self._rules.get(self._key(key, themed))
            if parsed is not None:
                known[key] = parsed
        seed_parsed(sheet, known)
        sheet.parse()
        self.remember(sheet)

    def parse_ahead(self, sheet: Stylesheet, variables: dict[str, str]) -> Iterator[None]:
        """Parse ``sheet``'s sources with another theme's ``variables``, one source per step
        (a key pressed meanwhile waits for one source at most): a switch to that theme then
        finds them parsed. A source that fails stops it (the switch will report it)."""
        themed = frozenset(variables.items())
        spare = Stylesheet(variables=variables)  # parses with those variables; ``sheet`` keeps its own
        for read_from, source in list(sheet.source.items()):
            key = self._key(parse_key(read_from, source), themed)
            if key not in self._rules:
                spare.source = {read_from: source}
                try:
                    spare.parse()
                except Exception:
                    return
                self._rules[key] = spare.rules
            yield


def hidden_panes(root: DOMNode) -> set[TabPane]:
    """The tab panes under ``root`` that are not on screen (their switcher hides them)."""
    return {node for node in root.walk_children() if isinstance(node, TabPane) and not node.display}


def shown_nodes(root: DOMNode, hidden: set[TabPane]) -> Iterator[DOMNode]:
    """``root`` and its descendants, less the subtrees of the ``hidden`` panes (depth first,
    parents before children: the order ``Stylesheet.update_nodes`` expects)."""
    stack: list[DOMNode] = [root]
    while stack:
        node = stack.pop()
        if node in hidden:
            continue
        yield node
        stack.extend(reversed(node.children))


@contextmanager
def one_refresh_per_widget() -> Iterator[None]:
    """Within the block, a style change repaints each widget once, at the end.

    Textual repaints a widget's whole subtree for every colour rule that changes on it
    (``Styles.refresh(children=True)``), and a theme switch changes ~7 scrollbar and text
    colours on every widget: ~12,000 repaints of ~150 widgets (1.5–3 s on a busy machine,
    the slowest key of the app). Here the widgets to repaint are collected instead, and each
    is repainted once (with a layout when any change asked for one).
    """
    from textual.css.styles import Styles

    original = Styles.refresh
    marked: dict[Any, bool] = {}  # widget → layout wanted
    whole: set[Any] = set()  # widgets whose subtree is marked already

    def collect(
        self: Styles, *, layout: bool = False, children: bool = False, parent: bool = False, repaint: bool = True
    ) -> None:
        node = self.node
        if node is None or not getattr(node, "is_mounted", True):  # the app and screens: always
            return
        targets: list[Any] = [node]
        if parent and node.parent is not None:
            targets.append(node.parent)
        if children and (layout or node not in whole):  # one walk per subtree (and layout)
            whole.add(node)
            targets.extend(node.walk_children(with_self=False))
        for target in targets:
            marked[target] = marked.get(target, False) or layout

    Styles.refresh = collect  # type: ignore[method-assign]
    try:
        yield
    finally:
        Styles.refresh = original  # type: ignore[method-assign]
        for widget, layout in marked.items():
            widget.refresh(layout=layout)
