"""Redact credentials from what the API hands to an agent (journals may hold a pasted key).

Uses the store's own secret rules (``core.secrets.RULES``); the matched text is replaced
by ``[redacted: <rule>]`` so the agent learns something was there, never what.
"""

from __future__ import annotations

from typing import Any

from memsearch_tui.engine.core.secrets import RULES, find_secret


def redact_text(text: str) -> str:
    if find_secret(text) is None:  # the common case: one pass, no copies
        return text
    for name, pattern in RULES:
        text = pattern.sub(f"[redacted: {name}]", text)
    return text


def redact(obj: Any) -> Any:
    """A copy of a JSON-able value with every string redacted."""
    if isinstance(obj, str):
        return redact_text(obj)
    if isinstance(obj, list):
        return [redact(x) for x in obj]
    if isinstance(obj, dict):
        return {k: redact(v) for k, v in obj.items()}
    return obj
