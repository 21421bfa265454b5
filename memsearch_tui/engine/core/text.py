"""Text rules shared by every layer."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")


def normalise(text: str) -> str:
    """Body text reduced to what matters for 'is this the same note': words, lowercased."""
    return " ".join(_WORD.findall(text.lower()))


def plural(n: int, noun: str, many: str | None = None) -> str:
    """'1 hit', '2 hits', '0 hits', '1 entry', '3 entries' (``many`` for irregular plurals).

    The one helper for every count a person reads (CLI, engine messages, the app), so
    no face says "1 hits" or "3 file(s)"."""
    return f"{n} {noun}" if n == 1 else f"{n} {many or noun + 's'}"


def verb(n: int, one: str, many: str) -> str:
    """The verb form that agrees with ``n``: ``verb(1, "needs", "need")``."""
    return one if n == 1 else many


NO_NEWLINE = "\\ No newline at end of file\n"


def unified_diff(old: str, new: str, fromfile: str, tofile: str, n: int = 3) -> list[str]:
    """difflib's unified diff, each line ending in a newline, with git's ``\\ No newline at
    end of file`` after a last line that has none (difflib says nothing, so a change of
    the final newline alone showed as two identical lines)."""
    import difflib  # only when a diff is shown

    out: list[str] = []
    for line in difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), fromfile=fromfile, tofile=tofile, n=n
    ):
        out += [line] if line.endswith("\n") else [line + "\n", NO_NEWLINE]
    return out
