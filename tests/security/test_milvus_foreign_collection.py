"""memsearch's own index is never touched: a configured collection with another schema is
refused by index, search, status and reset, and left exactly as it was (Milvus Lite)."""

from __future__ import annotations

import pytest

from tests.helpers import run_cli
from tests.search.conftest import data_dir, memory  # noqa: F401  (fixtures)

FOREIGN = "notes_chunks"  # a memsearch user's own collection name


def _foreign_collection(uri: str) -> None:
    """A collection in memsearch's schema (not ours), with three rows."""
    from milvus_lite.server_manager import server_manager_instance
    from pymilvus import DataType, MilvusClient

    client = MilvusClient(uri=uri)
    schema = client.create_schema(auto_id=False, enable_dynamic_field=True)
    schema.add_field("chunk_hash", DataType.VARCHAR, is_primary=True, max_length=64)
    schema.add_field("embedding", DataType.FLOAT_VECTOR, dim=384)
    schema.add_field("content", DataType.VARCHAR, max_length=1024)
    index = client.prepare_index_params()
    index.add_index("embedding", index_type="FLAT", metric_type="COSINE")
    client.create_collection(FOREIGN, schema=schema, index_params=index)
    rows = [
        {"chunk_hash": f"h{i}", "embedding": [0.1 * (i + 1)] * 384, "content": f"memsearch chunk {i}"} for i in range(3)
    ]
    client.insert(FOREIGN, rows)
    client.close()
    server_manager_instance.release_server(uri)


def _snapshot(uri: str) -> tuple[list[str], list[dict]]:
    from milvus_lite.server_manager import server_manager_instance
    from pymilvus import MilvusClient

    client = MilvusClient(uri=uri)
    try:
        fields = sorted(f["name"] for f in client.describe_collection(FOREIGN)["fields"])
        client.load_collection(FOREIGN)
        rows = client.query(FOREIGN, filter="", output_fields=["chunk_hash", "content"], limit=100)
        return fields, sorted(({"h": r["chunk_hash"], "c": r["content"]} for r in rows), key=lambda r: r["h"])
    finally:
        client.close()
        server_manager_instance.release_server(uri)


@pytest.fixture
def foreign(memory, tmp_path):  # noqa: F811
    root, project = memory
    uri = str(tmp_path / "memsearch-data" / "milvus.db")
    (tmp_path / "memsearch-data").mkdir()
    _foreign_collection(uri)
    home = tmp_path / "home" / ".memsearch"
    home.mkdir(parents=True)
    (home / "config.toml").write_text(
        f'[milvus]\nuri = "{uri}"\n[tui.search]\ncollection = "{FOREIGN}"\n', encoding="utf-8"
    )
    return root, project, uri


def _cli(root, project, *args):
    r = run_cli("--memory-root", str(root), "--project", str(project), "--json", *args)
    return r.code, r.json


def test_index_search_status_reset_refuse_a_foreign_collection(foreign):
    root, project, uri = foreign
    before = _snapshot(uri)
    assert len(before[1]) == 3

    rc, env = _cli(root, project, "vectors", "index")
    assert rc == 1 and env["error"]["code"] == "foreign_collection"
    assert FOREIGN in env["error"]["message"] and "not created by memsearch-tui" in env["error"]["message"]

    rc, env = _cli(root, project, "vectors", "status")
    assert rc == 0
    assert env["data"]["vectors"] is None  # never counted
    assert "not created by memsearch-tui" in env["data"]["milvus_error"]

    rc, env = _cli(root, project, "vectors", "reset", "--yes")
    assert rc == 1 and env["error"]["code"] == "foreign_collection"

    rc, env = _cli(root, project, "search", "dark theme", "--strategy", "vector")
    assert rc == 1 and env["error"]["code"] == "foreign_collection"

    assert _snapshot(uri) == before  # same schema, same three rows


def test_our_own_collection_is_marked_and_still_reset(memory):  # noqa: F811
    root, project = memory
    rc, env = _cli(root, project, "vectors", "index")
    assert rc == 0 and env["data"]["embedded"] > 0
    rc, env = _cli(root, project, "vectors", "status")
    uri, name = env["data"]["uri"], env["data"]["collection"]
    from milvus_lite.server_manager import server_manager_instance
    from pymilvus import MilvusClient

    from memsearch_tui.engine.search.milvus_backend import MARKER, MARKER_KEY

    client = MilvusClient(uri=uri)
    try:
        assert client.describe_collection(name)["properties"].get(MARKER_KEY) == MARKER
    finally:
        client.close()
        server_manager_instance.release_server(uri)
    rc, env = _cli(root, project, "vectors", "reset", "--yes")
    assert rc == 0 and env["data"]["dropped"] is True
