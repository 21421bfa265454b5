"""The owner of a project's warm index: one long-lived face serves search and upkeep to the
others over a unix socket in the index's state dir (the protocol's client side, and why:
:mod:`.owner_wire`).

Who owns: the face that holds ``owner-<key>.lock`` (``flock``, kept for the owner's life).
A dead owner's lock is released by the kernel, so the next face takes it, removes the
dead owner's socket and binds its own: a stale socket never blocks anyone. The socket is
made 0600 before it listens (nobody can connect in between), and every connection's peer
must run as this account (``SO_PEERCRED``). A request is one JSON line of at most
:data:`.owner_wire.MAX_REQUEST` bytes read within :data:`READ_TIMEOUT` seconds, checked
field by field; at most :data:`MAX_CLIENTS` are served at once (more are closed unanswered:
the asking face searches itself).

Requests: ``ping``; ``upkeep`` (answered at once, "queued": the pass runs in the owner's
upkeep thread, so the hook never waits for it); ``search`` (the owner's face runs it on its
warm searcher, under that face's own lock).
"""

from __future__ import annotations

import fcntl
import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.search import owner_wire as wire
from memsearch_tui.engine.search.strategy import SOURCES, STRATEGIES

if TYPE_CHECKING:
    from memsearch_tui.engine.search.results import SearchRun

READ_TIMEOUT = 2.0  # seconds a client has to send its request line
MAX_CLIENTS = 8  # connections served at once
MAX_K = 1000
MAX_TEXT = 4000  # characters of a query (the API bounds it at 2,000) or a category
MAX_REF = 1000  # characters of since / until


class BadRequest(ValueError):
    """A request the owner will not run (malformed, out of bounds, another project's)."""


def search_args(req: dict[str, Any], root: Path, project: Path | None) -> dict[str, Any]:
    """The search's keyword arguments from a request, every field checked; BadRequest if any is off."""
    if req.get("root") != str(root) or req.get("project") != (str(project) if project is not None else None):
        raise BadRequest("another memory root or project")
    args = req.get("args")
    if not isinstance(args, dict) or set(args) - {
        "query",
        "strategy",
        "k",
        "category",
        "source",
        "explain",
        "since",
        "until",
    }:
        raise BadRequest("bad arguments")
    query, k = args.get("query"), args.get("k", 10)
    if not isinstance(query, str) or len(query) > MAX_TEXT:
        raise BadRequest("bad query")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_K:
        raise BadRequest("bad k")
    if args.get("strategy", "auto") not in STRATEGIES or args.get("source", "all") not in SOURCES:
        raise BadRequest("bad strategy or source")
    for name, bound in (("category", MAX_TEXT), ("since", MAX_REF), ("until", MAX_REF)):
        value = args.get(name)
        if value is not None and (not isinstance(value, str) or len(value) > bound):
            raise BadRequest(f"bad {name}")
    if not isinstance(args.get("explain", False), bool):
        raise BadRequest("bad explain")
    return {
        "query": query,
        "strategy": args.get("strategy", "auto"),
        "k": k,
        "category": args.get("category"),
        "source": args.get("source", "all"),
        "explain": args.get("explain", False),
        "since": args.get("since"),
        "until": args.get("until"),
    }


class Owner:
    """Serve one project's warm index (see the module docstring); :meth:`become` or None."""

    def __init__(
        self,
        state_dir: Path,
        key: str,
        lock_fd: int,
        sock: socket.socket,
        identity: tuple[Path, Path | None],
        search: Callable[[dict[str, Any], bool], SearchRun],
        upkeep: Callable[[], object],
    ) -> None:
        self.path = wire.socket_path(state_dir, key)
        self._lock_fd, self._sock, self._identity = lock_fd, sock, identity
        self._search, self._upkeep = search, upkeep
        self._stop = threading.Event()
        self._due = threading.Event()
        self._slots = threading.BoundedSemaphore(MAX_CLIENTS)
        self.upkeep_passes = 0
        threading.Thread(target=self._accept, name="index-owner", daemon=True).start()
        threading.Thread(target=self._upkeep_loop, name="index-owner-upkeep", daemon=True).start()

    @classmethod
    def become(
        cls,
        state_dir: Path,
        key: str,
        identity: tuple[Path, Path | None],
        search: Callable[[dict[str, Any], bool], SearchRun],
        upkeep: Callable[[], object],
    ) -> Owner | None:
        """Take ownership when no live face holds it (a dead one's socket is replaced);
        None when another owner is alive, or the socket cannot be made here."""
        path = wire.socket_path(state_dir, key)
        try:
            Path(state_dir).mkdir(parents=True, exist_ok=True)
            fd = os.open(wire.lock_path(state_dir, key), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None  # a live owner holds it
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            path.unlink(missing_ok=True)  # a dead owner's socket (we hold the lock: nobody else's)
            with wire.address(path) as where:
                if where is None:
                    raise OSError(f"{path}: no address for a unix socket")
                sock.bind(where)
            os.chmod(path, 0o600)  # before listen: no connection is possible until it is 0600
            sock.listen(16)
        except OSError:
            sock.close()
            os.close(fd)
            return None
        return cls(state_dir, key, fd, sock, identity, search, upkeep)

    def close(self) -> None:
        """Stop serving: the socket goes, the lock is released (the next face may own)."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._due.set()
        self.path.unlink(missing_ok=True)  # ours: we hold the lock until the next line
        try:
            self._sock.shutdown(socket.SHUT_RDWR)  # wakes the accept loop (no polling while idle)
        except OSError:
            pass
        self._sock.close()
        os.close(self._lock_fd)

    # -- serving ------------------------------------------------------------------------
    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return  # shut down by close()
            if not self._slots.acquire(blocking=False):
                conn.close()  # too many at once: that face searches itself
                continue
            threading.Thread(target=self._serve, args=(conn,), name="index-owner-client", daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        try:
            if not wire.same_account(conn):
                return
            req = wire.read_line(conn, wire.MAX_REQUEST, READ_TIMEOUT)
            answer = self._answer(req)
            conn.settimeout(wire.SEARCH_TIMEOUT)
            data = _dumps(answer)
            if len(data) > wire.MAX_ANSWER:
                data = _dumps({"ok": False, "error": "answer too large"})
            conn.sendall(data)
        except OSError:
            pass
        finally:
            conn.close()
            self._slots.release()

    def _answer(self, req: dict[str, Any] | None) -> dict[str, Any]:
        pid = os.getpid()
        op = req.get("op") if req is not None else None
        if op == "ping":
            return {"ok": True, "pid": pid}
        if op == "upkeep":
            self._due.set()
            return {"ok": True, "pid": pid, "queued": True}
        if op == "search" and req is not None:
            try:
                args = search_args(req, *self._identity)
            except BadRequest as exc:
                return {"ok": False, "error": str(exc)}
            try:
                run = self._search(args, req.get("invalidate") is True)
            except Exception as exc:  # the asking face searches itself and reports it its own way
                return {"ok": False, "error": type(exc).__name__}
            return {"ok": True, "pid": pid, "result": wire.run_to_wire(run)}
        return {"ok": False, "error": "bad request"}

    def _upkeep_loop(self) -> None:
        while True:
            self._due.wait()
            if self._stop.is_set():
                return
            self._due.clear()  # requests arriving during the pass make one more pass
            try:
                self._upkeep()
            except Exception:  # a background pass has no one to raise to; the next search reports
                pass
            self.upkeep_passes += 1


def _dumps(answer: dict[str, Any]) -> bytes:
    import json

    return json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
