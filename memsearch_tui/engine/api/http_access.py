"""What guards ``memsearch-tui mcp --http``: a bearer token and a loopback socket.

Loopback is not a boundary between the accounts of one machine: without a token any
local user (or a process in a container sharing the host network) could read the journals
and write entries over HTTP. The token is made once with ``secrets.token_urlsafe`` and
kept in the user's data folder (``<data>/mcp-http.token``, mode 0600, its folder 0700),
or in the file ``--token-file`` names. A token file that other accounts may read, that is
not a regular file, or that holds no token is refused with its name, never used.
"""

from __future__ import annotations

import errno
import os
import secrets
import socket
import stat
from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.core.errors import InvalidInput, Refused
from memsearch_tui.engine.core.safe_io import read_capped

TOKEN_NAME = "mcp-http.token"
MIN_CHARS = 32


@dataclass(frozen=True)
class HttpToken:
    """The token, where it is kept, and whether this call made it (print it once then)."""

    value: str
    path: Path
    created: bool


def default_token_file() -> Path:
    """``<data>/mcp-http.token`` (``$MEMSEARCH_TUI_DATA_DIR`` or the platform's data folder)."""
    from memsearch_tui.engine.search.settings import data_home

    return data_home() / TOKEN_NAME


def http_token(token_file: Path | None = None) -> HttpToken:
    """The token in ``token_file`` (default :func:`default_token_file`), made on first use."""
    path = Path(token_file).expanduser() if token_file else default_token_file()
    try:
        return HttpToken(_read(path), path, False)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    value = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:  # another server made it meanwhile: use that one
        return HttpToken(_read(path), path, False)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(value + "\n")
    return HttpToken(value, path, True)


def _read(path: Path) -> str:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
        raise Refused(f"{path}: the token file must be a regular file, not a link or device", code="token_file")
    if st.st_mode & 0o077:
        raise Refused(
            f"{path}: other accounts may read this token file (mode {stat.S_IMODE(st.st_mode):o}); "
            f"run `chmod 600 {path}`",
            code="token_file",
        )
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise Refused(f"{path}: the token file belongs to another account", code="token_file")
    try:
        value = read_capped(path, 4096).decode("ascii").strip()
    except UnicodeDecodeError:
        value = ""
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            raise
        raise InvalidInput(f"{path}: cannot read the token file ({exc.strerror})", path=str(path)) from None
    if len(value) < MIN_CHARS or any(c.isspace() for c in value):
        raise InvalidInput(
            f"{path}: no usable token (one line of at least {MIN_CHARS} characters); delete it to make a new one",
            path=str(path),
        )
    return value


def bind_loopback(port: int) -> socket.socket:
    """A socket bound to 127.0.0.1:``port`` (the web server starts listening on it once
    it is ready), or Refused (``port_busy``) naming the port when another program holds
    it: a clear message instead of the web server's exit.

    The protocol is named (``IPPROTO_TCP``, not the default 0): asyncio turns Nagle's
    algorithm off (``TCP_NODELAY``) only on connections whose socket says TCP, and the
    accepted ones inherit it from this one. With Nagle on, a response's body (sent after
    its headers) waited for the client's delayed ACK: ~40 ms on every MCP call."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        if exc.errno in (errno.EADDRINUSE, errno.EACCES):
            why = "is already in use" if exc.errno == errno.EADDRINUSE else "may not be opened by this account"
            raise Refused(f"127.0.0.1:{port} {why}; choose another --http PORT", code="port_busy") from None
        raise
    return sock


def allowed_origins(port: int) -> list[str]:
    """The only browser origins the server answers: its own loopback address and port."""
    return [f"http://127.0.0.1:{port}", f"http://localhost:{port}"]
