"""A purge made where the search package cannot be reached (the curator alone, as the
lifecycle does) leaves a marker; the next hook upkeep scrubs the search copies. Entry
files are refused by size before any parsing."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import EntryTooLarge, LimitExceeded, Refused
from memsearch_tui.engine.core.safe_io import MAX_ENTRY_BYTES
from memsearch_tui.engine.curator import importer, trash
from memsearch_tui.engine.search.purge import marker
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.upkeep.hook import run_upkeep

CANARY = "zq-canary-hook-5d21 text that a hook upkeep must scrub from the search copies"


def test_the_hook_finishes_a_purge_the_curator_started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memsearch_tui.engine.search import Searcher

    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    store = Store(tmp_path / "memory")
    store.init()
    project = tmp_path / "proj"
    project.mkdir()
    entry = store.add("ops", "Hook canary", CANARY + "\n")
    with Searcher(store.root, project) as s:
        s.refresh_chunks()
    trash.trash(store, entry.id)
    trash.purge(store, trash.purge_candidates(store.root, everything=True), yes=True)  # the curator alone
    assert marker(store.root).exists()
    manifest = next((tmp_path / "data").rglob("manifest.sqlite3"))
    assert CANARY.encode() in manifest.read_bytes()  # not yet scrubbed: the test can fail

    rows = [r for r in run_upkeep(store.root, project) if r["task"] == "purge"]
    assert rows and rows[0]["result"] == "replaced", rows
    assert not marker(store.root).exists()
    for p in [*store.root.rglob("*"), *(tmp_path / "data").rglob("*")]:
        assert not (p.is_file() and CANARY.encode() in p.read_bytes()), p
    assert [r for r in run_upkeep(store.root, project) if r["task"] == "purge"] == []  # one stat when none


def test_an_oversized_edit_is_refused_before_parsing(store: Store) -> None:
    entry = store.add("p", "Small", "small body\n")
    data = b"---\ntitle: Small\n---\n" + b"x" * (MAX_ENTRY_BYTES + 1)
    with pytest.raises(EntryTooLarge) as info:
        store.replace_raw(entry.id, data)
    assert isinstance(info.value, LimitExceeded) and isinstance(info.value, Refused)
    assert info.value.code == "too_large"
    assert store.get(entry.id).body == "small body\n"


def test_an_oversized_import_source_is_refused_before_parsing(store: Store, tmp_path: Path) -> None:
    src = tmp_path / "MEMORY.md"
    src.write_bytes(b"## A\n\n" + b"y" * (importer.MAX_SOURCE_BYTES + 1))
    with pytest.raises(EntryTooLarge, match="over the"):
        importer.import_path(store, src)


def test_an_oversized_entry_file_is_refused_unparsed_on_read(store: Store) -> None:
    """A file an agent or sync tool dropped into the store: reading it names the file and
    the bound instead of parsing megabytes of YAML."""
    path = store.root / "p" / "huge.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"---\ntitle: Huge\n---\n" + b"z" * (MAX_ENTRY_BYTES + 1))
    with pytest.raises(EntryTooLarge, match="huge.md"):
        store.get("p/huge")


def test_a_purge_while_the_app_holds_milvus_is_finished_by_the_next_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    from memsearch_tui.engine.api import trash as purge_mod
    from memsearch_tui.engine.search import Searcher

    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    store = Store(tmp_path / "memory")
    store.init()
    project = tmp_path / "proj"
    project.mkdir()
    entry = store.add("ops", "Busy canary", CANARY + "\n")
    store.add("ops", "Other", "an unrelated note about queues and workers\n")
    with Searcher(store.root, project) as s:
        s.index()
        uri = s.s.uri
    trash.trash(store, entry.id)
    holder = subprocess.Popen(  # another process (the app) holds the Lite data dir
        [
            sys.executable,
            "-c",
            "import sys, time; from memsearch_tui.engine.search.milvus_backend import MilvusVectors;"
            f"v = MilvusVectors({uri!r}, '', 'x'); print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        result = purge_mod.purge(store, trash.purge_candidates(store.root, everything=True), yes=True, project=project)
        assert result["purged"] and any(p.startswith("vectors:") for p in result["not_scrubbed"]), result
        assert marker(store.root).exists()
    finally:
        holder.kill()
        holder.wait()
    rows = [r for r in run_upkeep(store.root, project) if r["task"] == "purge"]
    assert rows and rows[0]["result"] == "replaced", rows
    for p in [*store.root.rglob("*"), *(tmp_path / "data").rglob("*")]:
        assert not (p.is_file() and b"busy-canary" in p.read_bytes()), p
