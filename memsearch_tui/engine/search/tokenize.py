"""Keyword tokens for the BM25 ranker: words for alphabetic scripts, bigrams for CJK.

SQLite's ``unicode61`` tokenizer keeps a run of Chinese characters as one token, so
"用户偏好设置" would only match itself. We pre-tokenize: Latin/digit words are lower-cased
(FTS5's porter stemmer then folds "painting"/"painted"), and each CJK run becomes its
single characters plus overlapping bigrams, the usual dictionary-free CJK indexing. A
query is tokenized the same way, so a Chinese substring of two or more characters
matches wherever it occurs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

# CJK ideographs, kana, hangul; everything else alphanumeric counts as a "word" character.
CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_CJK = CJK_CHARS
CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF))  # = CJK_CHARS
_CJK_LOW = min(lo for lo, _ in CJK_RANGES)  # below it no character is CJK (most of any English text)
SHORT = 4000  # characters: a query up to this long is split by :func:`_runs_short`, not the regex


@lru_cache(maxsize=1)
def _token_re() -> re.Pattern[str]:
    """Runs of CJK characters, and runs of other letters and digits. Compiled on first use:
    the two Unicode classes take ~20 ms to compile, more than a CLI search's query needs."""
    return re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+", re.UNICODE)


@lru_cache(maxsize=1)
def _split_re() -> re.Pattern[str]:
    """:func:`_token_re` with a group per kind, so a match says which it is (no per-run test)."""
    return re.compile(rf"([{_CJK}]+)|([^\W_{_CJK}]+)", re.UNICODE)


def is_cjk(char: str) -> bool:
    """Whether ``char`` is in :data:`CJK_CHARS`."""
    o = ord(char)
    return o >= _CJK_LOW and any(lo <= o <= hi for lo, hi in CJK_RANGES)


def _runs_short(text: str) -> Iterator[str]:
    """What ``_token_re().finditer`` yields, by a walk over the characters: a run of CJK
    characters, or a run of other characters ``str.isalnum`` accepts (= ``[^\\W_]``)."""
    kind, start = 0, 0  # 0: between tokens, 1: in a CJK run, 2: in a word
    for i, c in enumerate(text):
        k = 1 if is_cjk(c) else 2 if c.isalnum() else 0
        if k != kind:
            if kind:
                yield text[start:i]
            kind, start = k, i
    if kind:
        yield text[start:]


def runs(text: str, *, query: bool = False) -> Iterator[str]:
    """The token runs of ``text`` (already lower-cased): CJK runs and word runs, in order.

    A query (short, one per search) is walked in Python: a one-shot search need not compile
    the regex. Indexed text goes through the regex, several times faster per character."""
    if query and len(text) < SHORT:
        return _runs_short(text)
    return (m.group() for m in _token_re().finditer(text))


STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "she",
        "so",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "you",
        "your",
    ]
)


def tokens(text: str, *, drop_stopwords: bool = False, query: bool = False) -> list[str]:
    """Index/query tokens of ``text`` in order (CJK as unigrams + bigrams); ``query``: see :func:`runs`."""
    if query and len(text) < SHORT:
        split = [(run, "") if is_cjk(run[0]) else ("", run) for run in runs(text.lower(), query=True)]
    else:
        # Indexed text (every chunk's body, heading and context: ~55 % of the CPU of reading the
        # files into the manifest at 10k chunks): one findall whose groups tell CJK from words,
        # 1.8x faster than testing each run's first character (benchmarks/README.md, Session 14).
        split = _split_re().findall(text.lower())
    out: list[str] = []
    for cjk, word in split:
        if word:
            if not (drop_stopwords and word in STOPWORDS):
                out.append(word)
        else:
            out.extend(cjk)
            out.extend([cjk[i : i + 2] for i in range(len(cjk) - 1)])
    return out


# English particles that make a phrasal verb and its noun: "roll back" / "rollback",
# "set up" / "setup", "check out" / "checkout", "shut down" / "shutdown".
PARTICLES = ("back", "up", "out", "down", "off", "over", "in", "on", "away")


def query_tokens(text: str) -> list[str]:
    """Distinct query tokens; CJK runs contribute bigrams only (unigrams when a single char).

    English compounds match both spellings (:func:`compounds`): a word and a following
    particle add the joined word, a word ending in a particle adds its parts as a phrase.
    """
    seen: dict[str, None] = {}
    words: list[str] = []
    for run in runs(text.lower(), query=True):
        if is_cjk(run[0]):
            grams = [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
            for g in grams:
                seen.setdefault(g, None)
            words.append("")
            continue
        words.append(run)
        if run not in STOPWORDS:
            seen.setdefault(run, None)
    if not seen:  # a query of only stopwords still searches for them
        for t in tokens(text, query=True):
            seen.setdefault(t, None)
    for extra in compounds(words):
        seen.setdefault(extra, None)
    return list(seen)


def compounds(words: list[str]) -> list[str]:
    """The other spelling of each phrasal compound in ``words`` (lower-cased, in order).

    "roll back" → "rollback"; "rollback" → the phrase "roll back" (two words: FTS5 reads a
    token with a space as a phrase). A part that is a stop word ("login" → "log in") or
    shorter than three letters is not split off: it would match noise, not the compound.
    """
    out: list[str] = []
    for a, b in zip(words, words[1:]):
        if b in PARTICLES and a.isalpha() and len(a) >= 2 and a not in STOPWORDS:
            out.append(a + b)
    for w in words:
        for p in PARTICLES:
            head = w[: -len(p)]
            if w.endswith(p) and len(head) >= 3 and head.isalpha() and head not in STOPWORDS and p not in STOPWORDS:
                out.append(f"{head} {p}")
    return out
