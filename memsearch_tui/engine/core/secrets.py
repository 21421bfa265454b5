"""The one secret scanner and redactor: what comes in is refused, what goes out is masked.

In: every store write (body and every frontmatter value), import, an LLM answer before it
becomes a proposal, a proposal edit. Out: error messages, the state file, ``status`` /
``doctor``, ``--json`` fields and TUI toasts go through :func:`redact`, which replaces a
secret by the *kind* of secret it is, never a part of it.

Why RE2 (``google-re2``, BSD-3): every pattern runs on untrusted text (a 1 MB entry, an
LLM answer, a provider's stderr) under the store's write lock, and Python's backtracking
``re`` is quadratic on one long token (a 60 KB hex body took 20 s). RE2 matches in time
linear in the input whatever the pattern. The rules themselves are in
:mod:`~memsearch_tui.engine.core.secret_rules`.

Obfuscated forms are found on shadow copies (:mod:`~memsearch_tui.engine.core.secret_views`):
full-width letters, zero-width characters, combining marks and no-break spaces folded away
for every rule, and a token broken over two lines joined for the token rules; what is found
there is mapped back and masked in the original text.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections import namedtuple
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.core.secret_rules import MAX_QUOTED, RULES, Rule
from memsearch_tui.engine.core.secret_wraps import token_parts
from memsearch_tui.engine.core.text import ELLIPSIS, cell_width, clip_words

if TYPE_CHECKING:
    from memsearch_tui.engine.core.secret_views import View

__all__ = ["MAX_QUOTED", "RULES", "Hit", "Rule", "added_secrets", "find_secret", "found_values", "redact"]
__all__ += ["mask_spans", "prepare_batch", "redact_clip", "redact_data", "refuse_secrets", "secret_spans"]
__all__ += ["clip_masked"]

# Every rule's match holds one of its triggers (case-insensitively): text with none of any
# rule's is passed without importing re2 (most CLI output: the literal search prints
# through here and races grep). Bytes: the rules run on UTF-8 (see ``_hits``).
_TRIGGERS = tuple(sorted({t.encode() for r in RULES for t in r.triggers}))
_ENCODING = ("utf-8", "surrogatepass")  # a lone surrogate (a file read with surrogateescape) is kept
_BLOCK = 4096  # characters per checkpoint of the byte → character offset map


_RULE_TRIGGERS = tuple(tuple(t.encode() for t in r.triggers) for r in RULES)


@functools.cache
def _compiled(i: int) -> Any:
    """``RULES[i]`` compiled, once, on first use: a text holding only common triggers (``.``,
    ``gl``: most search output) compiles the few rules that need them, not all ~80 (~9 ms
    of a one-shot CLI search); ``re2`` stays off the hook's no-op path."""
    import re2  # linear-time matching: see the module docstring

    opts = re2.Options()
    opts.max_mem = 64 << 20
    opts.log_errors = False
    return re2.compile(RULES[i].pattern.encode(), opts)


@functools.cache
def _gate(i: int) -> Any:
    """``RULES[i].gate`` compiled by Python's ``re`` (bounded patterns only: linear)."""
    import re

    return re.compile(str(RULES[i].gate).encode())


@functools.cache
def _trigger_set() -> Any:
    """One RE2 set of every trigger: which of them a big text holds, in one pass."""
    import re2

    found = re2.Set.SearchSet()
    for t in _TRIGGERS:
        found.Add(re2.escape(t))
    found.Compile()
    return found


def _present(low: bytes) -> set[bytes]:
    """The triggers ``low`` (lowercased) holds. A short text is checked with ``in`` (≤ ~60 µs
    for 4 KB): text that holds no trigger never imports re2, and a one-shot process does
    not build the set's matcher (its first match of a CLI search's output took ~4 ms, twice);
    a longer one with one pass of an RE2 set (~2 µs for a line, 2 ms for a megabyte)."""
    if len(low) <= 4096 and not _trigger_set.cache_info().currsize:
        return {t for t in _TRIGGERS if t in low}
    return {_TRIGGERS[i] for i in _trigger_set().Match(low) or ()}


def prepare_batch() -> None:
    """Build the trigger set now: a caller about to scan thousands of texts (hygiene over
    a whole store) then checks each with one RE2 pass (~2 µs for a KB) instead of one
    ``in`` per trigger (~0.2 ms under load). Once built, every later text uses it."""
    _trigger_set()


