"""Diffs drawn with rich: unified from difflib lines, or side by side when there is room.

We render difflib's output ourselves (textual-diff-view is AGPL). The engine hands us
either the unified lines (proposals, versions) or the two texts; side by side pairs the
lines of each replaced block from ``SequenceMatcher`` opcodes. :class:`DiffView` masks
secrets and escapes control characters in what it is given, so no caller can forget to:
``update`` too takes only text and masks it (a list of an LLM's moves is drawn with it).
"""

from __future__ import annotations

import difflib

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from memsearch_tui.engine.api.text import unified_diff
from memsearch_tui.tui.palette import PALETTE
from memsearch_tui.tui.text import Squeezed, safe, safe_text

SIDE_BY_SIDE_MIN_WIDTH = 110
META = "bold"


def _styles() -> tuple[str, str, str]:
    """Added, deleted and hunk-header styles from the current theme."""
    return PALETTE.success, PALETTE.error, PALETTE.accent


def unified_text(lines: list[str]) -> Text:
    """Colour unified-diff lines (``+``/``-``/``@@``/headers)."""
    add, delete, hunk = _styles()
    out = Text()
    for raw in lines:
        line = raw.rstrip("\n")
        if line.startswith(("+++", "---")):
            style = META
        elif line.startswith("@@"):
            style = hunk
        elif line.startswith("+"):
            style = add
        elif line.startswith("-"):
            style = delete
        else:
            style = ""
        out.append(line + "\n", style=style)
    if not lines:
        out.append("(no differences)", style="dim")
    return out


def side_by_side(old: str, new: str, *, left: str, right: str, context: int = 3) -> RenderableType:
    """Two columns with line numbers; unchanged runs longer than 2×context are folded."""
    _add, _del, hunk = _styles()
    a, b = old.splitlines(), new.splitlines()
    table = Table(expand=True, box=None, padding=(0, 1), show_edge=False)
    table.add_column("", justify="right", style="dim", no_wrap=True, width=4)
    table.add_column(Squeezed(left, META), ratio=1, overflow="fold")  # a renderable header
    table.add_column("", justify="right", style="dim", no_wrap=True, width=4)
    table.add_column(Squeezed(right, META), ratio=1, overflow="fold")
    groups = difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(context)
    any_rows = False
    for group in groups:
        if any_rows:
            table.add_row("", Text("⋯", style=hunk), "", Text("⋯", style=hunk))
        for tag, i1, i2, j1, j2 in group:
            any_rows = True
            if tag == "equal":
                for k in range(i2 - i1):
                    table.add_row(str(i1 + k + 1), Text(a[i1 + k]), str(j1 + k + 1), Text(b[j1 + k]))
                continue
            rows = max(i2 - i1, j2 - j1)
            for k in range(rows):
                li, rj = i1 + k, j1 + k
                if li < i2 and rj < j2:
                    lt, rt = changed_pair(a[li], b[rj])
                else:
                    lt = Text(a[li], style=_del) if li < i2 else Text("")
                    rt = Text(b[rj], style=_add) if rj < j2 else Text("")
                table.add_row(str(li + 1) if li < i2 else "", lt, str(rj + 1) if rj < j2 else "", rt)
    if not any_rows:
        return Text("(no differences)", style="dim")
    return table


def changed_pair(old: str, new: str) -> tuple[Text, Text]:
    """A replaced line pair with the words that differ emphasised (bold, underlined)."""
    import re

    wa, wb = re.findall(r"\s+|\w+|[^\w\s]", old), re.findall(r"\s+|\w+|[^\w\s]", new)
    add, delete, _hunk = _styles()
    left, right = Text(style=delete), Text(style=add)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        strong = "" if tag == "equal" else "bold underline"
        left.append("".join(wa[i1:i2]), style=strong)
        right.append("".join(wb[j1:j2]), style=strong)
    return left, right


def is_split(width: int, mode: str) -> bool:
    """Is the diff drawn side by side at ``width`` in ``mode`` (auto: when there is room)?"""
    return mode == "split" or (mode == "auto" and width >= SIDE_BY_SIDE_MIN_WIDTH)


def unified_lines(old: str, new: str, *, left: str, right: str) -> list[str]:
    return unified_diff(old, new, left, right)  # with git's "\ No newline at end of file"


