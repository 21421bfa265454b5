"""One warm index per project on one machine (issue 37 item 6): a long-lived face owns it and
serves the others over a unix socket; the hook hands it its upkeep; a dead owner is
replaced; a foreign socket is refused; with no owner everything runs in-process.

Real processes: the owner is a child Python process holding the index (Milvus Lite and
the model after a meaning search); the test process is the second face and the hook."""

from __future__ import annotations

import json
import os
import re
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import hold_index

OWNER = """
import sys
from pathlib import Path
from memsearch_tui.engine.api import Memory
# as the MCP server: its own freshness check holds 60 s, so a client's write must tell it
mem = Memory(Path(sys.argv[1]), Path(sys.argv[2]), share=True, refresh_behind=True)
mem.search.query("flaky login test", strategy=sys.argv[3], k=3)
assert mem.warm.owner is not None, "did not become the owner"
print("owner", flush=True)
sys.stdin.readline()
mem.close()
"""


# the one-shot CLI search (its fast path), then which heavy modules it loaded (on stderr)
CLI_SEARCH = (
    "import json, os, sys\nfrom memsearch_tui.cli import main\n"
    "def leave(rc):\n    raise SystemExit(rc)\n"
    "os._exit = leave  # the console script ends with os._exit: report first\n"
    "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
    "heavy = ('numpy', 'torch', 'pymilvus', 'tokenizers', 'safetensors')\n"
    "print(json.dumps(sorted(m for m in sys.modules if m in heavy)), file=sys.stderr)\n"
)


def start_owner(root: Path, project: Path, strategy: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(root), str(project), strategy],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "owner"
    return proc


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=60)


