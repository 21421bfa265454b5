"""Rows of one-line cells in columns (``Columns``), and the scrolling view that draws only
the rows on screen (``ColumnsView``): the undo history and the key help.

Why a view of its own: in a ``Static`` inside a ``VerticalScroll`` the whole list (up to
200 undo records) was measured and drawn again at each layout of the dialog — and opening
a dialog lays it out several times. ``ColumnsView`` knows its height (one line per row)
without drawing anything, and draws a row when it scrolls into view (Textual's line API,
toolong's approach), keeping the drawn rows until the list or the width changes.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


class Columns:
    """Rows of one-line cells in columns, drawn line by line (never a rich ``Table``,
    which Textual renders again and again to measure).

    Every column is as wide as its widest cell (at most its ``caps`` width), but the
    ``stretch`` one, which takes what is left and ends a longer cell with "…".
    """

    def __init__(
        self,
        headers: tuple[str, ...],
        rows: list[tuple[Text, ...]],
        *,
        stretch: int,
        caps: dict[int, int] | None = None,
    ) -> None:
        self.stretch = stretch
        self.lines = [tuple(Text(h, style="bold") for h in headers), *rows]  # the header is line 0
        self.widths = [max(c[i].cell_len for c in self.lines) for i in range(len(headers))]
        for i, cap in (caps or {}).items():
            self.widths[i] = min(self.widths[i], cap)

    def line(self, index: int, width: int) -> Text:
        """Line ``index`` (0: the header) laid out in ``width`` cells."""
        widths = list(self.widths)
        fixed = sum(w for i, w in enumerate(widths) if i != self.stretch) + len(widths) - 1
        widths[self.stretch] = max(8, width - fixed)
        out = Text(no_wrap=True, overflow="ellipsis")
        for i, (cell, cell_width) in enumerate(zip(self.lines[index], widths, strict=True)):
            part = cell.copy()
            part.truncate(cell_width, overflow="ellipsis", pad=True)
            out.append_text(part)
            if i < len(widths) - 1:
                out.append(" ")
        out.rstrip()
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for index in range(len(self.lines)):
            yield self.line(index, options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(sum(self.widths) + len(self.widths), options.max_width)


class ColumnsView(ScrollView, can_focus=True):
    """``Columns`` (or a one-line note) in a scrolling view that draws only what is shown."""

    def __init__(self, shown: Columns | Text | None = None, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.content: Columns | Text = Text("")  # what ``update`` was given (tests print it)
        self._drawn: dict[tuple[int, int], Strip] = {}  # (line, width) → its strip
        if shown is not None:
            self.update(shown)

    def action_scroll_home(self) -> None:
        """Home lands at once (Textual animates it: ~1 s before the next key in Help)."""
        self.scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        """End lands at once, as ``G`` does (``keys.move``)."""
        self.scroll_end(animate=False)

    def update(self, shown: Columns | Text) -> None:
        """Show ``shown`` instead: its height is known at once, its rows drawn when seen."""
        self.content = shown
        self._drawn.clear()
        self.virtual_size = Size(0, self._count())
        self.refresh()

    def _count(self) -> int:
        content = self.content
        return len(content.lines) if isinstance(content, Columns) else len(content.plain.splitlines()) or 1

    def _text(self, index: int, width: int) -> Text:
        content = self.content
        if isinstance(content, Columns):
            return content.line(index, width)
        lines = content.split(allow_blank=True)
        return lines[index] if index < len(lines) else Text("")

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        style = self.rich_style
        if index >= self._count():
            return Strip.blank(width, style)
        strip = self._drawn.get((index, width))
        if strip is None:
            text = self._text(index, width)
            strip = Strip(text.render(self.app.console)).apply_style(style).crop_extend(0, width, style)
            self._drawn[(index, width)] = strip
        return strip
