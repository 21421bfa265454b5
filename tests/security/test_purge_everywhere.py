"""Purge means gone: the purged text leaves the files, the operation log's kept copies,
the catalog, the literal-search text cache, the search manifest, the keyword cache and the
vectors — a byte-for-byte grep of the memory root and the index's state folder finds none
of it — and the undo history of the purged entry ends at the purge, saying so."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.api import trash as purge_mod
from memsearch_tui.engine.core.errors import Conflict
from memsearch_tui.engine.curator import trash
from memsearch_tui.engine.history import oplog, undo
from memsearch_tui.engine.store.store import Change, Store
from tests.helpers import run_cli

CANARY = "zq-canary-7f3e the release key ceremony happens in room nine"
CANARY_OLD = "zq-canary-0b1d an older text of the same entry, kept only in the log"
TITLE = "Ceremony zq-canary-title"


def _files_holding(folders: list[Path], needles: list[bytes]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for folder in folders:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                data = p.read_bytes()
                hits = [n.decode() for n in needles if n in data]
                if hits:
                    found[str(p)] = hits
    return found


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Store, Path, Path]:
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    store = Store(tmp_path / "memory")
    store.init()
    project = tmp_path / "proj"
    (project / ".memsearch" / "memory").mkdir(parents=True)
    return store, project, tmp_path / "data"


def _index_everything(store: Store, project: Path, *, vectors: bool) -> None:
    from memsearch_tui.engine.search import Searcher
    from memsearch_tui.engine.search.grep import literal_search

    with Searcher(store.root, project) as s:
        if vectors:
            s.index()
        else:
            s.refresh_chunks()
        assert s.search("ceremony", strategy="index", k=5).hits  # manifest + keyword cache hold it
    assert literal_search(store.root, project, "zq-canary-7f3e", 5, None, "all", None).hits  # text cache


def _add_then_trash(store: Store) -> str:
    entry = store.add("ops", TITLE, CANARY_OLD + "\n")
    store.update(entry.id, Change(body=CANARY + "\n"))
    store.add("ops", "Unrelated runbook", "restart the worker pool when the queue backs up\n")
    return entry.id


def test_purge_leaves_no_byte_of_the_entry_anywhere(world) -> None:
    store, project, data = world
    entry_id = _add_then_trash(store)
    _index_everything(store, project, vectors=True)
    trash.trash(store, entry_id, "obsolete")
    needles = [CANARY.encode(), CANARY_OLD.encode(), TITLE.encode(), b"zq-canary-title"]
    before = " ".join(_files_holding([store.root, data], needles))
    for copy in ("/blobs/", "manifest.sqlite3", "grep.sqlite3", "milvus.db", ".trash/INDEX.md"):
        assert copy in before, copy  # each copy held the text: the test can fail

    items = [trash.find_item(store.root, entry_id)]
    result = purge_mod.purge(store, items, yes=True, project=project)

    assert result["purged"] == [items[0].key]
    assert result["not_scrubbed"] == []
    assert result["history_ended"] >= 3  # add, update, trash
    assert _files_holding([store.root, data], needles) == {}
    from memsearch_tui.engine.search import Searcher

    with Searcher(store.root, project) as s:  # the rewritten vector collection still serves the rest
        assert [h.id for h in s.search("worker pool queue", strategy="vector", k=3).hits][:1] == [
            "ops/unrelated-runbook"
        ]


def test_purge_scrubs_rows_a_search_already_dropped(world) -> None:
    """Rows deleted by a search refresh after the trash still sit in SQLite free pages
    unless the files are scrubbed."""
    store, project, data = world
    entry_id = _add_then_trash(store)
    _index_everything(store, project, vectors=False)
    trash.trash(store, entry_id)
    _index_everything_after_trash(store, project)
    purge_mod.purge(store, trash.purge_candidates(store.root, everything=True), yes=True, project=project)
    assert _files_holding([store.root, data], [CANARY.encode(), CANARY_OLD.encode()]) == {}


def _index_everything_after_trash(store: Store, project: Path) -> None:
    from memsearch_tui.engine.search import Searcher
    from memsearch_tui.engine.search.grep import literal_search

    with Searcher(store.root, project) as s:
        s.refresh_chunks()
    assert not literal_search(store.root, project, "zq-canary-7f3e", 5, None, "all", None).hits


def test_undo_history_of_a_purged_entry_ends_at_the_purge_and_says_so(world) -> None:
    store, project, _ = world
    entry_id = _add_then_trash(store)
    trash.trash(store, entry_id)
    purge_mod.purge(store, trash.purge_candidates(store.root, everything=True), yes=True, project=project)

    listed = undo.history(store.root)
    marked = [r for r in listed if r["purged"]]
    assert {r["kind"] for r in marked} >= {"add", "update", "trash"}
    assert all("purged" in str(r["purged"]) for r in marked)
    assert all(TITLE not in str(r["summary"]) and entry_id not in str(r["summary"]) for r in marked)
    with pytest.raises(Conflict, match="purged") as info:
        undo.undo_last(store.root)
    assert "undo history ends here" in info.value.message
    own = [f for r in oplog.records(store.root) if r.purged for f in r.files if f["path"] == oplog.PURGED]
    assert own and all(oplog.PURGED in (f["before"], f["after"]) for f in own)


def test_unrelated_history_survives_a_purge(world) -> None:
    """Only operations that held the purged text lose their undo: a later add elsewhere
    can still be undone."""
    store, project, _ = world
    entry_id = _add_then_trash(store)
    trash.trash(store, entry_id)
    purge_mod.purge(store, trash.purge_candidates(store.root, everything=True), yes=True, project=project)
    later = store.add("elsewhere", "Later note", "written after the purge, undoable as ever\n")
    assert undo.undo_last(store.root).kind == "add"
    assert not later.path.exists()


def test_cli_purge_reports_and_scrubs(world) -> None:
    store, project, data = world
    entry_id = _add_then_trash(store)
    trash.trash(store, entry_id)
    r = run_cli(
        "--memory-root", str(store.root), "--project", str(project), "trash", "purge", "--all", "--yes", "--json"
    )
    code, out = r.code, r.out
    assert code == 0, out
    assert '"history_ended"' in out and CANARY not in out
    assert _files_holding([store.root, data], [CANARY.encode(), CANARY_OLD.encode()]) == {}
