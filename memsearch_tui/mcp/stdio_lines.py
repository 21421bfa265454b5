"""Lines the SDK's JSON parser refuses but JSON allows, parsed again so the request is answered.

The SDK's stdio transport parses each line with pydantic's JSON parser, which refuses a
lone surrogate escape (``"query": "\\ud800"``: valid JSON, not valid Unicode) and drops the
line with a debug log: the agent waits for an answer that never comes. Python's ``json``
reads such a line; validated as Python objects it becomes the request it was, the tool runs,
and the engine refuses the query with an error the agent can read (issue 31). Only a
``json_invalid`` failure whose line ``json`` reads is parsed again; anything else is passed
on as the SDK gave it.
"""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any

import anyio
from mcp import types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

MAX_LINE = 4 << 20  # the longest line parsed again (a request the SDK would refuse anyway past this)


def reparsed(item: Any) -> Any:
    """``item`` (what the transport read: a message or the exception a line raised), with a
    lone-surrogate line turned into its message."""
    if not isinstance(item, ValidationError):
        return item
    errors = item.errors()
    raw = errors[0].get("input") if len(errors) == 1 and errors[0].get("type") == "json_invalid" else None
    if not isinstance(raw, str) or len(raw) > MAX_LINE:
        return item
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_python(json.loads(raw), by_name=False))
    except (ValueError, RecursionError):
        return item


class ReparsingStream:
    """The transport's read stream, each item through :func:`reparsed` (duck-typed as the
    SDK's receive stream: ``receive``, async iteration and context, ``last_context``)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        return reparsed(await self._inner.receive())

    def __aiter__(self) -> ReparsingStream:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> ReparsingStream:
        await self._inner.__aenter__()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> Any:
        return await self._inner.__aexit__(exc_type, exc, tb)

    async def aclose(self) -> None:
        await self._inner.aclose()