class Hit(namedtuple("Hit", "kind start end")):
    """One secret found: its kind and where it sits (character offsets of the masked part)."""

    __slots__ = ()
    kind: str
    start: int
    end: int


class _Chars:
    """Character offsets of byte offsets into ``text``'s UTF-8, in O(block) per look-up.

    The rules run on the UTF-8 bytes, encoded once: re2's ``str`` interface encodes the
    text again for every rule and converts each match's offsets from the start, which
    cost ~1 s per MB of Chinese text over 80 rules."""

    def __init__(self, text: str, raw: bytes) -> None:
        self.raw = raw
        self.ascii = len(raw) == len(text)
        self.marks: list[int] = []  # byte offset of every _BLOCK-th character
        if not self.ascii:
            pos = 0
            for i in range(0, len(text), _BLOCK):
                self.marks.append(pos)
                pos += len(text[i : i + _BLOCK].encode(*_ENCODING))

    def at(self, byte: int) -> int:
        if self.ascii:
            return byte
        k = bisect.bisect_right(self.marks, byte) - 1
        return k * _BLOCK + len(self.raw[self.marks[k] : byte].decode(*_ENCODING))


def _hits(text: str, *, joined: bool = False) -> Iterator[Hit]:
    """Every rule's matches in ``text``; ``joined``: only the rules that survive joining."""
    raw = text.encode(*_ENCODING)
    low = raw.lower()  # ASCII letters only: every trigger is ASCII or CJK
    present = _present(low)
    if not present:
        return
    chars = _Chars(text, raw)
    for i, rule in enumerate(RULES):
        triggers = _RULE_TRIGGERS[i]
        if (joined and not rule.joinable) or (triggers and present.isdisjoint(triggers)):
            continue
        if rule.gate is not None and _gate(i).search(low) is None:
            continue
        rx = _compiled(i)
        covered = -1  # a key block's extension: BEGIN lines inside it are the same block
        seen: dict[str, int] = {}
        for m in rx.finditer(raw):
            bstart, bend = m.span(rule.group)
            if bstart < 0:
                continue
            start = chars.at(bstart)
            if start < covered:
                continue
            value = raw[bstart:bend].decode(*_ENCODING)
            if rule.accept is not None and not rule.accept(value):
                continue
            end = start + len(value)
            if rule.extend is not None:
                end = covered = rule.extend(text, end, seen)
            yield Hit(rule.name, start, end)


#: what :func:`redact` writes in a secret's place (the display mask, or a write's marker),
#: with the kind it names: a match inside one is our own words, not a secret
_MARKER = re.compile(r"\[(?:redacted|secret removed): ([^\]\n]{1,80})\]")
_KINDS = frozenset(r.name for r in RULES)


def _ours(text: str) -> Callable[[Hit], bool]:
    """Whether a hit lies inside one of our own markers in ``text``. "password
    [redacted: .netrc password]" read as a .netrc password ``[redacted:``, so text masked
    twice (a face masking what its caller had masked) said "[redacted: …] .netrc password]",
    and a hygiene fix's ``[secret removed: …]`` was a secret again."""
    spans = [m.span() for m in _MARKER.finditer(text) if m.group(1) in _KINDS] if "[" in text else []
    starts = [start for start, _ in spans]  # in order, apart: one look-up per hit, never a scan

    def inside(h: Hit) -> bool:
        i = bisect.bisect_right(starts, h.start) - 1
        return i >= 0 and h.end <= spans[i][1]

    return inside


def _all_hits(text: str) -> Iterator[tuple[Hit, str, bool]]:
    """(hit in ``text``'s offsets, the matched text as the rule saw it, whether it was found
    only with lines joined), none inside our own markers (:func:`_ours`): the plain text
    first, then the folded view, then the joined one (each only when it differs from the text)."""
    ours: Callable[[Hit], bool] | None = None
    for hit, value, joined in _every_hit(text):
        ours = ours or _ours(text)
        if not ours(hit):
            yield hit, value, joined


