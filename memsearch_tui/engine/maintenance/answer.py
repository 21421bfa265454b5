"""Parse the model's answer: one JSON object ``{"action", "reason", "content"}``.

Models wrap JSON in code fences or prose, so we look for it there too — but anything that
is not exactly one usable object is an error (recorded in state), never a partial write.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..errors import InvalidInput

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
        data = _first_object(candidate)
        if data is not None:
            return _validate(data)
    raise AnswerError(f"no JSON answer object found in the model's output: {_preview(text)}")


def _candidates(text: str) -> list[str]:
    return [text, *(m.group(1) for m in _FENCE.finditer(text))]


def _first_object(text: str) -> dict | None:
    """The first JSON object with an ``action`` key, wherever it starts in ``text``."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and "action" in value:
            return value
    return None


def _validate(data: dict) -> Answer:
    action = data.get("action")
    if action not in ACTIONS:
        raise AnswerError(f"answer action must be \"none\" or \"replace\", not {action!r}")
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise AnswerError("answer reason must be a string")
    if action == "none":
        return Answer("none", reason.strip())
    content = data.get("content")
    if not isinstance(content, str) or not content.strip():
        raise AnswerError("answer action \"replace\" needs a non-empty string content")
    return Answer("replace", reason.strip(), content.strip() + "\n")


def _preview(text: str, n: int = 160) -> str:
    flat = " ".join(text.split())
    return repr(flat[:n] + ("…" if len(flat) > n else ""))
