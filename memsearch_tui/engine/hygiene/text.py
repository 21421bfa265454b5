"""Sentences, words and typed values, in English and Chinese, for pairing similar memories.

A sentence becomes a list of tokens (a word, a number, one Han character); a token that
is a *typed value* — a weekday, a date, a version, a number, a time, a capitalised name,
or an id (a number after `#` or after a noun that names things, "incident 1021", "工单
3301": it names the subject, and two ids are two things) —
is kept with its type, so two sentences can be compared as "the same words around
different values" (``contradiction``) or "the same words and values" (``duplicate``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

MAX_SENTENCE = 400  # characters: a longer run is a paste, not a statement

_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_DAY = "一二三四五六日天"
_TOKEN = re.compile(
    r"(?:周|星期|礼拜)[一二三四五六日天]"  # a Chinese weekday
    r"|\d{4}年\d{1,2}月\d{1,2}日"  # a Chinese date
    r"|\d{4}-\d{2}-\d{2}"  # an ISO date
    r"|\d{1,2}:\d{2}"  # a time
    r"|v?\d+(?:\.\d+)+"  # a version
    r"|\d+"  # a number
    r"|[A-Za-z][\w'+#-]*"  # a word (C++, C#, on-call)
    r"|[\u3400-\u9fff]"  # one Han character
)
# A token with the nearest non-space character before it when that is not part of a token
# (a character no token starts with: not a letter, digit or Han), else "".
_TOKEN_AFTER = re.compile(r"([^\s\dA-Za-z\u3400-\u9fff]?)\s*(" + _TOKEN.pattern + ")")
_CLAUSE = frozenset(":,;!?(\"'“‘—-，：；（")  # a word after these starts a clause: its capital is grammar
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")
_STRIP = re.compile(r"^\s*(?:[-*+>]|\d+[.)]|#+)\s+")

# Words that start a sentence or are capitalised for grammar, not because they name someone.
_NOT_NAMES = frozenset(
    [
        "i",
        "the",
        "a",
        "an",
        "we",
        "our",
        "it",
        "this",
        "that",
        "these",
        "those",
        "they",
        "he",
        "she",
        "you",
        "use",
        "run",
        "always",
        "never",
        "do",
        "don't",
        "note",
        "todo",
        "see",
        "also",
        "when",
        "if",
        "on",
        "in",
        "at",
        "by",
        "for",
        "from",
        "to",
        "of",
        "and",
        "or",
        "but",
    ]
)
_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "to",
        "of",
        "in",
        "on",
        "at",
        "by",
        "for",
        "and",
        "or",
        "with",
        "as",
        "it",
        "this",
        "that",
        "的",
        "了",
        "是",
        "在",
        "和",
        "与",
        "及",
        "每",
    ]
)


# Nouns a number after names a thing rather than measures it: "incident 1021" and "incident
# 1022" are two incidents (both can have happened), not one value given twice.
_ID_WORDS = frozenset(
    ["incident", "ticket", "issue", "bug", "pr", "case", "order", "invoice", "job", "story", "epic", "jira", "room"]
)
_ID_WORDS_ZH = frozenset(["工单", "事故", "故障", "需求", "订单", "编号", "案例", "任务"])  # two Han tokens


def sentences(text: str) -> Iterator[tuple[int, str]]:
    """(line offset within ``text``, sentence) for each statement: list markers and
    headings stripped, code fences skipped, over-long runs dropped."""
    fence = False
    for n, line in enumerate(text.splitlines()):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence or not line.strip():
            continue
        for part in _SENTENCE_END.split(_STRIP.sub("", line)):
            part = part.strip().rstrip(".!?;。！？；").strip()
            if part and len(part) <= MAX_SENTENCE:
                yield n, part


def value_type(tok: str, first: bool) -> str:
    """The type of a token that is a value ("" for an ordinary word)."""
    low = tok.lower()
    if low in _WEEKDAYS_EN or (len(tok) >= 2 and tok[-1] in _ZH_DAY and tok[:-1] in ("周", "星期", "礼拜")):
        return "day"
    if tok[0].isdigit() or (tok[0] in "vV" and len(tok) > 1 and tok[1].isdigit()):
        if "-" in tok or "年" in tok:
            return "date"
        if ":" in tok:
            return "time"
        return "version" if "." in tok else "number"
    if tok[0].isupper() and not first and low not in _NOT_NAMES and tok[1:].islower() and tok.isalpha():
        return "name"
    return ""


def tokens(sentence: str) -> list[tuple[str, str]]:
    """(normalised token, value type) of each token of ``sentence``.

    One ``findall`` over :data:`_TOKEN_AFTER` gives each token with the punctuation just
    before it (none when only spaces or the previous token precede it), which is all the
    "starts a clause" test needs: no match objects, no walking back (the hot loop of a
    store-wide pass)."""
    out: list[tuple[str, str]] = []
    prev = prev2 = ""
    for i, (before, tok) in enumerate(_TOKEN_AFTER.findall(sentence)):
        if (tok[0].islower() and tok not in _WEEKDAYS_EN) or (len(tok) == 1 and tok >= "\u3400"):
            out.append((tok, ""))  # the common case, a lower-case word or one Han character: no value
            prev, prev2 = tok, prev
            continue
        kind = value_type(tok, i == 0 or (before or prev[-1:]) in _CLAUSE)
        if kind == "number" and prev[:1].isalpha() and any(c.isupper() for c in prev[1:]):
            kind = "version"  # PostgreSQL 15, MySQL 8, iOS 17: a product's number is its version
        if kind == "number" and (before == "#" or prev.lower() in _ID_WORDS or prev2 + prev in _ID_WORDS_ZH):
            kind = "id"  # service #4, 工单 #7, incident 1021, 工单 3301: the number names what it is about
        if kind == "name" and out and out[-1][1] == "name":
            out[-1] = (out[-1][0], "")  # "New York", "Jon Snow": a run of capitals is one name, not
            kind = ""  # two values to compare; left as words
        out.append((_norm(tok, kind), kind))
        prev, prev2 = tok, prev
    return out


def weight(tok: str) -> float:
    """How much a content token says: a word 1, a single Han character ½ (two make a word)."""
    return 0.5 if len(tok) == 1 and "\u3400" <= tok <= "\u9fff" else 1.0


def conflicting(a: set[tuple[str, str]], b: set[tuple[str, str]]) -> bool:
    """Whether two memories' typed values disagree: a type both have, with no value in common."""
    types = {k for k, _ in a} & {k for k, _ in b}
    return any(not ({v for k, v in a if k == t} & {v for k, v in b if k == t}) for t in types)


