"""An ``OptionList`` that does no work when its size did not change (``SteadyList``).

Textual's ``OptionList`` throws away every rendered option at each ``Resize``, and a list
shown again (its pane switched to) gets one at its unchanged size: each switch drew the
whole list again, in a frame of its own after the pane's. And its ``ScrollView`` compares
the view's size with the list's length at each layout of the screen, which differ for any
list longer than its view, so each layout repainted the scrollbar in one more frame (the
last frame of a search typed in the Search pane, ~1/60 s after its hits).
"""

from __future__ import annotations

from textual import events
from textual.geometry import Size
from textual.widgets import OptionList


class SteadyList(OptionList):
    """``OptionList`` without the two redraws of an unchanged list (see the module)."""

    _rendered_width: int | None = None  # the width its options were last rendered at

    def on_resize(self, event: events.Resize) -> None:  # runs before OptionList._on_resize
        width = self.scrollable_content_region.width
        if width == self._rendered_width:
            event.prevent_default()  # OptionList's own handler would drop every rendered option
        self._rendered_width = width

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        # ScrollView uses the list's own virtual size whatever it is given; given the view's,
        # it saw a change at every layout. A change of the list's length updates the
        # scrollbar where the options change (OptionList._update_lines).
        return super()._size_updated(size, self.virtual_size, container_size, layout)
