"""One ``[tui.search] collection`` on one real Milvus server, shared by two users, each with
a project of their own: index, forget, purge, drift repair (a forced re-index) and reset by
one leave the other's rows exactly as they were, and neither ever sees the other's."""

from __future__ import annotations

import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.search import Searcher
from memsearch_tui.engine.search.purge import scrub_search
from memsearch_tui.engine.search.status import refresh_after_edit, reset, status

from .conftest import ENTRIES, use_server, write_entry

pytestmark = pytest.mark.slow  # a real server and model: seconds per test

BOB = {
    "notes/咖啡": ("咖啡", ["生活"], "鲍勃每天早上喝两杯手冲咖啡，不加糖。\n"),
    "notes/bike": ("Bike", ["sport"], "Bob rides a steel touring bike to the office in Lyon.\n"),
    "tools/editor": ("Editor", ["emacs"], "Bob edits everything in Emacs with evil mode.\n"),  # same id as Alice's
}


@contextmanager
def as_user(monkeypatch, home: Path, data: Path):
    """This process acts as one user: their HOME (and config) and their index folder."""
    with monkeypatch.context() as m:
        m.setenv("HOME", str(home))
        m.setenv("MEMSEARCH_TUI_DATA_DIR", str(data))
        yield


def _user(tmp_path: Path, name: str, entries: dict, uri: str, collection: str) -> tuple[Path, Path, Path, Path]:
    root, project, home = tmp_path / name / "memory", tmp_path / name / "proj", tmp_path / name / "home"
    for entry_id, (title, tags, body) in entries.items():
        write_entry(root, entry_id, title, tags, body)
    day = project / ".memsearch" / "memory" / "2024-05-01.md"
    day.parent.mkdir(parents=True)
    day.write_text(f"# 2024-05-01\n\n### 10:00\n- {name} fixed the nightly backup job\n", encoding="utf-8")
    use_server(home, uri, collection)
    return root, project, home, tmp_path / name / "data"


def _rows(user, monkeypatch) -> int:
    root, project, home, data = user
    with as_user(monkeypatch, home, data):
        return status(root, project)["vectors"]


def _hits(user, monkeypatch, query: str) -> list[str]:
    root, project, home, data = user
    with as_user(monkeypatch, home, data), Searcher(root, project) as s:
        return [h.id for h in s.search(query, strategy="vector", k=10).hits]


def test_two_users_share_one_collection_without_touching_each_other(milvus_server, tmp_path, monkeypatch):
    shared = f"team_{uuid.uuid4().hex[:10]}"  # the run's server is shared by other tests
    alice = _user(tmp_path, "alice", ENTRIES, milvus_server, shared)
    bob = _user(tmp_path, "bob", BOB, milvus_server, shared)
    for root, project, home, data in (alice, bob):
        with as_user(monkeypatch, home, data), Searcher(root, project) as s:
            assert s.index().embedded > 0
    bob_rows = _rows(bob, monkeypatch)
    with as_user(monkeypatch, bob[2], bob[3]):
        assert bob_rows == status(bob[0], bob[1])["chunks"] > 0
    with as_user(monkeypatch, alice[2], alice[3]):
        st = status(alice[0], alice[1])
        assert st["vectors"] == st["chunks"]  # her own rows only, not the collection's
    bob_found = _hits(bob, monkeypatch, "which bike does Bob ride to work")
    assert bob_found[0] == "notes/bike"
    assert not {"projects/alpha", "people/用户偏好"} & set(bob_found)  # never Alice's rows
    assert "notes/bike" not in _hits(alice, monkeypatch, "steel touring bike to the office")

    def alice_does(step) -> None:
        root, project, home, data = alice
        with as_user(monkeypatch, home, data):
            step(root, project)
        assert _rows(bob, monkeypatch) == bob_rows, step.__name__
        assert _hits(bob, monkeypatch, "which bike does Bob ride to work") == bob_found, step.__name__

    def forget(root, project):  # a file gone, then the refresh a journal forget runs
        (root / "tools" / "editor.md").unlink()
        assert "deleted" in refresh_after_edit(root, project)["vectors"]

    def purge(root, project):
        (root / "projects" / "alpha.md").unlink()
        scrub_search(root, project)
        assert "projects/alpha" not in _hits(alice, monkeypatch, "alpha frontend React dark theme")

    def drift_repair(root, project):
        with Searcher(root, project) as s:
            assert s.index(force=True).embedded > 0

    def reset_all(root, project):
        assert reset(root, project)["dropped"] is True
        assert status(root, project)["vectors"] == 0

    for step in (forget, purge, drift_repair, reset_all):
        alice_does(step)
    assert _rows(alice, monkeypatch) == 0


