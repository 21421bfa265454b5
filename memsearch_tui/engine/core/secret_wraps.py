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
import itertools
import re
from collections.abc import Callable, Iterator

from memsearch_tui.engine.core.secret_views import View

#: a line break the original text had between two parts (a split of spaces or a tab is not one)
_BREAK = re.compile(r"[\r\n\u2028\u2029]")
_MAX_PARTS = 128  # splits read to find where the token is whole (a 128-character key one character a line)
_MAX_MORE = 8  # further lines of a token already whole (an 800-character key at 100 columns)
_LOOK = 256  # characters after a part read to decide whether a word follows on its line
_WORD = re.compile(r"[^\W_]")  # a letter or digit, any script
_DIGIT, _LETTER = re.compile(r"[0-9]"), re.compile(r"[A-Za-z]")  # one class each: linear


def token_parts(text: str, view: View, start: int, end: int, complete: Callable[[int], bool]) -> list[tuple[int, int]]:
    """Original spans of the parts of the joined-view match ``[start, end)`` to mask.

    ``complete(cut)``: whether the rule's match starting at ``start`` is whole in the view
    cut at ``cut``. Asked at the first split (a token glued to the next word), then by
    halves over the first :data:`_MAX_PARTS` splits (a longer cut of a whole token is whole
    too): a few rule runs per match whatever the text. A match not whole within them is an
    obfuscation (one character a line), masked whole as before."""
    splits = _splits(text, view, start, end)
    cuts = list(itertools.islice(splits, _MAX_PARTS + 1))
    if not cuts:
        return [view.original(start, end)]
    n = _first_whole(cuts[:_MAX_PARTS], complete)
    if n is None:
        return [view.original(start, end)] if len(cuts) > _MAX_PARTS else [*_spans(view, [start, *cuts, end])]
    spans = [*_spans(view, [start, *cuts[: n + 1]])]
    more = [*itertools.islice(itertools.chain(cuts[n + 1 :], splits), _MAX_MORE)]
    at = cuts[n]
    for cut in more if len(more) == _MAX_MORE else [*more, end]:
        span = view.original(at, cut)
        if not _token_line(text, spans[-1][1], *span):
            break
        spans.append(span)
        at = cut
    return spans


def _first_whole(cuts: list[int], complete: Callable[[int], bool]) -> int | None:
    """Index of the first of ``cuts`` at which the match is whole, or None."""
    if complete(cuts[0]):
        return 0
    lo, hi = 1, len(cuts)
    while lo < hi:
        mid = (lo + hi) // 2
        if complete(cuts[mid]):
            hi = mid
        else:
            lo = mid + 1
    return lo if lo < len(cuts) else None


def _spans(view: View, bounds: list[int]) -> Iterator[tuple[int, int]]:
    for a, b in itertools.pairwise(bounds):
        yield view.original(a, b)


def _splits(text: str, view: View, start: int, end: int) -> Iterator[int]:
    """View offsets inside ``(start, end)`` where whitespace of the original was taken out,
    in order (read lazily: a caller stops at the first few)."""
    hi = bisect.bisect_left(view.starts, end)
    for i in range(bisect.bisect_right(view.starts, start), hi):
        orig, length, copied = view.pieces[i]
        at = view.starts[i]
        if copied or view.starts[i + 1] != at:
            continue  # text, or a folded piece that left characters in the view
        if any(c.isspace() for c in text[orig : orig + length]):
            yield at


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
