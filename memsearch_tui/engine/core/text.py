"""Text rules shared by every layer."""

from __future__ import annotations

import re
from collections.abc import Callable

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


ELLIPSIS = "…"


def cell_width(text: str) -> int:
    """Terminal cells ``text`` takes: East Asian wide and full-width characters take two,
    combining marks none (the engine cannot use rich; the app passes rich's ``cell_len``)."""
    import unicodedata

    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def clip_words(text: str, width: int, cells: Callable[[str], int] = cell_width) -> str:
    """``text`` in at most ``width`` cells, cut at a word boundary with "…" when it does not
    fit (``Alpha dashboard redesign`` → ``Alpha dashboard…``, never ``Alpha dashboar``).

    CJK text has no spaces: where the cut falls between wide characters it is made by cell
    width. A single word longer than the room, or a last space
    in the first half, is cut by cell width: better a cut word than an empty label."""
    if width <= 0:
        return ""
    if cells(text) <= width:
        return text
    room, used, cut = width - 1, 0, 0
    for i, ch in enumerate(text):
        used += cells(ch)
        if used > room:
            break
        cut = i + 1
    head = text[:cut]
    if (
        cut < len(text)
        and not text[cut].isspace()
        and not _wide(text[cut], cells)
        and head
        and not head[-1].isspace()
        and not _wide(head[-1], cells)
    ):
        head = _back_to_space(head, room // 2)
    return head.rstrip(" \t,;:-–—") + ELLIPSIS


def _wide(ch: str, cells: Callable[[str], int]) -> bool:
    return cells(ch) > 1


def _back_to_space(head: str, keep: int) -> str:
    """``head`` up to its last space, if that leaves more than ``keep`` characters."""
    at = head.rstrip().rfind(" ")
    return head[:at] if at > keep else head
