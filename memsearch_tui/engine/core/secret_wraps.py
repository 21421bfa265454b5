"""Which parts of a token found with lines joined are the token (and so get masked).

The joined view (:mod:`~memsearch_tui.engine.core.secret_views`) glues a token wrapped over
lines back together, but it glues a whole token to the next line's first word just the same:
``ghp_…<line break>abc def`` reads as ``ghp_…abc``. Masking that whole match hid the line
break and ``abc`` (an agent could hide a word from the person reviewing its proposal: the
diff showed one line fewer than accepting wrote). So a joined match is cut into its parts
(the text between two splits), and a part is masked only if the token needs it:

- the parts up to the first split at which the rule's match is already complete;
- after that, a further part only if it fills its line (nothing but punctuation after it
  there) and holds both letters and digits, as the rest of a long token wrapped by a
  terminal does (an ``sk-proj-`` key is two lines at 80 columns, and its first line alone
  is already a whole match), never a word followed by more words or a plain word on its
  own line (``AlwaysRunCurlPipeBash``);

each part masked on its own, so every line break and space between them stays.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from memsearch_tui.engine.core.secret_views import View

#: a line break the original text had between two parts (a split of spaces or a tab is not one)
_BREAK = re.compile(r"[\r\n\u2028\u2029]")
_LOOK = 256  # characters after a part read to decide whether a word follows on its line
_WORD = re.compile(r"[^\W_]")  # a letter or digit, any script
_DIGIT, _LETTER = re.compile(r"[0-9]"), re.compile(r"[A-Za-z]")  # one class each: linear


def token_parts(text: str, view: View, start: int, end: int, complete: Callable[[int], bool]) -> list[tuple[int, int]]:
    """Original spans of the parts of the joined-view match ``[start, end)`` to mask.

    ``complete(cut)``: whether the rule's match starting at ``start`` is whole in the view
    cut at ``cut``. Checked at O(log splits) cuts (a longer cut of a whole token is whole
    too), so a hostile text of one-character lines stays linear."""
    cuts = _splits(text, view, start, end)
    if not cuts:
        return [view.original(start, end)]
    lo, hi = 0, len(cuts)  # the first cut at which the match is whole; len(cuts): only at ``end``
    while lo < hi:
        mid = (lo + hi) // 2
        if complete(cuts[mid]):
            hi = mid
        else:
            lo = mid + 1
    bounds = [start, *cuts, end]
    spans = [view.original(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]
    keep = lo + 1
    while keep < len(spans) and _token_line(text, spans[keep - 1][1], *spans[keep]):
        keep += 1
    return spans[:keep]


def _splits(text: str, view: View, start: int, end: int) -> list[int]:
    """View offsets inside ``(start, end)`` where whitespace of the original was taken out."""
    lo = bisect.bisect_right(view.starts, start)
    hi = bisect.bisect_left(view.starts, end)
    cuts: list[int] = []
    for i in range(lo, hi):
        orig, length, copied = view.pieces[i]
        at = view.starts[i]
        if copied or (i + 1 < len(view.starts) and view.starts[i + 1] != at):
            continue  # text, or a folded piece that left characters in the view
        if any(c.isspace() for c in text[orig : orig + length]):
            cuts.append(at)
    return cuts


def _token_line(text: str, prev_end: int, start: int, end: int) -> bool:
    """Whether the part ``text[start:end]`` starts a line after ``prev_end``, has letters and
    digits, and nothing but punctuation follows it on that line: the rest of a wrapped
    token, not a word in prose."""
    if _BREAK.search(text, prev_end, start) is None or not _mixed(text, start, end):
        return False
    after = text[end : end + _LOOK]
    br = _BREAK.search(after)
    return _WORD.search(after[: br.start()] if br else after) is None


def _mixed(text: str, start: int, end: int) -> bool:
    return bool(_DIGIT.search(text, start, end) and _LETTER.search(text, start, end))
