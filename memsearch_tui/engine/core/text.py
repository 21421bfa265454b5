"""Text rules shared by every layer."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")


def normalise(text: str) -> str:
    """Body text reduced to what matters for 'is this the same note': words, lowercased."""
    return " ".join(_WORD.findall(text.lower()))
