"""``duplicate`` and ``contradiction``: pairs of memories that say the same thing, or the
same thing with different values.

Duplicates between store entries: keyword overlap (Jaccard of content words, found by a
prefix-filtered join, never every pair) and, when the search index holds current vectors,
their cosine too — a pair close in meaning with some shared words. Between a store entry
and a host memory line, and for contradictions, sentences are paired: each sentence's
words with its typed values masked (``<day>``, ``<version>`` …) are joined the same way,
then aligned; the same words with the same values is a duplicate, the same words with a
different value of the same type (Monday/Friday, PostgreSQL 15/16) a contradiction.
Sentences of one memory are never paired with each other (a numbered list is not a
contradiction); journals are logs of what happened, not claims, and are left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from memsearch_tui.engine.hygiene.checks import shown
from memsearch_tui.engine.hygiene.llm_check import UnsettledPair
from memsearch_tui.engine.hygiene.records import Finding
from memsearch_tui.engine.hygiene.sources import Unit
from memsearch_tui.engine.hygiene.text import (
    _STOP,
    conflicting,
    jaccard,
    sentences,
    similar_pairs,
    tokens,
    values,
    weight,
    words,
)

DUP_WORDS = 0.6  # keyword overlap alone
DUP_WORDS_WITH_VECTOR = 0.3  # ... when the vectors agree
DUP_COSINE = 0.9
TEMPLATE = 0.75  # masked sentences paired at this overlap, then aligned
ALIGN = 0.85
MIN_WORDS = 2  # content words around the values (staging resets <day>)
MIN_WORDS_NUMBER = 5  # a bare number needs more context (not "Sprint 3" vs "Sprint 4", 硬棘10枚 vs 11枚)
MIN_WORDS_NAME = 3  # "Thanks, Mel" / "Thanks, Jon" is a greeting, not a claim
MAX_DIFFERENT = 2  # more values apart than this: two records of different things, not one claim twice
MAX_SENTENCES = 200_000
MAX_GROUP = 50  # sentences with the very same words: more is a template filled in, not a claim
MAX_POSTING = 5_000  # entry sentences looked at per host word


@dataclass(frozen=True)
class Sentence:
    unit: int
    line: int
    text: str
    seq: tuple[str, ...]  # tokens, values masked by type
    values: tuple[tuple[str, str], ...]  # (type, value) in order
    content: float
    core: tuple[str, ...]  # the content words and value slots, in order: what must match exactly


def _sentence(unit: int, line: int, text: str) -> Sentence | None:
    seq: list[str] = []
    values: list[tuple[str, str]] = []
    core: list[str] = []
    content = 0.0
    for t, k in tokens(text):  # one pass: this runs for every sentence of the store
        if k:
            seq.append(f"<{k}>")
            core.append(seq[-1])
            values.append((k, t))
        else:
            seq.append(t)
            if t not in _STOP:
                content += weight(t)
                core.append(t)
    if content < MIN_WORDS:
        return None
    return Sentence(unit, line, text, tuple(seq), tuple(values), content, tuple(core))


def entry_duplicates(entries: list[Unit], vectors: dict[str, Any]) -> list[Finding]:
    """Store entries saying the same thing (active and expired ones)."""
    live = [u for u in entries if u.status in ("active", "expired")]
    sets = [words(u.text) for u in live]  # titles differ more than bodies between two copies
    scored: dict[tuple[int, int], float | None] = dict.fromkeys(similar_pairs(sets, DUP_WORDS))
    if vectors:
        for (i, j), cosine in _vector_pairs(live, vectors):
            if jaccard(sets[i], sets[j]) >= DUP_WORDS_WITH_VECTOR:
                scored[(i, j)] = cosine
    typed: dict[int, set[tuple[str, str]]] = {}  # each entry's values, typed once (not once per pair)
    for i, j in list(scored):  # the same words with other values: a contradiction, not a duplicate
        for k in (i, j):
            if k not in typed:
                typed[k] = values(live[k].text)
        if conflicting(typed[i], typed[j]):
            del scored[(i, j)]
    out = []
    for (i, j), cos in sorted(scored.items()):
        a, b = sorted((live[i], live[j]), key=lambda u: (u.updated, u.ref))
        ev = [f"{a.ref}: {shown(a.text)}", f"{b.ref}: {shown(b.text)}"]
        ev.append(f"keyword overlap {jaccard(sets[i], sets[j]):.2f}" + (f", vector cosine {cos:.2f}" if cos else ""))
        fix = f"merge {a.ref} into {b.ref} (the newer), keeping both texts' facts; {a.ref} to the trash"
        out.append(Finding("duplicate", (a.ref, b.ref), tuple(ev), fix))
    return out


def _vector_pairs(live: list[Unit], vectors: dict[str, Any]) -> list[tuple[tuple[int, int], float]]:
    import numpy as np  # heavy: only with an index's vectors

    idx = [i for i, u in enumerate(live) if u.ref in vectors]
    if len(idx) < 2:
        return []
    mat = np.stack([vectors[live[i].ref] for i in idx]).astype(np.float32)
    out = []
    for start in range(0, len(idx), 1024):  # blocks: 1024 x n floats at a time
        sims = mat[start : start + 1024] @ mat.T
        rows, cols = np.nonzero(sims >= DUP_COSINE)
        for r, c in zip(rows.tolist(), cols.tolist()):
            a, b = start + r, c
            if a < b:
                out.append(((idx[a], idx[b]), float(sims[r, c])))
    return out


def sentence_pairs(
    entries: list[Unit], host: list[Unit], unsettled: list[UnsettledPair] | None = None
) -> list[Finding]:
    """Contradictions between any two memories; duplicates between a store entry and a
    host memory line (two entries are compared whole by :func:`entry_duplicates`).

    Contradictions pair sentences with the same words (``core``) through one dictionary:
    linear, whatever the store's size. A group of more than :data:`MAX_GROUP` sentences
    with the same words is boilerplate (a template filled in many times), not a claim,
    and is left out. Host lines (few) are matched against entry sentences through an
    index of the host lines' own words only. ``unsettled`` (when given) gets the pairs alike
    in words whose values no rule decided, for the optional LLM check."""
    units = [u for u in entries if u.status in ("active", "expired")] + host
    sents: list[Sentence] = []
    for n, u in enumerate(units):
        for off, text in sentences(u.text):
            s = _sentence(n, u.line0 + off, text)
            if s is not None:
                sents.append(s)
        if len(sents) >= MAX_SENTENCES:
            break
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, s in enumerate(sents):
        groups.setdefault(s.core, []).append(i)
    pairs: set[tuple[int, int]] = set()
    for members in groups.values():
        if 1 < len(members) <= MAX_GROUP:
            pairs.update((i, j) for x, i in enumerate(members) for j in members[x + 1 :])
    pairs |= _host_pairs(sents, units)
    out = []
    seen: set[tuple[str, frozenset[str]]] = set()
    for i, j in sorted(pairs):
        a, b = sents[i], sents[j]
        if a.unit == b.unit:
            continue
        ua, ub = units[a.unit], units[b.unit]
        kind = _compare(a, b)
        if kind is None and unsettled is not None and _unsettled(a, b):
            key = ("unsettled", frozenset((ua.ref, ub.ref)))
            if key not in seen:
                seen.add(key)
                x, y, ux, uy = (a, b, ua, ub) if (ua.updated, ua.ref) <= (ub.updated, ub.ref) else (b, a, ub, ua)
                unsettled.append(UnsettledPair(ux.ref, uy.ref, _at(ux, x), _at(uy, y), shown(x.text), shown(y.text)))
        if kind is None or (kind == "duplicate" and ("host" not in (ua.where, ub.where) or ua.where == ub.where)):
            continue
        key = (kind, frozenset((ua.ref, ub.ref)))
        if key in seen:
            continue
        seen.add(key)
        if ua.where == "store" and ub.where == "store":
            ua, ub, a, b = (ua, ub, a, b) if (ua.updated, ua.ref) <= (ub.updated, ub.ref) else (ub, ua, b, a)
        ev: tuple[str, ...] = (f"{_at(ua, a)}: {shown(a.text)}", f"{_at(ub, b)}: {shown(b.text)}")
        if kind == "contradiction":
            diff = [(x[0], f"{x[1]} ≠ {y[1]}") for x, y in zip(a.values, b.values) if x != y]
            types = sorted({t for t, _ in diff})
            ev += (f"different {'/'.join(types)}: {', '.join(d for _, d in diff)}",)
            fix = f"settle it: keep one and archive the other (newer: {ub.ref})"
        else:
            fix = f"drop the host line or the entry: {ua.ref} and {ub.ref} say the same"
        out.append(Finding(kind, (ua.ref, ub.ref), ev, fix))
    return out


def _host_pairs(sents: list[Sentence], units: list[Unit]) -> set[tuple[int, int]]:
    """(entry sentence, host sentence) index pairs sharing enough words to compare."""
    host = [i for i, s in enumerate(sents) if units[s.unit].where == "host"]
    if not host:
        return set()
    sets = {i: {t for t in sents[i].seq if t not in _STOP} for i in host}
    wanted = set().union(*sets.values())
    index: dict[str, list[int]] = {}
    for i, s in enumerate(sents):
        if units[s.unit].where != "host":
            for t in {t for t in s.seq if t in wanted}:
                index.setdefault(t, []).append(i)
    out = set()
    for h in host:
        counts: dict[int, int] = {}
        for t in sets[h]:
            for i in index.get(t, ())[:MAX_POSTING]:
                counts[i] = counts.get(i, 0) + 1
        for i, shared in counts.items():
            if shared >= TEMPLATE * len(sets[h]):
                out.add((min(i, h), max(i, h)))
    return out


def _at(u: Unit, s: Sentence) -> str:
    return f"{u.ref} line {s.line}" if u.where == "store" else f"{u.path} line {s.line}"


def _unsettled(a: Sentence, b: Sentence) -> bool:
    """The same words around values that differ, where no rule decided (too few words
    around a number or a name, more values apart than a claim has): the LLM check's
    candidates. Two different ids are two subjects: settled."""
    if a.core != b.core or a.values == b.values:
        return False
    return {v for k, v in a.values if k == "id"} == {v for k, v in b.values if k == "id"}


def _compare(a: Sentence, b: Sentence) -> str | None:
    """ "duplicate", "contradiction" or None for two sentences already similar in words."""
    if a.core != b.core and SequenceMatcher(None, a.seq, b.seq, autojunk=False).ratio() < ALIGN:
        return None
    if [k for k, _ in a.values] != [k for k, _ in b.values]:
        return None
    if a.values == b.values:
        return "duplicate"
    differ = [k for (k, x), (_, y) in zip(a.values, b.values) if x != y]
    if "id" in differ:
        return None  # service #4 and service #46: two subjects, whatever their values say
    if a.core != b.core or len(differ) > MAX_DIFFERENT:
        return None  # a contradiction is the same claim word for word, a value apart
    if "number" in differ and min(a.content, b.content) < MIN_WORDS_NUMBER:
        return None
    if "name" in differ and min(a.content, b.content) < MIN_WORDS_NAME:
        return None
    return "contradiction"
