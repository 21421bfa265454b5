"""Untrusted strings on screen: printable text, home-relative paths, theme colours.

Titles, LLM reasons, journal and transcript text arrive from files we do not control; they
go into rich ``Text`` objects (never markup) with control characters made visible by the
engine's one rule (``engine.core.terminal.shown``: secrets masked, then escaped), so an escape sequence in a file
cannot move the cursor or recolour the terminal, and ``[red]`` in a title is drawn as typed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from memsearch_tui.engine.api.text import shown as _shown

if TYPE_CHECKING:
    from textual.dom import DOMNode


def safe(text: str) -> str:
    """``text`` with secrets masked by kind and control characters (but tab and newline)
    shown as escapes: the engine's one redactor and one terminal rule."""
    return _shown(text)


def printable(value: object, *, keep_newlines: bool = True) -> str:
    """``value`` as text with every control character shown (newlines too unless kept)."""
    return _shown(str(value), newlines=keep_newlines)


def untrusted(value: object, style: str = "", *, keep_newlines: bool = True) -> Text:
    """An untrusted string as a rich ``Text`` (no markup parsed), control characters escaped."""
    return Text(printable(value, keep_newlines=keep_newlines), style=style)


def home_relative(path: Path | str) -> str:
    """``~/memory`` for a path under the home folder: short, and the same on every machine."""
    p = Path(path)
    home = Path(os.environ.get("HOME") or Path.home())
    try:
        rel = p.relative_to(home)
    except ValueError:
        return str(p)
    return "~" if str(rel) == "." else f"~/{rel.as_posix()}"


def tone(widget: DOMNode, name: str, extra: str = "") -> str:
    """A rich style string in the theme's colour ``name`` (primary, warning, error, …).

    Rich ``Text`` cannot read Textual's ``$variables``, so the colour is looked up in the
    current theme; panes re-render on a theme change.
    """
    colour = widget.app.theme_variables.get(name, "")
    if not colour.startswith("#"):  # "auto 60%" and the like: not a colour rich knows
        return extra or "dim"
    return f"{extra} {colour[:7]}".strip()
