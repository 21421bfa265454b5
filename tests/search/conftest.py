"""Shared fixtures: a small real store + project journals, and an isolated data dir.

Every test writes real files under tmp_path; the index (SQLite manifest + Milvus Lite
data dir) goes to a per-test data dir through ``MEMSEARCH_TUI_DATA_DIR``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ENTRIES = {
    "projects/alpha": (
        "Alpha project",
        ["web", "react"],
        """
        # Alpha

        The alpha frontend uses React with a dark theme.

        ## Deploy

        We deploy alpha to Fly.io every Friday afternoon.
        """,
    ),
    "projects/web/beta": (
        "Beta service",
        ["go"],
        """
        # Beta

        Beta is a Go service that resizes images for the shop.
        """,
    ),
    "people/用户偏好": (
        "用户偏好",
        ["偏好"],
        """
        用户喜欢深色主题和简洁的界面，讨厌弹窗。
        """,
    ),
    "tools/editor": (
        "Editor settings",
        ["vim"],
        """
        # Editor

        Neovim with the gruvbox colour scheme and relative line numbers.
        """,
    ),
}

JOURNAL = """\
# 2024-05-01

## Session 14:02

### 14:05
<!-- session:abc turn:1 transcript:/t/abc.jsonl -->
- Fixed the flaky login test by mocking the system clock
- User prefers pytest over unittest

### 14:20
<!-- session:abc turn:2 transcript:/t/abc.jsonl -->
- Migrated the orders database to Postgres 16
"""


def write_entry(root: Path, entry_id: str, title: str, tags: list[str], body: str) -> Path:
    """An entry file under ``root``, and the root's INDEX.md if it has none: a folder
    without one is no store, and search lists nothing in it (docs/search.md)."""
    path = root / f"{entry_id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not (root / "INDEX.md").exists():
        (root / "INDEX.md").write_text("| name | description |\n|---|---|\n", encoding="utf-8")
    fm = f"---\ntitle: {title}\nstatus: active\ntags: [{', '.join(tags)}]\n---\n"
    path.write_text(fm + textwrap.dedent(body).lstrip("\n"), encoding="utf-8")
    return path


@pytest.fixture
def add_entry():
    """``add_entry(root, id, title, tags, body)`` writes an entry file."""
    return write_entry


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "data"
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(d))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no user config leaks in
    return d


@pytest.fixture
def memory(tmp_path, data_dir) -> tuple[Path, Path]:
    """(memory_root, project) with four entries and one journal day."""
    return make_memory(tmp_path)


def make_memory(tmp_path: Path) -> tuple[Path, Path]:
    """``memory``'s files under ``tmp_path``: (memory_root, project)."""
    root = tmp_path / "memory"
    for entry_id, (title, tags, body) in ENTRIES.items():
        write_entry(root, entry_id, title, tags, body)
    (root / "INDEX.md").write_text("| name | description |\n|---|---|\n| projects | all projects |\n")
    (root / ".trash").mkdir()
    (root / ".trash" / "gone.md").write_text("---\ntitle: gone\n---\nforgotten dark theme note\n")
    project = tmp_path / "proj"
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    (mem / "2024-05-01.md").write_text(JOURNAL, encoding="utf-8")
    (project / ".memsearch" / "PROJECT.md").write_text("# Project\n\nThe shop runs on Kubernetes in Frankfurt.\n")
    return root, project


@pytest.fixture(params=["0", "1"], ids=["cpu-without-native-bf16", "cpu-with-native-bf16"])
def cpu_bf16(request, monkeypatch) -> bool:
    """Both answers of ``native_bf16()`` on any CPU (``MEMSEARCH_TUI_NATIVE_BF16``, which a
    subprocess inherits): a test whose expectation follows the CPU runs once per answer and
    computes what to expect from the rule the code uses, never from this machine."""
    from memsearch_tui.engine.search.embeddings import NATIVE_BF16_ENV, index_encoder, native_bf16

    monkeypatch.setenv(NATIVE_BF16_ENV, request.param)
    native_bf16.cache_clear()
    index_encoder.cache_clear()
    yield request.param == "1"
    native_bf16.cache_clear()
    index_encoder.cache_clear()


LITE_HOLDER = """
import sys
from pymilvus import MilvusClient
c = MilvusClient(sys.argv[1])
print("held", flush=True)
sys.stdin.readline()
"""


