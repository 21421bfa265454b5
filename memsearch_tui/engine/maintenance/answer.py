"""Parse the model's answer: one JSON object ``{"action", "reason", "content"}``.

Models wrap JSON in code fences or prose, so we look for it there too — but anything that
is not exactly one usable object is an error (recorded in state), never a partial write.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput, LimitExceeded
from memsearch_tui.engine.core.safe_io import loads_json

ACTIONS = ("none", "replace")
MAX_ANSWER_CHARS = 500_000  # a PROJECT.md rewrite is a few KB; a bigger answer is refused whole
SCAN_BUDGET = 8  # decoding reads the answer at most this many times over (linear time)
_TOKENS = re.compile(r'["{}\[\]]')  # a character class: no backtracking


@dataclass(frozen=True)
class Answer:
    action: str
    reason: str
    content: str = ""


class AnswerError(InvalidInput):
    code = "bad_answer"


class AnswerTooLarge(AnswerError, LimitExceeded):
    """The model's answer is longer than ``MAX_ANSWER_CHARS``: not parsed at all."""

    code = "answer_too_large"


def parse_answer(raw: str) -> Answer:
    """The single answer object in ``raw``; raises ``AnswerError`` otherwise.

    Linear in the answer's length: the size is checked before anything is parsed, code
    fences are found with one ``split``, and JSON objects with one brace-matching scan (a
    bounded number of restarts) instead of a decode attempt at every ``{``, which was
    quadratic on ``{"a":{"a":{"a":…`` that never closes.
    """
    text = (raw or "").strip()
    if not text:
        raise AnswerError("the model returned an empty answer")
    if len(text) > MAX_ANSWER_CHARS:
        raise AnswerTooLarge(f"the model's answer is {len(text):,} characters long; {MAX_ANSWER_CHARS:,} at most")
    for candidate in _candidates(text):
        found = _answer_objects(candidate)
        if len({json.dumps(d, sort_keys=True) for d in found}) > 1:
            raise AnswerError(f"the model gave {len(found)} different answer objects; expected exactly one")
        if found:
            return _validate(found[0])
    raise AnswerError(f"no JSON answer object found in the model's output: {_preview(text)}")


def _candidates(text: str) -> list[str]:
    """The whole text, then the inside of each fenced block (a language tag dropped)."""
    parts = text.split("```")
    fenced = []
    for inside in parts[1:-1:2]:
        first, nl, rest = inside.partition("\n")
        fenced.append(rest if nl and first.strip() in ("json", "JSON", "") else inside.removeprefix("json"))
    return [text, *fenced]


def _answer_objects(text: str) -> list[dict[str, Any]]:
    """Top-level JSON objects with an ``action`` key, in order (braces inside a decoded
    object — e.g. an example in ``content`` — are not scanned again).

    Candidate spans come from one brace-matching pass; each is decoded only if no object
    decoded before holds it, and all decoding together reads at most ``SCAN_BUDGET``
    times the text (a deep nest of invalid objects would otherwise be decoded once per
    level)."""
    found: list[dict[str, Any]] = []
    budget = SCAN_BUDGET * (len(text) + 1)
    covered = -1
    for start, end in sorted(_spans(text), key=lambda se: (se[0], -se[1])):
        if start <= covered:
            continue
        budget -= end - start + 1
        if budget < 0:
            break
        value = _decode(text[start : end + 1])
        if isinstance(value, dict):
            covered = end
            if "action" in value:
                found.append(value)
    return found


def _spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every balanced ``{…}`` (strings and escapes respected), one pass.

    Only ``{`` opens at the top level (prose may hold a stray ``[``); a bracket that closes
    the wrong kind drops what was open. Quotes count only inside a brace (prose has them)."""
    spans: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []
    first = text.find("{")
    skip = -1  # inside a string body up to here
    for m in _TOKENS.finditer(text, max(first, 0)) if first != -1 else ():
        i = m.start()
        if i <= skip:
            continue
        c = m.group()
        if c == '"':
            if stack:
                skip = _string_end(text, i + 1)
                if skip == -1:
                    break
        elif c == "{" or (c == "[" and stack):
            stack.append((c, i))
        elif stack:
            opened, start = stack.pop()
            if (opened == "{") != (c == "}"):
                stack.clear()
            elif c == "}":
                spans.append((start, i))
    return spans


def _string_end(text: str, i: int) -> int:
    """Index of the quote closing a JSON string whose body starts at ``i``, or -1."""
    while True:
        j = text.find('"', i)
        if j == -1:
            return -1
        k = j
        while k > i and text[k - 1] == "\\":
            k -= 1
        if (j - k) % 2 == 0:
            return j
        i = j + 1


def _decode(span: str) -> object:
    try:
        return loads_json(span)
    except ValueError:
        return None


def _validate(data: dict[str, Any]) -> Answer:
    action = data.get("action")
    if action not in ACTIONS:
        raise AnswerError(f'answer action must be "none" or "replace", not {action!r}')
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise AnswerError("answer reason must be a string")
    if action == "none":
        return Answer("none", reason.strip())
    content = data.get("content")
    if not isinstance(content, str) or not content.strip():
        raise AnswerError('answer action "replace" needs a non-empty string content')
    return Answer("replace", reason.strip(), content.strip() + "\n")


def _preview(text: str, n: int = 160) -> str:
    """The start of the model's output for the error message, secrets masked before the cut."""
    from memsearch_tui.engine.core.secrets import redact

    flat = " ".join(redact(text).split())  # linear; only on this error path
    return repr(flat[:n] + ("…" if len(flat) > n else ""))
