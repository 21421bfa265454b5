"""An ``OptionList`` that does no work when its size did not change (``SteadyList``), and
options drawn once per width (``Drawn``).

Textual's ``OptionList`` throws away every rendered option at each ``Resize``, and a list
shown again (its pane switched to) gets one at its unchanged size: each switch drew the
whole list again, in a frame of its own after the pane's. And its ``ScrollView`` compares
the view's size with the list's length at each layout of the screen, which differ for any
list longer than its view, so each layout repainted the scrollbar in one more frame (the
last frame of a search typed in the Search pane, ~1/60 s after its hits).
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.segment import Segment
from textual import events
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, RichVisual
from textual.widget import Widget

from memsearch_tui.tui.textual_private import OwnVirtualSize


class SteadyList(OwnVirtualSize):
    """``OptionList`` without the two redraws of an unchanged list (see the module)."""

    _rendered_width: int | None = None  # the width its options were last rendered at

    def on_resize(self, event: events.Resize) -> None:  # runs before OptionList._on_resize
        width = self.scrollable_content_region.width
        if width == self._rendered_width:
            event.prevent_default()  # OptionList's own handler would drop every rendered option
        self._rendered_width = width


class Drawn(RichVisual):
    """An option's rich renderable drawn once per width: its height and its lines come from
    the same drawing. ``OptionList`` drew each option once to measure it (all of them, when
    they are set) and again to show it; a search's 30 hits were drawn ~45 times."""

    def __init__(self, widget: Widget, renderable: RenderableType) -> None:
        super().__init__(widget, renderable)
        self._owner = widget  # its app draws the lines (Textual's public ``Widget.app``)
        self._shown = renderable  # what it draws (kept here: ``RichVisual`` keeps it privately)
        self._lines: dict[int, list[Strip]] = {}

    def __rich__(self) -> RenderableType:  # printed (tests, logs) as what it shows
        return self._shown

    def _drawn(self, width: int) -> list[Strip]:
        lines = self._lines.get(width)
        if lines is None:
            app = self._owner.app
            options = app.console_options.update(highlight=False, width=width)
            segments = app.console.render(self._shown, options)
            crop = Segment.split_and_crop_lines(segments, width, include_new_lines=False, pad=False)
            lines = self._lines[width] = [Strip(line) for line in crop]
        return lines

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self._drawn(width))

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        # the base style under the option's own, as RichVisual does (Widget.post_render)
        rich_style = style.rich_style
        return [line.apply_style(rich_style) for line in self._drawn(width)[:height]]