@contextmanager
def lite_held(uri: str) -> Iterator[None]:
    """Another process holds the Milvus Lite data dir at ``uri`` until the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-c", LITE_HOLDER, uri],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=30)


#: The modules that import torch in the worker (sentence-transformers, the torch encoder,
#: the ONNX export): one xdist work unit (``--dist loadgroup``), so one worker pays the
#: import (~6 s of CPU) and each module's model fixture once; handed out singly, their
#: tests ran on every worker and each paid both.
TORCH_WORKER = pytest.mark.xdist_group("torch")


# -- a real Milvus standalone server (scripts/milvus_server.py), one per run -----------------
SERVER_ENV = "MEMSEARCH_TUI_TEST_MILVUS_URI"  # a server already running: use it, start none
# The side venv's cache, read before any test moves HOME (a test's own HOME would install it again).
SERVER_CACHE = {"XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")}


def server_script(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``scripts/milvus_server.py ARGS`` with the run's cache of the server."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "milvus_server.py"
    return subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **SERVER_CACHE},
    )


def _start_shared_server(root: Path) -> str:
    """Start the run's one server, or read the URI another xdist worker wrote; RuntimeError
    (the reason) when it cannot start. The supervisor stops the server when the pytest
    process that started the workers exits, however it exits."""
    from filelock import FileLock

    state = root / "milvus-server"
    with FileLock(str(root / "milvus-server.lock")):
        if (state / "uri").exists():
            return (state / "uri").read_text()
        if (state / "failed").exists():
            raise RuntimeError((state / "failed").read_text())
        parent = os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else os.getpid()
        proc = server_script("start", str(state), "--parent", str(parent))
        if proc.returncode != 0:
            state.mkdir(parents=True, exist_ok=True)
            reason = (proc.stderr.strip().splitlines() or ["milvus server did not start"])[-1]
            (state / "failed").write_text(reason)
            raise RuntimeError(reason)
        return proc.stdout.strip()


def server_root(basetemp: Path, worker: str | None) -> Path:
    """Where the run's server state lives: the run's own folder. An xdist worker's basetemp is
    ``pytest-N/popen-gwK`` (its parent is the run's); a run without workers has ``pytest-N``
    itself, whose parent ``pytest-of-<user>`` every such run shares: a dead server's ``uri``
    (or a ``failed`` file) left there by an earlier run was read as this run's."""
    return basetemp.parent if worker else basetemp


@pytest.fixture(scope="session")
def milvus_server(tmp_path_factory) -> str:
    """The URI of a real Milvus standalone server shared by the run (skipped, with the
    reason, only when it cannot start)."""
    if os.environ.get(SERVER_ENV):
        return os.environ[SERVER_ENV]
    try:
        return _start_shared_server(server_root(tmp_path_factory.getbasetemp(), os.environ.get("PYTEST_XDIST_WORKER")))
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"no Milvus server: {exc}")


def uses_the_run_server(item: pytest.Item) -> bool:
    """Whether a test takes the run's server: ``milvus_server`` itself or ``backend``'s
    "server" side (which asks for it only then)."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    return "milvus_server" in getattr(item, "fixturenames", ()) or params.get("backend") == "server"


def pytest_collection_finish(session: pytest.Session) -> None:
    """How many of the run's tests take its server (every worker collects the same tests)."""
    session.config.stash[_SERVER_TESTS] = sum(uses_the_run_server(i) for i in session.items)


_SERVER_TESTS = pytest.StashKey[int]()


def one_server_test_done(root: Path, total: int) -> bool:
    """Count one finished server test in the run's folder (shared by its workers); True for
    the last of ``total``, when the server is stopped: the Milvus standalone server ticked
    at ~2 % of a core (measured: 0.54 s of CPU per idle 30 s) through the minutes of the
    run left after its tests, which the slow-first order hands out early."""
    from filelock import FileLock

    with FileLock(str(root / "milvus-server.lock")):
        done = root / "milvus-server-tests-done"
        n = int(done.read_text()) + 1 if done.exists() else 1
        done.write_text(str(n))
    return n == total


@pytest.fixture(autouse=True)
def _stop_the_server_after_its_last_test(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[None]:
    yield
    total = request.config.stash.get(_SERVER_TESTS, 0)
    if not uses_the_run_server(request.node) or os.environ.get(SERVER_ENV) or not total:
        return
    root = server_root(tmp_path_factory.getbasetemp(), os.environ.get("PYTEST_XDIST_WORKER"))
    if one_server_test_done(root, total) and (root / "milvus-server" / "supervisor").exists():
        server_script("stop", str(root / "milvus-server"))
        (root / "milvus-server" / "uri").unlink(missing_ok=True)  # a test after it would start one again


def use_server(home: Path, uri: str, collection: str) -> None:
    """Point this test's user config (``$HOME/.memsearch/config.toml``) at ``uri``."""
    cfg = home / ".memsearch" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(f'[milvus]\nuri = "{uri}"\n[tui.search]\ncollection = "{collection}"\n', encoding="utf-8")


@pytest.fixture(params=["lite", "server"])
def backend(request, tmp_path, data_dir) -> str:
    """Each vector test that takes it runs on Milvus Lite and on the real server: "lite" or
    the server's URI (the test's own collection, set in its user config)."""
    if request.param == "lite":
        return "lite"
    uri = request.getfixturevalue("milvus_server")
    use_server(tmp_path / "home", uri, f"t_{uuid.uuid4().hex[:12]}")
    return uri