def values(text: str) -> set[tuple[str, str]]:
    """The typed values of ``text``: (type, value)."""
    return {(k, t) for t, k in tokens(text) if k}


def _norm(tok: str, kind: str) -> str:
    if kind == "day":
        if tok[-1] in _ZH_DAY:  # 周一 = 星期一 = monday
            return _WEEKDAYS_EN[(_ZH_DAY.index(tok[-1])) if tok[-1] != "天" else 6]
        return tok.lower()
    if kind in ("version", "number"):
        return tok.lower().lstrip("v")
    return tok.lower()


def words(text: str) -> set[str]:
    """The content words of ``text`` (stopwords out, English endings cut), values included:
    what duplicate overlap compares."""
    return {_stem(t) if len(t) <= STEM_CHARS else t for t in _TOKEN.findall(text.lower()) if t not in _STOP}


STEM_CHARS = 40  # a longer "word" (a hash, a pasted blob) is never stemmed nor cached


@functools.lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    """A light English stem (merging/merged/merges → merg): enough for two wordings of one
    fact. Cached (LRU, words of at most STEM_CHARS: ~20 MB at most): a store's vocabulary
    is small beside its word count."""
    if len(word) > 4 and word.isascii():
        for end in ("ing", "ed", "es", "s"):
            if word.endswith(end) and len(word) - len(end) >= 3:
                return word[: -len(end)]
    return word


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def similar_pairs(sets: list[set[str]], threshold: float, *, max_posting: int = 32) -> set[tuple[int, int]]:
    """Index pairs ``(i, j)``, ``i < j``, whose Jaccard similarity is at least ``threshold``.

    Prefix filtering (Chaudhuri et al., "A primitive operator for similarity joins"): with
    the tokens of every set ordered rarest first, two sets that reach ``threshold`` share a
    token among the first ``|x| - ceil(threshold * |x|) + 1`` of each; only those are
    indexed, so the join is near linear instead of every pair. A token in more than
    ``max_posting`` sets is too common to pair on (a pair sharing only such tokens is not
    found: boilerplate, not a memory)."""
    import math
    from collections import Counter

    freq: Counter[str] = Counter()
    for s in sets:
        freq.update(s)
    postings: dict[str, list[int]] = {}
    out: set[tuple[int, int]] = set()
    for i, s in enumerate(sets):
        if not s:
            continue
        ordered = sorted(s, key=lambda t: (freq[t], t))
        prefix = len(ordered) - math.ceil(threshold * len(ordered)) + 1
        seen: set[int] = set()
        for tok in ordered[:prefix]:
            posting = postings.setdefault(tok, [])
            if len(posting) < max_posting:
                seen.update(posting)
                posting.append(i)
        for j in seen:
            if jaccard(sets[j], s) >= threshold:
                out.add((j, i))
    return out
