"""The warm index's door for the faces that do not own it: find the owner's socket, check
it is this account's, ask it one thing, and turn its answer back into a search result.

Why: Milvus Lite lets one process hold a data dir, and every face that searches by meaning
loads the model and the vector mirror itself. One long-lived face (the app or the MCP
server) owns the warm index of a project (:mod:`.owner`) and serves it over a unix socket
in the index's state dir; the others ask it, and the hook hands it the upkeep instead of
queueing a runner behind it. Everything here is bounded (connect, send and read times, the
answer's size) and returns None when there is no usable owner: the caller then does the
work in-process, as before. Import-light (the hook calls :func:`notify_upkeep`): json and
os; ``socket`` and ``struct`` only once a socket file is there to connect to (a one-shot
CLI search with no owner open asks nothing: ~4 ms of imports saved); the key's SHA-1 is
:func:`..core.digest.sha1_hex` (no OpenSSL).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.digest import sha1_hex

if TYPE_CHECKING:
    import socket

    from memsearch_tui.engine.search.results import SearchRun

MAX_REQUEST = 64 * 1024  # bytes of one request line (a query is ≤ 2,000 characters)
MAX_ANSWER = 16 * 1024 * 1024  # bytes of one answer (k ≤ 1000 hits with snippets and explain)
CONNECT_TIMEOUT = 0.2  # seconds: a live owner accepts at once (the kernel does, even when it is busy)
ACK_TIMEOUT = 0.5  # seconds the hook waits for "queued": the owner answers it without any lock
SEARCH_TIMEOUT = 30.0  # seconds a face waits for a search answer (a first build), then searches itself
SOCKET_ROOM = 100  # a unix socket path must fit in sun_path (108 bytes on Linux, 104 on macOS)


def owner_key(project: Path | None) -> str:
    """One owner per (memory root, project): the state dir is the root's, the key the project's."""
    text = str(Path(project).absolute()) if project is not None else ""
    return sha1_hex(text.encode("utf-8", "surrogateescape"))[:10]


def socket_path(state_dir: Path, key: str) -> Path:
    return Path(state_dir) / f"owner-{key}.sock"


def lock_path(state_dir: Path, key: str) -> Path:
    return Path(state_dir) / f"owner-{key}.lock"


@contextmanager
def address(path: Path) -> Iterator[str | None]:
    """What ``bind``/``connect`` take for ``path``: the path itself when it fits in
    ``sun_path``, else (Linux) the same file through an open descriptor of its folder
    (``/proc/self/fd/N/name``: a deep data dir must not turn sharing off); None when
    neither works (no sharing: every face searches in-process)."""
    if len(os.fsencode(str(path))) <= SOCKET_ROOM:
        yield str(path)
        return
    try:
        fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        yield None
        return
    try:
        short = f"/proc/self/fd/{fd}/{path.name}"
        yield short if os.path.isdir(f"/proc/self/fd/{fd}") and len(short) <= SOCKET_ROOM else None
    finally:
        os.close(fd)


def foreign(path: Path) -> str:
    """Why the socket at ``path`` must not be trusted ("" when it may): not a socket, another
    account's, or open to other accounts (group/other bits set)."""
    st = os.lstat(path)
    if not stat.S_ISSOCK(st.st_mode):
        return f"{path}: not a socket"
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return f"{path}: belongs to another account"
    if st.st_mode & 0o077:
        return f"{path}: other accounts may connect (mode {stat.S_IMODE(st.st_mode):o})"
    return ""


def peer_uid(sock: socket.socket) -> int | None:
    """The uid of the process at the other end (Linux ``SO_PEERCRED``), None where unknown."""
    import socket
    import struct

    opt = getattr(socket, "SO_PEERCRED", None)
    if opt is None:  # pragma: no cover - not Linux: the socket file's mode is the guard
        return None
    raw = sock.getsockopt(socket.SOL_SOCKET, opt, struct.calcsize("3i"))
    return int(struct.unpack("3i", raw)[1])


def same_account(sock: socket.socket) -> bool:
    uid = peer_uid(sock)
    return uid is None or not hasattr(os, "getuid") or uid == os.getuid()


def connect(state_dir: Path, key: str) -> tuple[socket.socket | None, str]:
    """(a connected socket to the live owner, "") or (None, why not): no socket file, a
    foreign one (refused unopened), a dead owner's (connection refused) or an impostor."""
    path = socket_path(state_dir, key)
    try:
        why = foreign(path)
    except OSError:
        return None, "no owner"
    if why:
        return None, why
    import socket  # only with a socket file to connect to: a search with no owner never needs it

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(CONNECT_TIMEOUT)
    try:
        with address(path) as where:
            if where is None:
                raise OSError(f"{path}: no address for a unix socket")
            sock.connect(where)
    except OSError:
        sock.close()
        return None, "owner gone (stale socket)"
    if not same_account(sock):
        sock.close()
        return None, f"{path}: the owner runs as another account"
    return sock, ""


