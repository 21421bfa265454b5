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


def test_a_first_index_on_the_server_only_inserts_and_a_repair_still_deletes_first(
    milvus_server, memory, tmp_path, monkeypatch
):
    """Milvus 2.3 logs a delete of every id, stored or not: a first index that deleted each
    batch's ids before inserting them made the server compact its segments and build their
    vector index again. None of this index's rows stored → no delete at all; rows that may
    be stored (every chunk queued again, as after a crash) → deleted first, none twice."""
    import uuid

    from pymilvus import MilvusClient

    from memsearch_tui.engine.search import indexer

    from .conftest import use_server

    root, project = memory
    collection = f"t_{uuid.uuid4().hex[:12]}"
    use_server(tmp_path / "home", milvus_server, collection)
    monkeypatch.setattr(indexer, "BATCH", 4)  # several batches
    deleted: list[int] = []
    real_delete = MilvusClient.delete

    def counting_delete(self, collection_name, *args, **kwargs):  # the real call, counted
        deleted.append(len(kwargs.get("ids") or ()))
        return real_delete(self, collection_name, *args, **kwargs)

    monkeypatch.setattr(MilvusClient, "delete", counting_delete)
    with Searcher(root, project) as s:
        assert s.index().embedded > 4
        assert deleted == []
        s.manifest.forget_vectors()  # every chunk queued again while its row is stored
        s.manifest.commit()
        assert s.index().embedded > 4
        assert sum(deleted) == s.manifest.chunk_count() and len(deleted) > 1
    st = status(root, project)
    ids = [
        r["id"]
        for r in MilvusClient(uri=milvus_server).query(
            collection, filter="", output_fields=["id"], limit=16384, consistency_level="Strong"
        )
    ]
    assert len(ids) == len(set(ids)) == st["chunks"] == st["vectors"]
    assert reset(root, project)["dropped"] is True


def test_each_run_keeps_its_server_state_in_its_own_folder(tmp_path) -> None:
    """A run without xdist workers kept its server's state in ``pytest-of-<user>``, shared by
    every such run: a later run read a dead server's URI and its server tests failed ("cannot
    reach Milvus"). Workers of one run share one folder; two runs never do."""
    from tests.search.conftest import server_root

    runs = [tmp_path / "pytest-of-me" / f"pytest-{n}" for n in (7, 8)]
    assert server_root(runs[0], None) != server_root(runs[1], None)  # two runs without workers
    assert server_root(runs[0] / "popen-gw0", "gw0") == server_root(runs[0] / "popen-gw3", "gw3") == runs[0]
    assert server_root(runs[0] / "popen-gw0", "gw0") != server_root(runs[1] / "popen-gw0", "gw0")


def test_the_run_server_stops_after_the_last_test_that_takes_it(tmp_path) -> None:
    """Every worker counts the run's server tests alike; each one that ends is counted in the
    run's folder, and only the last of them (on whichever worker) stops the server."""
    from dataclasses import dataclass, field

    from tests.search.conftest import one_server_test_done, uses_the_run_server

    @dataclass
    class Spec:
        params: dict[str, str]

    @dataclass
    class Item:  # the two things read of a pytest item (a stand-in: pytest is not under test)
        fixturenames: list[str]
        callspec: Spec = field(default_factory=lambda: Spec({}))

    takes = [
        Item(["milvus_server", "memory"]),
        Item(["backend", "memory"], Spec({"backend": "server"})),
        Item(["backend", "memory"], Spec({"backend": "lite"})),
        Item(["memory"]),
    ]
    assert [uses_the_run_server(i) for i in takes] == [True, True, False, False]  # type: ignore[arg-type]
    run = tmp_path / "pytest-7"
    run.mkdir()
    assert [one_server_test_done(run, 3) for _ in range(3)] == [False, False, True]
    other = tmp_path / "pytest-8"  # another run counts its own
    other.mkdir()
    assert one_server_test_done(other, 1) is True
