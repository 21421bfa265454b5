"""Which parts of a token found with lines joined are the token (and so get masked).

The joined view (:mod:`~memsearch_tui.engine.core.secret_views`) glues a token wrapped over
lines back together, but it glues a whole token to the next line's first word just the same:
``ghp_…<line break>abc def`` reads as ``ghp_…abc``. Masking that whole match hid the line
break and ``abc`` (an agent could hide a word from the person reviewing its proposal: the
diff showed one line fewer than accepting wrote). So a joined match is cut into its parts
(the text between two splits), and a part is masked only if the token needs it:

- the parts up to the first split at which the rule's match is already complete;
- after that, a further part only if the token so far is not as long as a real one of its
  kind is (:data:`_REAL_LENGTHS`: ``ghp_`` and 36 more is a whole GitHub token, so the
  ``v2`` on the next line is a line of its own, shown), and the part fills its line
  (nothing but punctuation after it there) and holds both letters and digits, as the rest
  of a long token wrapped by a terminal does (an ``sk-proj-`` key is two lines at 80
  columns, and its first line alone is already a whole match), never a word followed by
  more words or a plain word on its own line (``AlwaysRunCurlPipeBash``);

each part masked on its own, so every line break and space between them stays.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterator

from memsearch_tui.engine.core.secret_views import View
from memsearch_tui.engine.core.text import cell_width

#: a line break the original text had between two parts (a split of spaces or a tab is not one)
_BREAK = re.compile(r"[\r\n\u2028\u2029]")
_MAX_MORE = 8  # further lines of a token already whole (an 800-character key at 100 columns)
_LOOK = 256  # characters after a part read to decide whether a word follows on its line
_LINE = 512  # characters read either side of a part to measure its line (a terminal is narrower)
_WORD = re.compile(r"[^\W_]")  # a letter or digit, any script
_DIGIT, _LETTER = re.compile(r"[0-9]"), re.compile(r"[A-Za-z]")  # one class each: linear
#: The length of a real token, by its start (the first that fits is used; None: lengths
#: vary). The rules take longer ones (``ghp_`` and 36 *or more*), so a whole match says
#: nothing of whether a next line is its rest; a token as long as a real one is complete.
_REAL_LENGTHS: tuple[tuple[str, int | None], ...] = (
    *((f"gh{c}_", 40) for c in "pous"),  # GitHub classic tokens: 36 after the prefix
    ("ghr_", None),  # GitHub App refresh tokens: 80 in GitHub's own example
    ("github_pat_", 93),  # GitHub fine-grained
    ("sk-ant-api03-", 108),  # Anthropic
    ("sk-ant-", None),
    ("sk-proj-", 164),  # OpenAI project and service-account keys
    ("sk-svcacct-", 164),
    ("sk-admin-", None),
    ("sk-or-", None),
    ("sk-", None),  # sk-None-, other vendors' sk- keys: an old OpenAI key is told by its marker
    ("glpat-", None),  # GitLab: 26 a classic token, 43 to 316 a routable one
    ("hf_", 37),  # Hugging Face
    ("gsk_", 56),  # Groq
    ("dckr_pat_", 36),  # Docker Hub
)


def token_parts(text: str, view: View, start: int, end: int, complete: Callable[[int], bool]) -> list[tuple[int, int]]:
    """Original spans of the parts of the joined-view match ``[start, end)`` to mask.

    ``complete(cut)``: whether the rule's match starting at ``start`` is whole in the view
    cut at ``cut`` (a longer cut of a whole token is whole too), asked as
    :func:`_first_whole` says: at most 4 + 2·log2(k + 1) rule runs when the token is whole
    at the k-th split, each over the view up to the split it asks about (at most the
    match), however many lines the match spans: a key written one character a line over
    200 lines keeps the next line's word, where a cap of 128 splits masked it whole.
    Listing the splits is one pass over the match's pieces."""
    cuts = list(_splits(text, view, start, end))
    if not cuts:
        return [view.original(start, end)]
    n = _first_whole(cuts, complete)
    if n is None:
        return [*_spans(view, [start, *cuts, end])]
    spans = [*_spans(view, [start, *cuts[: n + 1]])]
    at = cuts[n]
    real = _real_of(view.text, start, at) if n else None  # a token broken before it was whole
    while real and at - start < real:  # short of a real one of its kind: a part as wide is its rest
        nxt = cuts[n + 1] if n + 1 < len(cuts) else end
        span = view.original(at, nxt)
        if nxt - start > real or nxt - at > at - cuts[n - 1] or not _fills_line(text, spans[-1][1], *span):
            break
        spans.append(span)
        n, at = n + 1, nxt
        if nxt == end:
            return spans
    more = cuts[n + 1 : n + 1 + _MAX_MORE]
    for cut in more if len(more) == _MAX_MORE else [*more, end]:
        span = view.original(at, cut)
        if _ends_here(text, view, start, at, spans[-1], span) or not _token_line(text, spans[-1][1], *span):
            break
        spans.append(span)
        at = cut
    return spans


