"""The text rules every face prints with: counts, terminal-safe strings, the secret redactor.

Re-exported from ``engine.core`` so the faces reach them through the one door. Each is
light (``re`` only) except the redactor, which loads re2 on first use.
"""

from __future__ import annotations

from memsearch_tui.engine.core.home_paths import home_relative, home_relative_in
from memsearch_tui.engine.core.terminal import json_printable, printable, shown
from memsearch_tui.engine.core.text import clip_words, plural, unified_diff, verb

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see engine.api)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "clip_masked",
    "clip_words",
    "find_secret",
    "home_relative",
    "home_relative_in",
    "json_printable",
    "plural",
    "printable",
    "redact",
    "redact_clip",
    "redact_text",
    "shown",
    "unified_diff",
    "verb",
]


def redact(value: Any) -> Any:
    """``value`` (JSON-able data) with every secret in every string masked, named by kind."""
    from memsearch_tui.engine.core.secrets import redact_data

    return redact_data(value)


def redact_text(text: str) -> str:
    """``text`` with every secret masked (the one redactor, for every face)."""
    from memsearch_tui.engine.core.secrets import redact as _redact

    return _redact(text)


def redact_clip(text: str, width: int, cells: Any = None) -> str:
    """``text`` masked, then cut to ``width`` cells at a word, never inside a mask: for a
    face that shows the start of an untrusted text (a reason, a bullet) on one row."""
    from memsearch_tui.engine.core.secrets import redact_clip as _clip

    return _clip(text, width) if cells is None else _clip(text, width, cells)


def clip_masked(text: str, width: int, cells: Any = None, *, at_word: bool = True) -> str:
    """Already-masked ``text`` cut to ``width`` cells at a word (``at_word=False``: at the
    last cell that fits), a ``[redacted: …]`` mask kept whole or dropped whole, never
    ended by "…"."""
    from memsearch_tui.engine.core.secrets import clip_masked as _clip

    return _clip(text, width, at_word=at_word) if cells is None else _clip(text, width, cells, at_word=at_word)


def find_secret(text: str) -> str | None:
    """The name of the secret rule ``text`` trips, or None."""
    from memsearch_tui.engine.core.secrets import find_secret as _find

    return _find(text)
