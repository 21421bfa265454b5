"""Parse the model's answer: one JSON object ``{"action", "reason", "content"}``.

Models wrap JSON in code fences or prose, so we look for it there too — but anything that
is not exactly one usable object is an error (recorded in state), never a partial write.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from memsearch_tui.engine.core.errors import InvalidInput

ACTIONS = ("none", "replace")
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class Answer:
    action: str
    reason: str
    content: str = ""


class AnswerError(InvalidInput):
    code = "bad_answer"


def parse_answer(raw: str) -> Answer:
    """The single answer object in ``raw``; raises ``AnswerError`` otherwise."""
    text = (raw or "").strip()
    if not text:
        raise AnswerError("the model returned an empty answer")
    for candidate in _candidates(text):
        found = _answer_objects(candidate)
        if len({json.dumps(d, sort_keys=True) for d in found}) > 1:
            raise AnswerError(f"the model gave {len(found)} different answer objects; expected exactly one")
        if found:
            return _validate(found[0])
    raise AnswerError(f"no JSON answer object found in the model's output: {_preview(text)}")


def _candidates(text: str) -> list[str]:
    return [text, *(m.group(1) for m in _FENCE.finditer(text))]


def _answer_objects(text: str) -> list[dict]:
    """Top-level JSON objects with an ``action`` key, in order (braces inside a decoded
    object — e.g. an example in ``content`` — are not scanned again)."""
    decoder = json.JSONDecoder()
    found: list[dict] = []
    pos = 0
    while (start := text.find("{", pos)) != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            pos = start + 1
            continue
        if isinstance(value, dict) and "action" in value:
            found.append(value)
        pos = end
    return found


def _validate(data: dict) -> Answer:
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
    flat = " ".join(text.split())
    return repr(flat[:n] + ("…" if len(flat) > n else ""))
