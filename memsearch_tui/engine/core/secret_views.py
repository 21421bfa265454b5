"""Shadow copies of a text for secret matching, with a map back to the original offsets.

A secret can arrive disguised: full-width letters, a zero-width space, a combining mark or a
no-break space inside it, a Cyrillic or Greek look-alike letter among its Latin ones, or
split: wrapped over two lines by a terminal, continued with a shell ``\\``-newline, cut by a
tab, two spaces or a Unicode line/paragraph separator (U+2028/2029). The rules match plain
ASCII, so they run on a *shadow* copy where those are folded away, and every span found
there is mapped back to the original text, which is what gets masked.

Look-alikes come from Unicode's confusables table (``confusable-homoglyphs``, MIT), loaded
only when a Greek or Cyrillic letter touches an ASCII letter or digit (a mixed-script word:
Russian or Greek prose on its own is never folded).

The shadow is built from the few pieces that change (runs of non-ASCII characters, and for
the joined view the line breaks and odd spaces between two token characters); the text in
between is copied as is, so building a view of 1 MB of ASCII prose is a handful of slices,
and mapping a span back is a binary search over the pieces.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from collections import namedtuple

# Characters that fold away: zero-width space/joiners, word joiner, BOM, soft hyphen, ….
_INVISIBLE = dict.fromkeys(
    map(ord, "\u00ad\u034f\u061c\u115f\u1160\u180e\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff")
)
_TOKEN = r"[A-Za-z0-9_+/=\-]"
# What folding can change into ASCII: no-break and other spaces, combining marks, invisible
# characters, letter-like and enclosed forms, full-width forms, mathematical letters.
# Everything else (CJK, accented words) is left alone and never even looked at.
# Sorted and disjoint (``_foldable`` bisects them; U+034F lies inside the combining marks).
_WIDE_RANGES = (
    (0x00A0, 0x00A0), (0x00AD, 0x00AD), (0x0300, 0x036F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x180E, 0x180E), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x2000, 0x206F), (0x20D0, 0x20FF), (0x2100, 0x214F),
    (0x2460, 0x24FF), (0x3000, 0x3000), (0xFE00, 0xFE0F), (0xFE20, 0xFE2F), (0xFEFF, 0xFEFF), (0xFF00, 0xFFEF),
    (0x1D400, 0x1D7FF), (0x1F130, 0x1F189),
)  # fmt: skip
_WIDE = "[" + "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in _WIDE_RANGES) + "]+"
# A gap inside a token: one line break (with the spaces and tabs around it), or a run of
# no-break/thin spaces, between two token characters. The pattern only finds the break
# (a one-character class, which ``re`` scans for quickly); its surroundings are checked
# in Python, each space looked at once from either side, so this stays linear.
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=-")
# Foldable runs a few ASCII characters apart are one piece (mapped back as a whole): a
# text that puts a zero-width space after every letter is a handful of pieces, not one
# per character. The two classes are disjoint, so ``re`` does not backtrack here.
# A Greek or Cyrillic letter run (``mixed``); folded only when glued to an ASCII letter or
# digit (a look-alike in a token), which is checked in Python (a look-behind here is tried
# at every position).
_MIXED_BODY = "\u0370-\u052f"
_ASCII_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
# A split: a line break (after a shell's ``\\`` continuation or not), a Unicode line or
# paragraph separator, a tab or a run of two spaces; kept only between two token characters.
# (A line's indentation is taken with its break, so it is not matched again as two spaces.)
_SPLIT = r"(?:\\(?:\r\n|\r|\n)|\r\n|\r|\n)[ \t]*|[\u2028\u2029\t]|  +"
# No-break, thin and zero-width spaces and the line/paragraph separators: taken out of a
# token they sit inside (the joined view).
_INNER = "\u00a0\u2007\u202f\u2009\u200a\u200b\u200c\u200d\u2060\ufeff\u2028\u2029"
_INNER_SPACES = frozenset(_INNER)
_NEVER = "(?!)"  # a class with nothing in it: the alternative cannot match


def _fold_patterns(wide: str, mixed: str) -> dict[str, str]:
    """The folding views' patterns over the class bodies ``wide`` (what folding can change)
    and ``mixed`` (Greek and Cyrillic letters). Each pattern starts with a look-ahead of one
    class of every first character it can match: with it ``re`` skips ahead by that class,
    without it an alternation of classes and groups is tried at every position (2-3x slower
    on a megabyte of ASCII code)."""
    run = f"[{wide}]+" if wide else _NEVER
    chunk = rf"{run}(?:[\x00-\x09\x0b\x0c\x0e-\x7f]{{0,8}}{run})*"
    mixed_run = f"(?P<mixed>[{mixed}]+)" if mixed else _NEVER
    first = f"(?=[{mixed}{wide}])" if mixed or wide else _NEVER
    return {
        "fold": rf"{first}(?:{mixed_run}|{chunk})",
        "fold+join": rf"(?=[\\\r\n\u2028\u2029\t {mixed}{wide}])(?:(?P<gap>{_SPLIT})|{mixed_run}|{chunk})",
    }


_PATTERNS = {
    **_fold_patterns(_WIDE[1:-2], _MIXED_BODY),
    # "fold+join" on ASCII text: only a split can match there (every other alternative
    # starts with a non-ASCII character), and this compiles in a tenth of its time
    "join ascii": rf"(?=[\\\r\n\t ])(?P<gap>{_SPLIT})",
    "inner spaces": rf"(?<={_TOKEN})[{_INNER}]+(?={_TOKEN})",
}


@functools.cache
def _pattern(name: str) -> re.Pattern[str]:
    """One of :data:`_PATTERNS`, compiled on first use: the wide classes take a few ms each,
    and an ASCII text (most output a CLI search redacts) needs only the joining one."""
    return re.compile(_PATTERNS[name])


# A short text's folding pattern is compiled with only the foldable characters it holds in
# its classes (a class tested on this text's characters answers as the whole class does, so
# the matches are the same): a CLI search's output holds “ ” … · and compiling the whole wide
# classes for them cost ~2.5 ms of a one-shot search. A long-lived process that has narrowed
# _NARROW_MAX times compiles the whole pattern once and uses it from then on.
_NARROW_TEXT = 16_384  # characters: finding the text's characters costs less than a compile
_NARROW_CHARS = 32  # distinct foldable characters at most in a narrowed class
_NARROW_MAX = 8
_WIDE_STARTS = [a for a, _ in _WIDE_RANGES]


def _foldable(code: int) -> bool:
    """Whether the character ``code`` is in the wide class or the Greek/Cyrillic one."""
    if 0x370 <= code <= 0x52F:
        return True
    i = bisect.bisect_right(_WIDE_STARTS, code) - 1
    return i >= 0 and code <= _WIDE_RANGES[i][1]


def _fold_pattern(text: str, join: bool) -> re.Pattern[str]:
    """The pattern that finds ``text``'s foldable pieces (and, with ``join``, its splits)."""
    name = "fold+join" if join else "fold"
    if join and text.isascii():
        return _pattern("join ascii")
    if len(text) <= _NARROW_TEXT and _narrowed.cache_info().misses < _NARROW_MAX:
        present = sorted(c for c in set(text) if not c.isascii() and _foldable(ord(c)))
        if len(present) <= _NARROW_CHARS:
            return _narrowed(name, "".join(present))
    return _pattern(name)


