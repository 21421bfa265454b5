"""Untrusted strings (titles, summaries, file names, error messages) made safe to draw.

A terminal escape sequence inside an entry title must not reach the terminal: control
characters are shown as ``\\xNN`` instead. Labels use rich ``Text`` (never markup) for
untrusted strings, so ``[red]`` in a title is drawn as typed.
"""

from __future__ import annotations

import re

# TODO: core.terminal — use memsearch_tui.engine.core.terminal once helper sec-bounds lands it
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def safe(text: str) -> str:
    """``text`` with C0/C1 control characters (except tab and newline) escaped."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