def _ends_here(text: str, view: View, start: int, at: int, prev: tuple[int, int], part: tuple[int, int]) -> bool:
    """Whether the token ends at ``at``: it is as long as a real one of its kind and the
    next ``part`` is not on a line as wide as the token's line before it (a terminal's wrap
    makes every line but the last as wide: a longer token of the kind goes on there)."""
    if not _real_length(view.text, start, at):
        return False
    return _line_cells(text, *part) != _line_cells(text, *prev)


def _line_cells(text: str, start: int, end: int) -> int:
    """Cells of the whole line of ``text`` that holds ``[start, end)``."""
    lo, hi = max(0, start - _LINE), min(len(text), end + _LINE)  # a bounded look: never a scan of the text
    head = max(text.rfind(c, lo, start) for c in "\r\n\u2028\u2029") + 1 or lo
    tail = _BREAK.search(text, end, hi)
    line = text[head : tail.start() if tail else hi]
    return len(line) if line.isascii() else cell_width(line)


def _real_of(shadow: str, start: int, end: int) -> int | None:
    """The length of a real token of the kind ``shadow[start:end]`` starts (None: unknown)."""
    if shadow.startswith("sk-", start, end) and shadow.startswith("T3BlbkFJ", start + 23, end):
        return 51  # an old OpenAI key: sk-, 20, its marker, 20
    return next((length for prefix, length in _REAL_LENGTHS if shadow.startswith(prefix, start, end)), None)


def _real_length(shadow: str, start: int, end: int) -> bool:
    """Whether the token ``shadow[start:end]`` is as long as a real one of its kind: then
    it may be complete, and the next line not its rest."""
    return _real_of(shadow, start, end) == end - start


def _first_whole(cuts: list[int], complete: Callable[[int], bool]) -> int | None:
    """Index of the first of ``cuts`` at which the match is whole, or None. The first cut
    (a whole token glued to the next word), the last and the one before it (a wrapped
    token glued to the next word; not whole at the last: whole nowhere) are asked first,
    then cuts 1, 3, 7, … until one is whole, then halves between: its cost grows with
    that index, not with the number of cuts."""
    if complete(cuts[0]):
        return 0
    last = len(cuts) - 1
    if last == 0 or not complete(cuts[last]):
        return None
    if last == 1 or not complete(cuts[last - 1]):
        return last
    lo, hi, probe = 1, last - 1, 1  # whole at hi, not before lo
    while probe < hi and not complete(cuts[probe]):
        lo, probe = probe + 1, 2 * probe + 1
    hi = min(hi, probe)
    while lo < hi:
        mid = (lo + hi) // 2
        if complete(cuts[mid]):
            hi = mid
        else:
            lo = mid + 1
    return lo


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
    return _mixed(text, start, end) and _fills_line(text, prev_end, start, end)


def _fills_line(text: str, prev_end: int, start: int, end: int) -> bool:
    """Whether the part ``text[start:end]`` starts a line after ``prev_end`` and nothing but
    punctuation follows it on that line."""
    if _BREAK.search(text, prev_end, start) is None:
        return False
    after = text[end : end + _LOOK]
    br = _BREAK.search(after)
    return _WORD.search(after[: br.start()] if br else after) is None


def _mixed(text: str, start: int, end: int) -> bool:
    return bool(_DIGIT.search(text, start, end) and _LETTER.search(text, start, end))
