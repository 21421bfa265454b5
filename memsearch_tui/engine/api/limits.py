"""Bounds on what a caller may hand the API: an agent's argument is untrusted input.

Sizes are in characters. The store's own 1 MB body cap still applies underneath; these
are tighter because an agent writes notes, not files.
"""

from __future__ import annotations

from memsearch_tui.engine.core.errors import InvalidInput

QUERY = 2_000
REF = 1_000
BODY = 200_000
PERSON_BODY = 2_000_000  # a person's body (CLI, app): the store's own byte cap decides underneath
NEW_TEXT = 400_000
REASON = 2_000
TAG = 64
TAGS = 32
PENDING_PER_CLIENT = 200  # agent proposals one client may have waiting for a person
READ = 200_000  # characters ``read`` returns at most (ask for a line range for more)


def text(name: str, value: object, cap: int) -> str:
    """``value`` if it is a string of at most ``cap`` characters, else InvalidInput."""
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be text, got {type(value).__name__}")
    if len(value) > cap:
        raise InvalidInput(f"{name} is {len(value)} characters long; {cap} at most", code="too_large")
    if "\x00" in value:
        raise InvalidInput(f"{name} holds a NUL byte")
    return value


def tags(values: list[str] | None) -> list[str]:
    out = [text("tag", t, TAG).strip() for t in values or []]
    if len(out) > TAGS:
        raise InvalidInput(f"{len(out)} tags; {TAGS} at most", code="too_large")
    return [t for t in dict.fromkeys(out) if t]


def importance(value: float | None) -> float | None:
    if value is not None and (isinstance(value, bool) or not 0 <= float(value) <= 1):
        raise InvalidInput(f"importance must be from 0 to 1, got {value!r}")
    return None if value is None else float(value)