def _every_hit(text: str) -> Iterator[tuple[Hit, str, bool]]:
    plain: dict[tuple[str, int], int] = {}  # (kind, start) → end of each match without joining
    for h in _hits(text):
        plain[h.kind, h.start] = h.end
        yield h, text[h.start : h.end], False
    from memsearch_tui.engine.core.secret_views import shadow

    for join in (False, True) if not text.isascii() else (True,):
        view = shadow(text, join=join)
        if view is None:
            continue
        for h in _hits(view.text, joined=join):
            value = view.text[h.start : h.end]
            if not join:
                yield Hit(h.kind, *view.original(h.start, h.end)), value, join
                continue
            whole = functools.partial(_whole_at, plain, view, h)
            for span in token_parts(text, view, h.start, h.end, whole):  # the token, not the next word
                yield Hit(h.kind, *span), value, join


def _whole_at(plain: dict[tuple[str, int], int], view: View, h: Hit, cut: int) -> bool:
    """Whether the joined view's match ``h`` is a whole secret cut at ``cut``: at once when a
    match without joining ends there (a token glued to the next line's first word)."""
    start, end = view.original(h.start, cut)
    return plain.get((h.kind, start)) == end or _whole(h.kind, view.text, h.start, cut)


@functools.cache
def _joinable(kind: str) -> tuple[int, ...]:
    """Indexes of the joinable rules named ``kind``."""
    return tuple(i for i, r in enumerate(RULES) if r.name == kind and r.joinable)


def _whole(kind: str, text: str, start: int, cut: int) -> bool:
    """Whether a ``kind`` rule matches a secret starting at ``start`` in ``text[:cut]`` (one
    character before it read for a rule's token start)."""
    left = max(0, start - 1)
    raw = text[left:cut].encode(*_ENCODING)
    at = len(text[left:start].encode(*_ENCODING))
    for i in _joinable(kind):
        accept = RULES[i].accept
        for m in _compiled(i).finditer(raw):
            if m.start(RULES[i].group) == at:
                value = raw[at : m.end(RULES[i].group)].decode(*_ENCODING)
                if accept is None or accept(value):
                    return True
    return False


def find_secret(text: str) -> str | None:
    """Name of the first kind of secret in ``text`` (plain or obfuscated), or None."""
    if not text:
        return None
    for hit, _, _ in _all_hits(text):
        return hit.kind
    return None


def found_values(text: str) -> set[tuple[str, str]]:
    """(kind, matched text) of every secret in ``text`` (obfuscated ones as folded): what a
    rewrite may keep (it was there already) but must not add. A match of the joined view
    that overlaps one found without joining is that secret again (glued to the next line's
    first word), not a new one."""
    if not text:
        return set()
    hits = list(_all_hits(text))
    plain = sorted((h.start, h.end) for h, _, joined in hits if not joined)
    starts = [s for s, _ in plain]
    reach = list(itertools.accumulate((e for _, e in plain), max))  # furthest end so far
    return {(h.kind, value) for h, value, joined in hits if not (joined and _overlaps(starts, reach, h))}


def _overlaps(starts: list[int], reach: list[int], h: Hit) -> bool:
    """Whether ``h`` overlaps a plain match: one starting before ``h`` ends reaches past its start."""
    i = bisect.bisect_left(starts, h.end)
    return i > 0 and reach[i - 1] > h.start


def added_secrets(old: str, new: str) -> list[str]:
    """Kinds of the secrets in ``new`` that ``old`` does not already hold."""
    before = {value for _, value in found_values(old)}
    return sorted({kind for kind, value in found_values(new) if value not in before})


def redact(text: str, marker: str = "[redacted: {kind}]") -> str:
    """``text`` with every secret replaced by ``[redacted: <kind>]`` (plain or obfuscated);
    a private key block from its BEGIN line to its END line. ``marker`` (``{kind}`` filled
    in) lets a write use a text distinct from the display mask, so its diff shows a change."""
    if not text:
        return text
    return _mask(text, [h for h, _, _ in _all_hits(text)], marker)


def redact_clip(text: str, width: int, cells: Callable[[str], int] = cell_width) -> str:
    """``text`` masked, *then* cut to ``width`` cells at a word (:func:`clip_masked`): cut
    first, a token across the cut lost its end and slipped past the redactor half shown."""
    return clip_masked(redact(text), width, cells)


WRITTEN_WIDTH = 120  # cells of an untrusted path a reason quotes (a 1,200-character one filled screens)


