"""Text that reaches a terminal: control characters shown, never obeyed.

Titles, journal lines, LLM reasons and config values are untrusted. Printed raw, an
``ESC [`` sequence can clear the screen, rewrite earlier lines, set the window title or
(OSC 52) write the clipboard; a bidi override can make ``rm`` read like something else.
:func:`printable` turns each such character into a visible escape (``\\x1b``,
``\\u202e``) so the text is shown exactly as it is and does nothing. The CLI and the TUI
both call it; :func:`shown` also masks secrets, for anything built from untrusted text.
"""

from __future__ import annotations

import functools

_BIDI_AND_SEPARATORS = [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


@functools.cache
def _table(newlines: bool) -> dict[int, str]:
    codes = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), *_BIDI_AND_SEPARATORS]
    table = {c: _escape(c) for c in codes}
    if newlines:
        del table[0x0A], table[0x09]  # line breaks and tabs lay text out; they move no cursor back
    else:
        table[0x0A], table[0x09] = "\\n", "\\t"
    table[0x0D] = "\\r"
    return table


def printable(text: str, *, newlines: bool = True) -> str:
    """``text`` with every control character escaped: C0 (but newline and tab, unless
    ``newlines`` is False: then they are escaped too, for one-line labels), DEL, C1,
    bidi overrides and isolates, and the Unicode line/paragraph separators."""
    return text.translate(_table(newlines))


def json_printable(json_text: str) -> str:
    """Serialized JSON with the controls ``json.dumps(ensure_ascii=False)`` leaves raw (DEL,
    C1 such as CSI, bidi overrides) written as ``\\uXXXX``: they can only sit inside JSON
    strings, where the escape means the same character, so the JSON stays exact."""
    return json_text.translate(_json_table())


@functools.cache
def _json_table() -> dict[int, str]:
    """Lone surrogates too (a batch line's ``"id": "\\ud800"``): no UTF-8 output can carry one
    raw. Built on first use: its 2,100 entries cost a text search ~1 ms at import."""
    return {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0), *_BIDI_AND_SEPARATORS, *range(0xD800, 0xE000))}


def shown(text: str, *, newlines: bool = True) -> str:
    """``text`` ready for a terminal: secrets masked by kind, then control characters escaped."""
    from memsearch_tui.engine.core.secrets import redact  # re2 only once something is shown

    return printable(redact(text), newlines=newlines)
