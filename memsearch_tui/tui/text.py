"""Untrusted strings on screen: printable text, home-relative paths, theme colours.

Titles, LLM reasons, journal and transcript text arrive from files we do not control; they
go into rich ``Text`` objects (never markup) with control characters made visible by the
engine's one rule (``engine.core.terminal.shown``: secrets masked, then escaped), so an escape sequence in a file
cannot move the cursor or recolour the terminal, and ``[red]`` in a title is drawn as typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from memsearch_tui.engine.api.text import clip_masked
from memsearch_tui.engine.api.text import home_relative as home_relative  # the CLI's too: one way to say a path
from memsearch_tui.engine.api.text import home_relative_in as home_relative_in
from memsearch_tui.engine.api.text import shown as _shown

if TYPE_CHECKING:
    from textual.dom import DOMNode


def safe(text: str) -> str:
    """``text`` with secrets masked by kind and control characters (but tab and newline)
    shown as escapes: the engine's one redactor and one terminal rule."""
    return _shown(text)


def safe_text(text: Text) -> Text:
    """``text`` with :func:`safe` applied to each run of one style, its styles kept: a
    ``Text`` a caller built from a file's or an LLM's words (a list of moves) is masked and
    escaped like a plain string. A run is masked alone, so keep each untrusted word whole
    in one ``append``."""
    cuts = sorted({*(s.start for s in text.spans), *(s.end for s in text.spans)} - {0, len(text)})
    out = text.blank_copy()
    for piece in text.divide(cuts) if text.plain else ():
        run = Text(safe(piece.plain))
        for span in piece.spans:  # each covers the whole run (cut at every span's ends)
            run.stylize(span.style)
        out.append_text(run)
    return out


def printable(value: object, *, keep_newlines: bool = True) -> str:
    """``value`` as text with every control character shown (newlines too unless kept)."""
    return _shown(str(value), newlines=keep_newlines)


def untrusted(value: object, style: str = "", *, keep_newlines: bool = True) -> Text:
    """An untrusted string as a rich ``Text`` (no markup parsed), control characters escaped."""
    return Text(printable(value, keep_newlines=keep_newlines), style=style)


def tone(widget: DOMNode, name: str, extra: str = "") -> str:
    """A rich style string in the theme's colour ``name`` (primary, warning, error, …).

    Rich ``Text`` cannot read Textual's ``$variables``, so the colour is looked up in the
    current theme; panes re-render on a theme change.
    """
    colour = widget.app.theme_variables.get(name, "")
    if not colour.startswith("#"):  # "auto 60%" and the like: not a colour rich knows
        return extra or "dim"
    return f"{extra} {colour[:7]}".strip()


ELLIPSIS = "…"


def clip(text: Text, width: int) -> Text:
    """A one-line label in ``width`` cells, cut at a word boundary with "…" (by cell width in
    CJK text): the engine's ``clip_masked`` measured with rich's ``cell_len``, styles kept.
    For labels a widget would otherwise crop mid-word (tree rows, list summaries). The
    label is masked already: a ``[redacted: …]`` in it is kept whole or dropped whole."""
    plain = text.plain
    fitted = clip_masked(plain, width, cell_len)
    if fitted == plain:
        return text
    head = fitted.removesuffix(ELLIPSIS)
    last = [sp.style for sp in text.spans if sp.start < len(head) <= sp.end]  # the cut word's style
    out = text[: len(head)] if plain.startswith(head) else Text(head, style=text.style)
    out.append(ELLIPSIS, style=last[-1] if last else "")
    return out


def middle(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells by taking out its middle (``decisions/post…production``):
    an id or a path keeps its start (where it lives) and its end (what it is), and is never
    wrapped mid-word. The end gets the larger half."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    if width == 1:
        return ELLIPSIS
    room = width - 1
    head_room = room // 2
    head = _cells_from_start(text, head_room)
    tail = _cells_from_end(text, room - cell_len(head))
    return f"{head}{ELLIPSIS}{tail}"


def _cells_from_start(text: str, cells: int) -> str:
    out, used = [], 0
    for ch in text:
        w = cell_len(ch)
        if used + w > cells:
            break
        out.append(ch)
        used += w
    return "".join(out)


def _cells_from_end(text: str, cells: int) -> str:
    return _cells_from_start(text[::-1], cells)[::-1]


class Squeezed:
    """A one-line id or path that fits the width it is drawn in by losing its middle
    (``middle``): for lists, tables and detail heads whose width the terminal decides."""

    def __init__(
        self, text: str, style: str = "", *, prefix: str = "", suffix: str = "", lead: Text | None = None
    ) -> None:
        self.text = printable(text, keep_newlines=False)
        self.style, self.prefix, self.suffix = style, prefix, suffix
        self.lead = lead  # styled text before it (a title), kept whole

    def fitted(self, width: int) -> Text:
        out = Text(no_wrap=True)
        if self.lead is not None:
            out.append(self.lead)  # its own style stays on it, not on what follows
        room = width - out.cell_len - cell_len(self.prefix) - cell_len(self.suffix)
        out.append(f"{self.prefix}{middle(self.text, max(room, 1))}{self.suffix}", style=self.style)
        return out

    def __str__(self) -> str:
        lead = self.lead.plain if self.lead is not None else ""
        return f"{lead}{self.prefix}{self.text}{self.suffix}"

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.fitted(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        full = cell_len(str(self))
        return Measurement(min(full, 8), full)


def short_time(value: str, empty: str = "—", *, seconds: bool = False) -> str:
    """A state file's ISO time as ``YYYY-MM-DD HH:MM`` (``:SS`` with ``seconds``), ``empty``
    when there is none: the panes and the task detail say a time the same way."""
    return value.replace("T", " ").removesuffix("Z")[: 19 if seconds else 16] if value else empty