def send_line(sock: socket.socket, message: dict[str, Any]) -> None:
    data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
    if len(data) > MAX_REQUEST:
        raise ValueError("request too large")
    sock.sendall(data)


def read_line(sock: socket.socket, limit: int, timeout: float) -> dict[str, Any] | None:
    """One JSON object terminated by a newline, read within ``timeout`` seconds in all and
    ``limit`` bytes; None for anything else (late, too long, not JSON, not an object)."""
    import time

    deadline = time.monotonic() + timeout
    buf = bytearray()
    while b"\n" not in buf:
        left = deadline - time.monotonic()
        if left <= 0 or len(buf) > limit:
            return None
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except OSError:
            return None
        if not chunk:
            return None
        buf += chunk
    line = bytes(buf[: buf.index(b"\n")])
    if len(line) > limit:
        return None
    try:
        got = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: "[[[…" nested too deep
        return None
    return got if isinstance(got, dict) else None


def ask(state_dir: Path, key: str, message: dict[str, Any], timeout: float) -> dict[str, Any] | None:
    """The owner's answer to ``message`` (``ok`` true), or None: no usable owner, a late or
    malformed answer, or the owner's refusal. Never raises for a socket problem."""
    sock, _why = connect(state_dir, key)
    if sock is None:
        return None
    try:
        send_line(sock, message)
        got = read_line(sock, MAX_ANSWER, timeout)
    except (OSError, ValueError):
        return None
    finally:
        sock.close()
    return got if got is not None and got.get("ok") is True else None


def notify_upkeep(state_dir: Path, key: str) -> int | None:
    """Hand an upkeep pass to the owner (the hook): its pid once it said "queued", else None
    (no owner, or no answer within :data:`ACK_TIMEOUT`: the caller queues a runner)."""
    got = ask(state_dir, key, {"op": "upkeep"}, ACK_TIMEOUT)
    pid = got.get("pid") if got else None
    return pid if isinstance(pid, int) and not isinstance(pid, bool) else None


def ask_search(
    state_dir: Path, key: str, root: Path, project: Path, args: dict[str, Any], invalidate: bool
) -> tuple[SearchRun, int] | None:
    """(the owner's result for a search with ``args``, its pid), or None (search in-process).
    ``invalidate``: the owner re-checks the files first (the asker wrote, or wants them current)."""
    message = {"op": "search", "root": str(root), "project": str(project), "args": args, "invalidate": invalidate}
    got = ask(state_dir, key, message, SEARCH_TIMEOUT)
    if got is None:
        return None
    pid = got.get("pid")
    try:
        return run_from_wire(got["result"]), pid if isinstance(pid, int) and not isinstance(pid, bool) else 0
    except (KeyError, TypeError, ValueError, IndexError):
        return None


# -- a search result on the wire ------------------------------------------------------------
def run_to_wire(run: SearchRun) -> dict[str, Any]:
    """A :class:`.results.SearchRun` as JSON-ready values (the owner's side)."""
    from dataclasses import asdict

    out: dict[str, Any] = dict(run._asdict())
    out["hits"] = [asdict(h) for h in run.hits]
    out["notes"] = list(run.notes)
    out["explain"] = asdict(run.explain) if run.explain is not None else None
    return out


def run_from_wire(data: dict[str, Any]) -> SearchRun:
    """The owner's answer back into a :class:`.results.SearchRun` (the asking face's side);
    ValueError/TypeError/KeyError for anything malformed: the caller searches itself."""
    from memsearch_tui.engine.search.explain import HitExplain, Leg, QueryExplain, Weights
    from memsearch_tui.engine.search.hit import SearchHit
    from memsearch_tui.engine.search.results import SearchRun

    def weights(d: Any) -> Weights | None:
        return None if d is None else Weights(**d)

    def leg(d: Any) -> Leg | None:
        return None if d is None else Leg(**d)

    def hit_explain(d: Any) -> HitExplain | None:
        if d is None:
            return None
        return HitExplain(
            **{
                **d,
                "keyword": leg(d.get("keyword")),
                "dense": leg(d.get("dense")),
                "weights": weights(d.get("weights")),
            }
            | {"matched": tuple(d.get("matched", ()))}
        )

    hits = []
    for h in data["hits"]:
        lines = h["lines"]
        hits.append(
            SearchHit(**{**h, "lines": (int(lines[0]), int(lines[1])), "explain": hit_explain(h.get("explain"))})
        )
    q = data.get("explain")
    explain = None
    if q is not None:
        extra = {
            "terms": tuple(q["terms"]),
            "weights": weights(q.get("weights")),
            "spelling": tuple(q.get("spelling", ())),
        }
        explain = QueryExplain(**{**q, **extra})
    fields = {name: data[name] for name in ("query", "strategy", "requested", "reason", "files", "took_ms")}
    if not all(isinstance(fields[n], str) for n in ("query", "strategy", "requested", "reason")):
        raise ValueError("malformed search answer")
    return SearchRun(**fields, hits=hits, notes=[str(n) for n in data["notes"]], explain=explain)