def masked_repr(text: str, width: int = WRITTEN_WIDTH) -> str:
    """``text`` quoted and escaped as ``repr`` does (a line break as ``\\n``, ESC as
    ``\\x1b``), masked *first* and cut to ``width`` cells (a marker kept whole): masked
    after ``repr``, a token wrapped over two lines read as two short pieces and printed in
    clear. For an untrusted path a message names (a tampered proposal's target)."""
    return repr(clip_masked(redact(text), width, at_word=False))


def clip_masked(masked: str, width: int, cells: Callable[[str], int] = cell_width, *, at_word: bool = True) -> str:
    """Masked text cut to ``width`` cells at a word (``clip_words``; ``at_word=False``: at
    the last cell that fits), a marker kept whole or dropped whole: a cut inside one
    ("[redacted: Git…" would name a kind that is not one) drops it, so what is left is the
    text before it and "…". For a face that masked its text already (a table cell, a row)."""
    cut = clip_words(masked, width, cells) if at_word else _clip_cells(masked, width, cells)
    if cut == masked or not cut.endswith(ELLIPSIS):
        return cut
    body = cut[: -len(ELLIPSIS)]
    for m in _MARKER.finditer(masked, 0, len(body) + 100):  # a marker: at most 92 characters
        if m.start() < len(body) < m.end():
            return masked[: m.start()].rstrip() + ELLIPSIS
    return cut


def _clip_cells(text: str, width: int, cells: Callable[[str], int]) -> str:
    """``text`` in ``width`` cells, cut at the last character that leaves room for "…"."""
    if width <= 0 or cells(text) <= width:
        return text if width > 0 else ""
    used = 0
    for i, ch in enumerate(text):
        used += cells(ch)
        if used > width - 1:
            return text[:i] + ELLIPSIS
    return text  # pragma: no cover - cells(text) > width means some character overflows


def secret_spans(text: str) -> list[Hit]:
    """Every secret in ``text`` (plain or obfuscated) with where it sits, sorted and merged
    where they overlap: what :func:`redact` masks, for a caller that shows only part of the
    text (a search snippet) and masks that part with :func:`mask_spans`."""
    if not text:
        return []
    merged: list[Hit] = []
    for h in sorted((h for h, _, _ in _all_hits(text)), key=lambda h: (h.start, -h.end)):
        if merged and h.start < merged[-1].end:
            if h.end > merged[-1].end:
                merged[-1] = merged[-1]._replace(end=h.end)
            continue
        merged.append(h)
    return merged


def mask_spans(text: str, hits: list[Hit]) -> str:
    """``text`` with each of ``hits`` (offsets into it) replaced by ``[redacted: <kind>]``."""
    return _mask(text, hits)


def _mask(text: str, hits: list[Hit], marker: str = "[redacted: {kind}]") -> str:
    if not hits:
        return text
    parts: list[str] = []
    pos = 0
    for h in sorted(hits, key=lambda h: (h.start, -h.end)):
        if h.start < pos:  # overlaps a span already masked (OpenAI's rule under Anthropic's)
            pos = max(pos, h.end)
            continue
        parts += [text[pos : h.start], marker.format(kind=h.kind)]
        pos = h.end
    parts.append(text[pos:])
    return "".join(parts)


def redact_data(value: Any) -> Any:
    """``value`` with every string inside (dict values, list items) redacted; for ``--json``.

    One scan of all the strings joined decides whether any needs masking (a search result
    holds thousands of short strings, and one scan per string would cost ~70 µs each)."""
    strings: list[str] = []
    _strings(value, strings)
    if not strings or find_secret("\n".join(strings)) is None:
        return value
    return _redact_each(value)


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)
    elif not isinstance(value, (int, float, type(None))):
        out.append(str(value))  # a Path, a date: what json.dumps(default=str) will print


def _redact_each(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redact_each(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redact_each(v) for v in value]
    if isinstance(value, (int, float, type(None))):
        return value
    return redact(str(value))


def refuse_secrets(where: str, *texts: str) -> None:
    """Raise Refused naming the kind of secret found (never the secret itself).

    ``where`` is redacted too: it is often a title, and a title can hold the secret.
    """
    for text in texts:
        name = find_secret(text)
        if name:
            raise Refused(
                f"{redact(where)}: looks like it contains a secret ({name}); memory must not hold credentials "
                "(remove it or store a reference such as 'see 1Password: deploy key')",
                code="secret",
            )