@functools.lru_cache(maxsize=_NARROW_MAX)
def _narrowed(name: str, present: str) -> re.Pattern[str]:
    wide = "".join(c for c in present if not 0x370 <= ord(c) <= 0x52F)
    mixed = "".join(c for c in present if 0x370 <= ord(c) <= 0x52F)
    return re.compile(_fold_patterns(re.escape(wide), re.escape(mixed))[name])


@functools.lru_cache(maxsize=4096)
def fold(piece: str) -> str:
    """``piece`` as the rules see it: compatibility forms (full-width, ligatures) folded by
    NFKC, combining marks and invisible characters dropped. Cached: the same few pieces
    (a full-width comma, a no-break space) recur all through a text."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", piece) if not unicodedata.combining(c))
    folded = unicodedata.normalize("NFKC", bare).translate(_INVISIBLE)
    return folded.translate(_lookalikes()) if _GREEK_CYRILLIC.search(folded) else folded


_GREEK_CYRILLIC = re.compile(r"[\u0370-\u052f]")


@functools.cache
def _lookalikes() -> dict[int, str]:
    """Greek and Cyrillic letters that Unicode's confusables table says look like an ASCII
    letter or digit, mapped to it (a capital to a capital where the table offers one: ``І``
    to ``I``, not ``l``). Built once, on the first mixed-script word."""
    from confusable_homoglyphs.confusables import confusables_data  # 0.9 MB of JSON: only when needed

    table: dict[int, str] = {}
    for char, glyphs in confusables_data.items():
        if len(char) != 1 or not 0x370 <= ord(char) <= 0x52F:
            continue
        ascii_ = [g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii() and g["c"].isalnum()]
        if ascii_:
            best = max(ascii_, key=lambda c: (c.isalpha() and c.isupper() == char.isupper(), c.isalpha()))
            table[ord(char)] = best
    return table


def _gap(text: str, s: int, e: int) -> tuple[int, int] | None:
    """The span to delete when the split ``text[s:e]`` (a line break, a tab, spaces, a
    separator) sits inside a token, widened over the spaces and tabs around it."""
    while s > 0 and text[s - 1] in " \t":
        s -= 1
    while e < len(text) and text[e] in " \t":
        e += 1
    if s > 0 and e < len(text) and text[s - 1] in _TOKEN_CHARS and text[e] in _TOKEN_CHARS:
        return s, e
    return None


def _folded(text: str, s: int, e: int, join: bool) -> str:
    """The shadow of the foldable piece ``text[s:e]``; joined: no-break and zero-width
    spaces between two token characters (its neighbours outside included) taken out."""
    piece = text[s:e]
    if join and not _INNER_SPACES.isdisjoint(piece):  # without one, the substitution changes nothing
        left, right = text[s - 1 : s], text[e : e + 1]
        joined = _pattern("inner spaces").sub("", left + piece + right)
        piece = joined[len(left) : len(joined) - len(right)]
    return fold(piece) if len(piece) < 64 else _fold_long(piece)


def _fold_long(piece: str) -> str:
    """``fold`` without the cache (a long piece is seen once)."""
    return fold.__wrapped__(piece)


class View(namedtuple("View", "text starts pieces")):
    """A shadow text; per piece its shadow start (``starts``, for the binary search) and
    (original start, original length, copied as is)."""

    __slots__ = ()
    text: str
    starts: list[int]
    pieces: list[tuple[int, int, bool]]

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The original span of shadow span ``[start, end)`` (whole changed pieces included)."""
        if end <= start:
            o = self._at(start)
            return o, o
        return self._at(start), self._at(end - 1, last=True)

    def _at(self, pos: int, *, last: bool = False) -> int:
        i = max(0, bisect.bisect_right(self.starts, pos) - 1)
        orig, length, copied = self.pieces[i]
        if copied:
            return orig + (pos - self.starts[i]) + (1 if last else 0)
        return orig + length if last else orig