def _legacy_collection(c, name: str, *, lite: bool = False) -> None:
    """A collection as memsearch-tui made it before the owner key (schema ``chunks-v1``)."""
    from pymilvus import DataType

    from memsearch_tui.engine.search.milvus_backend import LEGACY_MARKER, MARKER_KEY, TEXT_FIELDS

    schema = c.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("id", DataType.VARCHAR, is_primary=True, max_length=64)
    schema.add_field("vec", DataType.FLOAT_VECTOR, dim=384)
    for field_name, size in TEXT_FIELDS.items():
        schema.add_field(field_name, DataType.VARCHAR, max_length=size)
    schema.add_field("start_line", DataType.INT64)
    schema.add_field("end_line", DataType.INT64)
    c.create_collection(name, schema=schema, properties={MARKER_KEY: LEGACY_MARKER})
    index = c.prepare_index_params()
    index.add_index("vec", index_type="FLAT", metric_type="COSINE")
    c.create_index(name, index, sync=not lite)  # Lite has no synchronous index wait
    c.load_collection(name)


def test_collection_without_the_owner_key_is_refused_on_a_server_and_left_as_it_was(milvus_server, memory):
    """A collection made by an older memsearch-tui (no owner key): on a shared server its rows
    cannot be told apart, so nothing writes, counts or drops it; the message says what to do."""
    from pymilvus import MilvusClient

    from memsearch_tui.engine.search.milvus_backend import TEXT_FIELDS

    root, project = memory
    home, old = Path(str(root)).parent / "home", f"old_{uuid.uuid4().hex[:10]}"
    use_server(home, milvus_server, old)
    c = MilvusClient(uri=milvus_server)
    _legacy_collection(c, old)
    row = {"id": "someone-else", "vec": [0.05] * 384, **{k: "x" for k in TEXT_FIELDS}, "start_line": 1, "end_line": 1}
    c.insert(old, [row])
    with Searcher(root, project) as s, pytest.raises(Refused) as err:
        s.index()
    assert err.value.code == "legacy_collection" and "[tui.search] collection" in err.value.message
    with pytest.raises(Refused):
        reset(root, project)
    assert c.query(old, filter="", output_fields=["count(*)"], consistency_level="Strong")[0]["count(*)"] == 1
    c.drop_collection(old)


def test_a_search_right_after_this_process_writes_sees_the_write(milvus_server, tmp_path, memory, add_entry):
    """Read-your-writes on the server: the default (Bounded) consistency can miss a row written
    a moment ago, or still return a deleted one; Session reads see this process's own writes."""
    root, project = memory
    use_server(tmp_path / "home", milvus_server, f"ryw_{uuid.uuid4().hex[:10]}")
    with Searcher(root, project) as s:
        s.index()
        for n in range(3):  # each round: a new memory is found at once, a forgotten one is gone at once
            add_entry(root, f"trips/t{n}", "Trip", ["travel"], f"Trip {n}: a night train from Vienna to Venice.\n")
            s.index()
            assert f"trips/t{n}" in [h.id for h in s.search("night train to Venice", strategy="vector", k=3).hits]
            (root / "trips" / f"t{n}.md").unlink()
            assert s.index().deleted_vectors >= 1
            assert f"trips/t{n}" not in [h.id for h in s.search("night train to Venice", strategy="vector", k=3).hits]


def test_a_lite_collection_from_before_the_key_is_used_as_it_is(memory):
    """On Lite a data dir is one index's, so an owner-less (v1) collection stays in use: no
    migration, no re-embedding, its rows written without the key."""
    from milvus_lite.server_manager import server_manager_instance
    from pymilvus import MilvusClient

    from memsearch_tui.engine.search.settings import load_settings

    root, project = memory
    s0 = load_settings(root, project)
    s0.state_dir.mkdir(parents=True, exist_ok=True)
    _legacy_collection(MilvusClient(uri=s0.uri), s0.collection, lite=True)
    server_manager_instance.release_server(s0.uri)
    with Searcher(root, project) as s:
        assert s.index().embedded > 0
        assert s.search("which code editor do I use", strategy="vector", k=1).hits[0].id == "tools/editor"
        assert "owner" not in {f["name"] for f in s.vectors.client.describe_collection(s0.collection)["fields"]}
    st = status(root, project)
    assert st["vectors"] == st["chunks"] and "partition_key" not in st
