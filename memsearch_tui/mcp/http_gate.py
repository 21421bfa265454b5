"""The gate in front of the streamable-HTTP app: a bearer token and the exact origin.

Loopback does not separate the accounts of one machine, so every request must carry
``Authorization: Bearer <token>`` (the scheme in any case, as RFC 9110 has it; the token
compared in constant time; 401 otherwise, and the connection closed). A browser
page on another port of localhost is another site: a request with an ``Origin`` header
other than the server's own ``http://127.0.0.1:PORT`` / ``http://localhost:PORT`` is
refused with 403 before the token is even looked at. The SDK's own DNS-rebinding check
runs behind this with the same exact lists.
"""

from __future__ import annotations

import hmac
import json
from typing import Any

Scope = dict[str, Any]
ASGIApp = Any


class BearerGate:
    """ASGI middleware: pass a request only with the right token and origin."""

    def __init__(self, app: ASGIApp, token: str, origins: list[str]) -> None:
        self.app = app
        self.expected = token.encode("ascii")
        self.origins = {o.encode("ascii") for o in origins}

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # lifespan: the session manager starts and stops here
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        origin = headers.get(b"origin")
        if origin is not None and origin not in self.origins:
            await _refuse(send, 403, "origin not allowed: only this server's own loopback address", {})
            return
        if not self.authorised(headers.get(b"authorization", b"")):
            challenge = {b"www-authenticate": b'Bearer realm="memsearch-tui"'}
            await _refuse(send, 401, "missing or wrong bearer token (see `memsearch-tui mcp --help`)", challenge)
            return
        await self.app(scope, receive, send)

    def authorised(self, header: bytes) -> bool:
        """``<scheme> <token>``: the scheme ``bearer`` in any case, the token compared in
        constant time (hmac.compare_digest takes as long whatever the first difference)."""
        scheme, _, credentials = header.strip().partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(credentials.strip(b" "), self.expected)


async def _refuse(send: Any, status: int, message: str, extra: dict[bytes, bytes]) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),  # a refused caller keeps no connection (http_guard)
        *extra.items(),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