def shadow(text: str, *, join: bool) -> View | None:
    """The folded (and, with ``join``, joined) view of ``text``; None when it is ``text``."""
    pattern = _fold_pattern(text, join)
    parts: list[str] = []
    starts: list[int] = []
    pieces: list[tuple[int, int, bool]] = []
    pos = out = 0
    changed = False
    for m in pattern.finditer(text):
        s, e = m.span()
        if m.lastgroup == "gap":
            gap = _gap(text, s, e)
            if gap is None:
                continue
            s, e = gap
            new = ""
        elif (
            m.lastgroup == "mixed"
            and not (text[s - 1 : s] in _ASCII_WORD or text[e : e + 1] in _ASCII_WORD)
            or (new := _folded(text, s, e, join)) == m.group()
        ):
            continue
        if s < pos:  # the spaces before a break were already copied: never happens twice
            continue
        if s > pos:
            parts.append(text[pos:s])
            starts.append(out)
            pieces.append((pos, s - pos, True))
            out += s - pos
        parts.append(new)
        starts.append(out)
        pieces.append((s, e - s, False))
        out += len(new)
        pos = e
        changed = True
    if not changed:
        return None
    parts.append(text[pos:])
    starts.append(out)
    pieces.append((pos, len(text) - pos, True))
    return View("".join(parts), starts, pieces)
