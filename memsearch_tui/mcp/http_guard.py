"""The HTTP server's connection guard: no caller can hold the server's descriptors.

Anyone on the machine can open a loopback connection and send half a request without a
token; uvicorn gives a new connection no deadline until its first request is complete, so
enough of them used every descriptor and the server, out of descriptors, exited for good.
Here, before any token can be checked:

* a connection whose request headers are not complete within ``header_seconds`` (from
  its first byte or its opening) is closed;
* at most ``cap`` such connections exist at once (a smaller share of the descriptor
  limit); one more is closed the moment it is accepted;
* running out of descriptors anyway (a burst of accepts) is reported in one line and the
  server keeps going: the event loop retries the accept a second later. (The default
  report formats a traceback, which opens source files, which fails again and ended the
  server.)

An authenticated client sends its headers at once and never notices.
"""

from __future__ import annotations

import asyncio
import errno
import os
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0
HEADER_ENV = "MEMSEARCH_TUI_MCP_HEADER_SECONDS"  # 1 s to 5 min; a test shortens it
MAX_PENDING = 256
BACKLOG = 64  # accepts taken in one burst: bounds the descriptors opened before any is checked
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def header_seconds() -> float:
    try:
        value = float(os.environ.get(HEADER_ENV, ""))
    except ValueError:
        return HEADER_SECONDS
    return value if 1.0 <= value <= 300.0 else HEADER_SECONDS


def pending_cap() -> int:
    """A quarter of the descriptor limit, at most :data:`MAX_PENDING`, at least 8."""
    try:
        import resource  # POSIX only
    except ImportError:
        return MAX_PENDING
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_PENDING
    return max(8, min(MAX_PENDING, soft // 4))


class Pending:
    """The connections still sending their request headers, shared by one server."""

    def __init__(self, cap: int, seconds: float) -> None:
        self.cap, self.seconds = cap, seconds
        self.waiting: set[GuardedH11] = set()


def guarded_protocol(pending: Pending) -> type[H11Protocol]:
    """uvicorn's h11 protocol bound to ``pending`` (uvicorn takes a protocol class)."""
    return type("GuardedH11", (GuardedH11,), {"pending": pending})


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline and a cap on incomplete request headers."""

    pending: Pending
    deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_waiting()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE:  # headers still incomplete (or a new request begun)
            if self.deadline is None:
                self._start_waiting()
        else:
            self._stop_waiting()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def _start_waiting(self) -> None:
        if len(self.pending.waiting) >= self.pending.cap:
            self.transport.abort()
            return
        self.pending.waiting.add(self)
        self.deadline = self.loop.call_later(self.pending.seconds, self._too_slow)

    def _stop_waiting(self) -> None:
        self.pending.waiting.discard(self)
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if self in self.pending.waiting and self.conn.their_state is h11.IDLE:
            self.pending.waiting.discard(self)
            self.transport.abort()


def keep_serving_when_out_of_files(loop: asyncio.AbstractEventLoop, write: Any) -> None:
    """Report the loop's out-of-descriptors errors in one line (at most every 10 s) instead
    of a traceback; anything else goes to the default handler, guarded the same way."""
    last = [0.0]

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in OUT_OF_FILES:
            now = time.monotonic()
            if now - last[0] >= 10.0:
                last[0] = now
                write(f"memsearch-tui mcp: out of file descriptors ({exc.strerror}); still serving, retrying\n")
            return
        try:
            loop.default_exception_handler(context)
        except OSError:
            write(f"memsearch-tui mcp: {context.get('message', 'error')}\n")

    loop.set_exception_handler(handler)