def render(old: str, new: str, *, left: str, right: str, width: int, mode: str = "auto") -> RenderableType:
    """Side by side when ``width`` allows (or ``mode == 'split'``), unified otherwise."""
    if is_split(width, mode):
        return side_by_side(old, new, left=left, right=right)
    return unified_text(unified_lines(old, new, left=left, right=right))


def fitted(old: str, new: str, *, left: str, right: str, width: int, mode: str = "auto") -> RenderableType:
    """``render`` for the screen: a unified diff's ``---``/``+++`` lines (ids, paths) lose
    their middle to fit one line instead of wrapping mid-word."""
    if is_split(width, mode):
        return side_by_side(old, new, left=left, right=right)
    lines = unified_lines(old, new, left=left, right=right)
    if len(lines) < 2 or not lines[0].startswith("---"):
        return unified_text(lines)
    heads = [Squeezed(line.rstrip("\n"), META) for line in lines[:2]]
    return Group(*heads, unified_text(lines[2:]))


class DiffView(Static):
    """A diff that re-lays itself out when resized (side by side ↔ unified)."""

    mode: reactive[str] = reactive("auto")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._texts: tuple[str, str, str, str] | None = None
        self._note: str = ""
        self._drawn_split: bool | None = None  # the layout on screen (side by side?)
        #: the key that switches the layout: when set, a first line names the layout and it
        self.switch_key = ""

    def show(self, old: str, new: str, *, left: str, right: str) -> None:
        """Draw the diff of ``old`` → ``new``: both texts and both names with secrets masked
        and control characters escaped here, whatever the caller did (its texts are a file's,
        an LLM's, a version's). Once, not per layout; masking masked text changes nothing."""
        self._texts, self._note = (safe(old), safe(new), safe(left), safe(right)), ""
        self._draw()

    def show_note(self, note: str) -> None:
        self._note = note
        self.update(Text(note, style="dim"))  # masked and escaped there

    def update(self, content: object = "", *, layout: bool = True) -> None:
        """Draw ``content``, a string (no markup) or a ``Text``, with secrets masked and
        control characters escaped as ``show`` does: a caller's text here is an LLM's or a
        file's too (a store proposal's moves and reasons). Any other renderable is refused:
        only the diff this view lays out itself is drawn unmasked (``_paint``)."""
        if isinstance(content, str):
            shown = Text(safe(content))
        elif isinstance(content, Text):
            shown = safe_text(content)
        else:
            raise TypeError(f"DiffView.update takes a str or a Text, not {type(content).__name__}: use show()")
        self._texts = None  # a resize must not draw the previous diff back over it
        self._paint(shown, layout=layout)

    def _paint(self, renderable: RenderableType, *, layout: bool = True) -> None:
        """Put on screen what ``show``/``update`` made safe (Static's own ``update``)."""
        super().update(renderable, layout=layout)

    @property
    def split(self) -> bool:
        """Is it drawn side by side now?"""
        return is_split(self._width(), self.mode)

    def toggle_mode(self) -> str:
        """Switch to the other layout than the one on screen (auto picks by width, so
        a plain auto → unified step would change nothing on a narrow pane); returns
        its name as the user reads it."""
        self.mode = "unified" if self.split else "split"
        return "side by side" if self.mode == "split" else "unified"

    def watch_mode(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        """Only a change of layout is drawn again: the drawn diff fits any width by itself
        (a pane shown again sends a resize at the same width; a new diff then cost the
        pane switch a layout of the whole screen and a second frame)."""
        if self._texts is not None and self.split != self._drawn_split:
            self._draw()

    def _draw(self) -> None:
        if self._texts is None:
            return
        old, new, left, right = self._texts
        self._drawn_split = self.split
        body = fitted(old, new, left=left, right=right, width=self._width(), mode=self.mode)
        if not self.switch_key:
            self._paint(Group(body))
            return
        other = "unified" if self.split else "side by side"
        layout = Text(f"{'side by side' if self.split else 'unified'} · {self.switch_key}: {other}", style="dim")
        self._paint(Group(layout, body))

    def _width(self) -> int:
        return self.size.width or (self.app.size.width if self.is_attached else 80)
