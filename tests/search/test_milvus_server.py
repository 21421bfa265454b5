"""The vector suite against a Milvus server reached by ``http://`` URI, as a server user would.

The server is Milvus Lite's own gRPC server (``python -m milvus_lite server``) started on
127.0.0.1 by the test; the code path is the remote one (no data dir, no lock probing).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

from memsearch_tui.engine.search import Searcher, reset, status

pytestmark = pytest.mark.slow  # real model / Milvus: seconds per test


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "milvus_lite",
            "server",
            "--data-dir",
            str(tmp_path / "srv"),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("milvus_lite server did not start")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=30)


def test_vector_suite_through_http_uri_from_config(server, memory, tmp_path):
    root, project = memory
    home = tmp_path / "home" / ".memsearch"
    home.mkdir(parents=True)
    (home / "config.toml").write_text(f'[milvus]\nuri = "{server}"\n[tui.search]\ncollection = "team_notes"\n')
    with Searcher(root, project) as s:
        assert s.s.backend == "milvus" and s.s.uri == server
        rep = s.index()
        assert rep.embedded > 0
        assert s.search("which code editor do I use", strategy="vector", k=1).hits[0].id == "tools/editor"
        assert s.search("深色主题", strategy="hybrid", k=1).hits[0].id == "people/用户偏好"
        (root / "tools" / "editor.md").unlink()
        assert s.index().deleted_vectors >= 1
    st = status(root, project)
    assert (st["backend"], st["uri"], st["collection"]) == ("milvus", server, "team_notes")
    assert st["vectors"] == st["chunks"] and st["drift"]["orphan_chunks"] == 0
    assert reset(root, project)["dropped"] is True
    assert status(root, project)["vectors"] == 0