def plant(path: Path, mode: int) -> socket.socket:
    """A listening socket of this account at ``path`` with ``mode`` (bound the way the owner binds)."""
    from memsearch_tui.engine.search.owner_wire import address

    path.parent.mkdir(parents=True, exist_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with address(path) as where:
        assert where is not None
        sock.bind(where)
    os.chmod(path, mode)
    sock.listen(4)
    return sock


def where(root: Path, project: Path) -> tuple[Path, str]:
    from memsearch_tui.engine.search.owner_wire import owner_key
    from memsearch_tui.engine.search.settings import state_dir_for

    return state_dir_for(root), owner_key(project.absolute())


@pytest.mark.slow
def test_a_second_face_is_served_by_the_owner(memory) -> None:
    """The owner holds Milvus Lite and the model (after a hybrid search). A second face's
    meaning search is answered by it: no searcher, no model of its own; so is a one-shot CLI
    search (which loads no numpy then). After the second
    face writes, the owner re-checks the files before answering it (read-your-writes)."""
    from memsearch_tui.engine.api import Memory

    root, project = memory
    owner = start_owner(root, project, "hybrid")
    try:
        with Memory(root, project) as face:
            res = face.search.query("how did we fix the flaky login test", strategy="hybrid", k=3, explain=True)
            assert face.warm.served_by == owner.pid
            assert res.explain is not None and res.hits[0].explain is not None  # the records, whole
            assert face.warm.searcher is None  # nothing loaded here
            assert res.hits and "flaky login" in res.hits[0].snippet
            cli = subprocess.run(
                [sys.executable, "-c", CLI_SEARCH, "--memory-root", str(root), "--project", str(project)]
                + ["--json", "search", "how did we fix the flaky login test", "-s", "hybrid", "-k", "3"],
                capture_output=True,
                text=True,
                env=os.environ.copy(),
                timeout=120,
            )
            assert json.loads(cli.stderr.strip().splitlines()[-1]) == [], cli.stderr  # no numpy, no model here
            assert "flaky login" in json.loads(cli.stdout)["data"]["hits"][0]["snippet"]
            face.entries.add("tools/cache", "Cache", "把缓存换成了 Redis 集群，延迟降到两毫秒", tags=["cache"])
            res = face.search.query("Redis 集群", strategy="index", k=3)
            assert face.warm.served_by == owner.pid
            assert any("Redis" in h.snippet for h in res.hits)
    finally:
        stop(owner)


def test_a_killed_owner_is_replaced(memory) -> None:
    """kill -9 leaves the owner's socket behind: the next sharing face finds it dead, takes
    its place (its own socket, 0600) and serves a third face."""
    from memsearch_tui.engine.api import Memory

    root, project = memory
    owner = start_owner(root, project, "index")
    state_dir, key = where(root, project)
    sock_path = state_dir / f"owner-{key}.sock"
    owner.kill()
    owner.wait(timeout=30)
    assert sock_path.exists()  # stale
    with Memory(root, project, share=True) as second, Memory(root, project) as third:
        assert second.search.query("flaky login", strategy="index").hits
        assert second.warm.owner is not None and second.warm.served_by is None
        st = os.lstat(sock_path)
        assert stat.S_ISSOCK(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600
        assert third.search.query("Postgres 16", strategy="index").hits
        assert third.warm.served_by == os.getpid() and third.warm.searcher is None
    stop(owner)


def test_a_foreign_socket_is_refused_and_the_face_searches_itself(memory) -> None:
    """A socket others may connect to (mode 0666) is never opened: the face searches in-process."""
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.search.owner_wire import connect

    root, project = memory
    state_dir, key = where(root, project)
    planted = plant(state_dir / f"owner-{key}.sock", 0o666)
    planted.setblocking(False)
    try:
        sock, why = connect(state_dir, key)
        assert sock is None and "mode 666" in why
        with Memory(root, project) as face:
            assert face.search.query("flaky login", strategy="index").hits
            assert face.warm.served_by is None and face.warm.searcher is not None
        with pytest.raises(BlockingIOError):
            planted.accept()  # nobody connected
    finally:
        planted.close()


def test_the_owner_bounds_what_arrives(memory, monkeypatch) -> None:
    """An over-long request and malformed ones get no search; the owner goes on serving."""
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.search import owner, owner_wire

    root, project = memory
    state_dir, key = where(root, project)
    with Memory(root, project, share=True) as mem:
        mem.search.query("flaky", strategy="index")
        assert mem.warm.owner is not None
        sock, _ = owner_wire.connect(state_dir, key)
        assert sock is not None
        sock.sendall(b"x" * (owner_wire.MAX_REQUEST + 10))
        assert owner_wire.read_line(sock, 1000, 5.0) == {"ok": False, "error": "bad request"}
        sock.close()
        for bad in (
            {"op": "search", "root": str(root), "project": str(project), "args": {"query": "x", "k": 10**6}},
            {"op": "search", "root": "/elsewhere", "project": str(project), "args": {"query": "x"}},
            {"op": "search", "root": str(root), "project": str(project), "args": {"query": "x", "strategy": "rm"}},
            {"op": "shutdown"},
        ):
            assert owner_wire.ask(state_dir, key, bad, 5.0) is None
        monkeypatch.setattr(owner, "READ_TIMEOUT", 60.0)  # idle clients keep their slots meanwhile
        idle = [owner_wire.connect(state_dir, key)[0] for _ in range(owner.MAX_CLIENTS)]
        assert owner_wire.ask(state_dir, key, {"op": "ping"}, 5.0) is None  # one too many: closed
        for sock in idle:
            assert sock is not None
            sock.close()
        # Each serving thread frees its slot once it has seen its client go: wait for one.
        deadline = time.monotonic() + 30
        while (answer := owner_wire.ask(state_dir, key, {"op": "ping"}, 5.0)) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert answer == {"ok": True, "pid": os.getpid()}
    assert not (state_dir / f"owner-{key}.sock").exists()  # closed with its face


def test_a_request_nested_too_deep_is_refused_not_a_traceback(tmp_path) -> None:
    """A request line within the size bound but nested past Python's recursion limit (64 KB
    of "[") made ``json.loads`` raise RecursionError in the serving thread: no answer, and a
    thread traceback written over the app's screen. It is a bad request like any other."""
    from memsearch_tui.engine.search import owner_wire
    from memsearch_tui.engine.search.owner import Owner

    def never(*_a: object) -> None:  # the search/upkeep callables: not what this is about
        raise AssertionError("must not run")

    served = Owner.become(tmp_path, "k", (tmp_path, None), never, never)  # type: ignore[arg-type]
    assert served is not None
    try:
        sock, _ = owner_wire.connect(tmp_path, "k")
        assert sock is not None
        sock.sendall(b"[" * (owner_wire.MAX_REQUEST - 10) + b"\n")
        assert owner_wire.read_line(sock, 1000, 10.0) == {"ok": False, "error": "bad request"}
        sock.close()
        assert owner_wire.ask(tmp_path, "k", {"op": "ping"}, 10.0) == {"ok": True, "pid": os.getpid()}
    finally:
        served.close()


def test_the_hook_never_waits_for_a_silent_owner(memory, monkeypatch) -> None:
    """An owner that accepts but never answers (stopped, or wedged): the hook gives up after
    its bound and queues the background runner as before."""
    from memsearch_tui.engine.search import owner_wire

    root, project = memory
    state_dir, key = where(root, project)
    silent = plant(state_dir / f"owner-{key}.sock", 0o600)
    try:
        assert owner_wire.notify_upkeep(state_dir, key) is None
    finally:
        silent.close()


@pytest.mark.slow
def test_keyword_hits_answer_while_the_vectors_are_built(memory, monkeypatch) -> None:
    """The app starts the build as it opens (``prepare``). While the vectors are embedded a
    meaning search answers at once with the keyword hits and says the meaning results are
    coming; once the build is done the same search is by meaning. Before: the search waited
    for the whole build. The embedding is held back by an event (the only stand-in: what is
    tested is the answer during it, not the embedding)."""
    from memsearch_tui.engine.api import MEANING_COMING, Memory
    from memsearch_tui.engine.core.locking import flock_held
    from memsearch_tui.engine.search.settings import load_settings

    go = hold_index(monkeypatch)
    root, project = memory
    with Memory(root, project, share=True) as mem:
        mem.search.prepare()
        res = mem.search.query("flaky login test", strategy="hybrid", k=3)
        assert MEANING_COMING in res.notes and res.strategy == "index" and res.requested == "hybrid"
        assert "--strategy" not in res.reason  # nobody typed --strategy index
        assert res.hits and "flaky login" in res.hits[0].snippet
        go.set()
        assert mem.search.wait_built(120)
        # the build at open was an upkeep pass on an idle face: it freed Milvus Lite (else a
        # `vectors index` in a terminal failed "locked" for the app's whole life, and the
        # idle gRPC channel logged GOAWAY over the screen after two minutes)
        assert not flock_held(Path(load_settings(root, project).uri) / "LOCK")
        res = mem.search.query("flaky login test", strategy="hybrid", k=3)
        assert MEANING_COMING not in res.notes and res.strategy == "hybrid"


def test_a_big_memory_is_not_built_at_open(memory, monkeypatch) -> None:
    """``prepare`` builds only a small memory (files and chunks bounded): a bigger one is
    indexed when asked, not at every open; and learning that it is big walks no further
    than the bound (the full listing of a 100k store took ~100 MB at the app's open)."""
    from memsearch_tui.engine.api import Memory, warm_share
    from memsearch_tui.engine.search.settings import load_settings
    from memsearch_tui.engine.store import walk

    root, project = memory
    listed = []
    real_walk = walk.walk_entry_paths

    def counted(*args, **kwargs):
        for found in real_walk(*args, **kwargs):
            listed.append(found[0])
            yield found

    monkeypatch.setattr(walk, "walk_entry_paths", counted)
    monkeypatch.setattr(warm_share, "PREPARE_FILES", 1)  # the fixture holds 4 entries and 2 project files
    with Memory(root, project, share=True) as mem:
        mem.search.prepare()
        assert mem.search.wait_built(60)
    assert len(listed) == 2, listed  # one past the bound, not all four
    assert not load_settings(root, project).manifest_path.exists()


STRANGER = """
import os, socket, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)  # as root: the test's folders are 0700
os.setgid(65534)
os.setuid(65534)  # from here on another account
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
s.connect(f"/proc/self/fd/{fd}/{sys.argv[2]}")
try:
    s.sendall(b'{"op": "ping"}\\n')
    print(repr(s.recv(1000)) if s.recv(1000, socket.MSG_PEEK) else "closed")
except (ConnectionResetError, BrokenPipeError):
    print("closed")
"""


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="acting as another account needs root")
def test_the_owner_answers_no_other_account(memory) -> None:
    """Even when its socket's mode lets others connect (made 0666 here by hand), the owner
    answers no peer of another uid (``SO_PEERCRED``): the connection closes unanswered."""
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.search import owner_wire

    root, project = memory
    state_dir, key = where(root, project)
    with Memory(root, project, share=True) as mem:
        mem.search.query("flaky", strategy="index")
        path = state_dir / f"owner-{key}.sock"
        os.chmod(path, 0o666)
        os.chmod(state_dir, 0o755)
        out = subprocess.run(
            [sys.executable, "-c", STRANGER, str(state_dir), path.name], capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "closed"  # nothing said
        os.chmod(path, 0o600)
        assert owner_wire.ask(state_dir, key, {"op": "ping"}, 5.0) == {"ok": True, "pid": os.getpid()}


def test_many_chunks_get_their_keyword_index_at_open_but_no_vectors(memory, monkeypatch) -> None:
    """Over the chunk bound the build at open stops after the keyword index: the vectors
    (seconds of CPU per hundred chunks) wait for a meaning search or `vectors index`."""
    from memsearch_tui.engine.api import Memory, warm_share
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.settings import load_settings

    root, project = memory
    monkeypatch.setattr(warm_share, "PREPARE_CHUNKS", 0)
    with Memory(root, project, share=True) as mem:
        mem.search.prepare()
        assert mem.search.wait_built(60)
    m = Manifest(load_settings(root, project).manifest_path)
    try:
        assert m.count_pending()[0] > 0 and m.get_meta("vectors") is None
    finally:
        m.close()


@pytest.mark.slow
def test_an_idle_owner_frees_milvus_after_serving_another_face(memory, monkeypatch) -> None:
    """The app (an idle owner: its pane released the searcher) answers a CLI or MCP face's
    meaning search, which opens Milvus Lite in the app. Some seconds after the last such
    search the app frees it again. Before: one question from a terminal kept Milvus Lite's
    lock for the app's whole life, so `vectors index` / `status` there said "locked"."""
    import time

    from memsearch_tui.engine.api import Memory, warm_share
    from memsearch_tui.engine.core.locking import flock_held
    from memsearch_tui.engine.search.settings import load_settings

    monkeypatch.setattr(warm_share, "SERVED_IDLE", 5.0, raising=False)
    root, project = memory
    milvus_lock = Path(load_settings(root, project).uri) / "LOCK"
    with Memory(root, project, share=True) as app:
        app.search.query("flaky login test", strategy="index", k=3)
        assert app.warm.owner is not None
        app.search.release()  # the search pane's idle release: the app holds nothing now
        with Memory(root, project) as face:
            res = face.search.query("how did we fix the flaky login test", strategy="hybrid", k=3)
            assert face.warm.served_by == os.getpid() and res.strategy == "hybrid"
        assert flock_held(milvus_lock)  # opened in the app to serve that search
        deadline = time.monotonic() + 60
        while flock_held(milvus_lock) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not flock_held(milvus_lock), "the idle owner kept Milvus Lite after serving"
        res = app.search.query("flaky login test", strategy="hybrid", k=3)  # its own search reopens it
        assert res.hits and "flaky login" in res.hits[0].snippet


def test_another_face_gets_keyword_hits_at_once_while_the_owner_builds(memory, monkeypatch) -> None:
    """The app builds the index as it opens; a CLI or MCP face's meaning search meanwhile is
    answered by the app with the keyword hits and the note that meaning results are coming,
    as the app's own search pane is. Before: the owner queued it behind the whole build (the
    asker gave up after 30 s and searched by itself, behind the same locks)."""
    from memsearch_tui.engine.api import MEANING_COMING, Memory

    go = hold_index(monkeypatch)
    root, project = memory
    with Memory(root, project, share=True) as app:
        app.search.prepare()
        assert app.warm.owner is not None
        try:
            with Memory(root, project) as face:
                res = face.search.query("flaky login test", strategy="hybrid", k=3)
                assert face.warm.served_by == os.getpid()
                assert MEANING_COMING in res.notes and res.hits and "flaky login" in res.hits[0].snippet
        finally:
            go.set()
            assert app.search.wait_built(120)


@pytest.mark.slow
def test_meaning_hits_come_from_the_vectors_embedded_so_far_while_the_build_goes_on(memory, monkeypatch) -> None:
    """Issue 36 item 6: a meaning search during the build at open is ranked by meaning over
    the chunks whose text the build has embedded so far, says over how many, and still says
    the full result is coming; after the build the same search ranks every chunk. Before:
    keyword hits only until the whole build ended. The build is held after its first batch
    of two texts (the only stand-in: what is tested is the answer during the build)."""
    import threading

    from memsearch_tui.engine.api import MEANING_COMING, Memory
    from memsearch_tui.engine.search import indexer

    monkeypatch.setattr(indexer, "FIRST_BATCH", 2)
    go, held = threading.Event(), threading.Event()
    real_step = indexer._Progress.step

    def step(self, n: int) -> None:
        real_step(self, n)
        if not held.is_set():
            held.set()
            assert go.wait(120), "the test never let the build go on"

    monkeypatch.setattr(indexer._Progress, "step", step)
    root, project = memory
    with Memory(root, project, share=True) as mem:
        mem.search.prepare()
        assert held.wait(120)
        try:
            res = mem.search.query("the login test that failed now and then", strategy="vector", k=5)
        finally:
            go.set()
        assert res.strategy == "vector" and MEANING_COMING in res.notes
        partial = [re.fullmatch(r"meaning over (\d+) of (\d+) chunks.*", n) for n in res.notes]
        got, total = next((int(m[1]), int(m[2])) for m in partial if m)
        assert 0 < got < total and 0 < len(res.hits) <= got
        assert mem.search.wait_built(120)
        res = mem.search.query("the login test that failed now and then", strategy="vector", k=5)
        assert MEANING_COMING not in res.notes and not any("meaning over" in n for n in res.notes)
        assert len(res.hits) == 5


_FILLERS = ["Lunch", "Coffee", "Standup", "午饭", "Break", "Call with Ana", "Reviewed a PR", "开会", "Walk", "Email"]
_OFF_TOPIC = (
    "Renamed the cache folders of old scanned photos: cache/photos-2019, cache/photos-2020 and "
    "cache/misc now live under archive/, because the cache names confused people on the shared drive"
)
_ON_TOPIC = (
    "To keep the Redis cache fast we pin the hot keys in memory, batch the writes and set a short "
    "expiry, so page loads dropped from 900 ms to 120 ms; 缓存保持快速：热键常驻内存"
)


def _day_of_turns(texts: list[str]) -> str:
    turns = [
        f"### 09:{i:02d}\n<!-- session:cafe turn:{i} transcript:/t/cafe.jsonl -->\n- {t}\n"
        for i, t in enumerate(texts, 1)
    ]
    return "# 2024-05-02\n\n## Session 09:00\n\n" + "\n".join(turns)


@pytest.mark.slow
def test_the_first_meaning_answer_during_the_build_is_the_final_one(memory, monkeypatch) -> None:
    """Issue 36 item 6: a meaning question asked while the build embeds has the build embed
    next the chunks its keyword leg ranks highest and their neighbours, so its answer once
    those are in (``wait_meaning``) ranks them under their final vectors: the same top hits
    as after the build. Before: the build went on shortest texts first, and the answer over
    the first vectors ranked the two long turns by their keywords alone and a short one
    under its own vector, not as the finished index does. The build is held after its
    first two batches (the only stand-in: what is tested is the answer during the build)."""
    import threading

    from memsearch_tui.engine.api import Memory
    from memsearch_tui.engine.search import indexer

    root, project = memory
    day = project / ".memsearch" / "memory" / "2024-05-02.md"
    day.write_text(_day_of_turns([*_FILLERS[:5], _OFF_TOPIC, *_FILLERS[5:], _ON_TOPIC, "Done"]), encoding="utf-8")
    monkeypatch.setattr(indexer, "FIRST_BATCH", 2)
    held, go = [threading.Event(), threading.Event()], [threading.Event(), threading.Event()]
    steps: list[int] = []
    real_step = indexer._Progress.step

    def step(self, n: int) -> None:
        real_step(self, n)
        steps.append(n)
        if len(steps) <= 2:
            held[len(steps) - 1].set()
            assert go[len(steps) - 1].wait(120), "the test never let the build go on"

    monkeypatch.setattr(indexer._Progress, "step", step)
    question = "how do we keep the cache fast"
    with Memory(root, project, share=True) as mem:
        mem.search.prepare()
        try:
            assert held[0].wait(120)
            mem.search.query(question, strategy="hybrid", k=2)  # at once: over two texts
            go[0].set()
            assert mem.search.wait_meaning(120)
            partial = mem.search.query(question, strategy="hybrid", k=2)
        finally:
            go[0].set()
            go[1].set()
        assert mem.search.wait_built(120)
        full = mem.search.query(question, strategy="hybrid", k=2)
    assert any(n.startswith("meaning over") for n in partial.notes)  # asked during the build
    assert not any(n.startswith("meaning over") for n in full.notes)
    assert "Redis cache fast" in full.hits[0].snippet  # the fixture's point: meaning ranks it first
    assert [(h.id, h.lines, h.snippet) for h in partial.hits] == [(h.id, h.lines, h.snippet) for h in full.hits]
