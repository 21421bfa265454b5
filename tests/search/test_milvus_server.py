"""The vector suite against a real Milvus standalone server (``milvus==2.3.x``, started once
per run by ``scripts/milvus_server.py`` through the ``milvus_server`` fixture) and against
Milvus Lite: the same code, reached by ``http://`` URI from the user config."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.status import reset, status
from tests.helpers import run_cli

pytestmark = pytest.mark.slow  # real model / Milvus: seconds per test


def test_vector_suite_through_uri_from_config(backend, memory):
    root, project = memory
    with Searcher(root, project) as s:
        assert s.s.backend == ("milvus-lite" if backend == "lite" else "milvus")
        rep = s.index()
        assert rep.embedded > 0
        assert s.search("which code editor do I use", strategy="vector", k=1).hits[0].id == "tools/editor"
        assert s.search("深色主题", strategy="hybrid", k=1).hits[0].id == "people/用户偏好"
        (root / "tools" / "editor.md").unlink()
        assert s.index().deleted_vectors >= 1
    st = status(root, project)
    assert st["vectors"] == st["chunks"] and st["drift"]["orphan_chunks"] == 0
    if backend != "lite":
        assert (st["uri"], st["server_version"]) == (backend, "v2.3.5-lite")
        assert st["partition_key"].startswith("owner = ")
        shown = run_cli("--memory-root", str(root), "--project", str(project), "vectors", "status").out
        assert "server      Milvus v2.3.5-lite" in shown and f"key         {st['partition_key']}" in shown
        assert f"(vectors in Milvus: {st['chunks']})" in shown  # this index's rows
        done = run_cli("--memory-root", str(root), "--project", str(project), "vectors", "reset", "--yes")
        assert done.code == 0 and "deleted this index's rows from collection" in done.out
    assert reset(root, project)["dropped"] is True
    assert status(root, project)["vectors"] == 0
