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
    """Parsed rules per stylesheet source (and per theme, for a source naming a variable)."""

    def __init__(self) -> None:
        self._rules: dict[tuple[Any, ...], list[RuleSet]] = {}

    def _parsed(self, sheet: Stylesheet, read_from: Any, source: Any, themed: frozenset[Any]) -> list[RuleSet]:
        css, is_defaults, tie_breaker, scope = source
        textual_key = (css, read_from, is_defaults, tie_breaker, scope)  # ``Stylesheet._parse_rules``'s
        key = (textual_key, themed if "$" in css else None)
        parsed = self._rules.get(key)
        if parsed is None:
            parsed = sheet._parse_rules(css, read_from, is_defaults, tie_breaker, scope)
            if any(rule.errors for rule in parsed):
                raise ValueError(f"CSS errors in {read_from}")
            self._rules[key] = parsed
        else:  # Textual's own parse (a new widget's CSS added later) then finds it too
            sheet._parse_cache.set(textual_key, parsed)
        return parsed

    def remember(self, sheet: Stylesheet) -> None:
        """Keep what Textual parsed itself with ``sheet``'s variables (the theme the app
        started in; a widget's CSS added since): call it before the variables change."""
        themed = frozenset(sheet._variables.items())
        for textual_key in sheet._parse_cache.keys():  # noqa: SIM118  (an LRUCache: no iteration)
            parsed = sheet._parse_cache.get(textual_key)
            if parsed is not None and not any(rule.errors for rule in parsed):
                self._rules[(textual_key, themed if "$" in textual_key[0] else None)] = parsed

    def reparse(self, sheet: Stylesheet) -> None:
        """``Stylesheet.reparse`` from the cache: only a source not seen with these
        variables is parsed. Any problem falls back to Textual's own (which reports it)."""
        themed = frozenset(sheet._variables.items())  # its hash is computed once
        rules: list[RuleSet] = []
        try:
            for read_from, source in sheet.source.items():
                rules.extend(self._parsed(sheet, read_from, source, themed))
        except Exception:
            sheet.reparse()
            return
        sheet._rules = rules
        sheet._rules_map = None
        sheet._require_parse = False

    def parse_ahead(self, sheet: Stylesheet, variables: dict[str, str]) -> Iterator[None]:
        """Parse ``sheet``'s sources with another theme's ``variables``, one source per step
        (a key pressed meanwhile waits for one source at most): a switch to that theme then
        finds them parsed. A source that fails stops it (the switch will report it)."""
        themed = frozenset(variables.items())
        spare = Stylesheet(variables=variables)  # parses with those variables; ``sheet`` keeps its own
        for read_from, source in list(sheet.source.items()):
            try:
                self._parsed(spare, read_from, source, themed)
            except Exception:
                return
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
