"""Faults of a real Milvus server: down before we start (one clear line, the keyword search
still answers, the hook's runner ends with a row), and killed in the middle of an index
(the next index repairs it: every chunk once, none missing)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.search import Searcher, upkeep
from memsearch_tui.engine.search.status import status

from .conftest import server_script, use_server

pytestmark = pytest.mark.slow  # real server, model and subprocesses

NOISE = ("Traceback", "pymilvus", "grpc", "E0000", "WARNING", "RPC error")


def _dead_uri() -> str:
    """A loopback port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def _cli(root: Path, project: Path, home: Path, data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "MEMSEARCH_TUI_DATA_DIR": str(data)}
    cmd = [sys.executable, "-m", "memsearch_tui", "--memory-root", str(root), "--project", str(project), *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)


def test_server_down_at_start_one_line_and_the_keyword_search_answers(memory, tmp_path, data_dir):
    root, project = memory
    home = tmp_path / "home"
    dead = _dead_uri()
    use_server(home, dead, "down_test")
    auto = _cli(root, project, home, data_dir, "search", "gruvbox colour scheme")
    assert auto.returncode == 0 and "tools/editor" in auto.stdout
    assert f"cannot reach Milvus at {dead}" in auto.stdout + auto.stderr
    keyword = _cli(root, project, home, data_dir, "search", "gruvbox", "-s", "index")
    assert keyword.returncode == 0 and "tools/editor" in keyword.stdout
    vector = _cli(root, project, home, data_dir, "search", "which editor", "-s", "vector")
    assert vector.returncode != 0 and vector.stdout == ""
    assert vector.stderr.strip().count("\n") == 0 and dead in vector.stderr  # one line, naming the server
    for run in (auto, keyword, vector):
        assert not [w for w in NOISE if w in run.stderr], run.stderr
    row = upkeep(root, project)  # what the hook's background runner does
    assert row["result"] == "error" and dead in row["reason"], row


def _start(state: Path) -> str:
    done = server_script("start", str(state), "--keep", "--parent", str(os.getpid()))
    if done.returncode != 0:
        pytest.skip(f"no Milvus server: {done.stderr.strip()[-300:]}")
    return done.stdout.strip()


def test_server_killed_mid_index_the_next_index_repairs_it(
    milvus_server, memory, tmp_path, add_entry, monkeypatch, capfd
):
    """A server of its own (``milvus_server``: the run's is installed and starts here), killed
    with SIGKILL after the first batch of rows, then started again on the same data."""
    from pymilvus import MilvusClient

    from memsearch_tui.engine.search import indexer

    root, project = memory
    for n in range(24):
        add_entry(root, f"log/day{n}", f"Day {n}", ["log"], f"Day {n}: 第{n}天 we tuned the cache for service {n}.\n")
    state = tmp_path / "server"
    uri = _start(state)
    use_server(tmp_path / "home", uri, "killed")
    monkeypatch.setattr(indexer, "BATCH", 4)  # many small batches: the kill lands between two
    pid = int((state / "pid").read_text())
    killed = []

    def kill_after_first_rows(done: int, total: int) -> None:
        if not killed and done > total // 2:
            os.kill(pid, signal.SIGKILL)
            killed.append(done)

    with Searcher(root, project) as s, pytest.raises(MemsearchError) as err:
        s.index(progress=kill_after_first_rows)
    assert killed and uri in err.value.message and "\n" not in err.value.message
    noise = capfd.readouterr().err
    assert not [w for w in NOISE if w in noise], noise  # no traceback, no pymilvus/grpc lines
    assert _start(state) == uri  # the same data and ports
    with Searcher(root, project) as s:
        assert s.index().embedded > 0
        assert s.search("第7天 cache", strategy="vector", k=3).hits
    st = status(root, project)
    assert st["vectors"] == st["chunks"] and st["drift"]["missing_vectors"] == 0
    c = MilvusClient(uri=uri)
    ids = [r["id"] for r in c.query("killed", filter="", output_fields=["id"], limit=16384, consistency_level="Strong")]
    assert len(ids) == len(set(ids)) == st["chunks"]  # no chunk twice, none missing
    server_script("stop", str(state))
