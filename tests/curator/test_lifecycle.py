"""Lifecycle rules, apply (direct and as a proposal), activation and the --run-due upkeep."""

from __future__ import annotations

import json
from datetime import date

from memsearch_tui.engine.curator import lifecycle, trash
from memsearch_tui.engine.history import oplog, undo
from memsearch_tui.engine.review import store_proposals
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.upkeep import store_upkeep
from tests.curator.curator_helpers import files


def _old_store(store: Store, at) -> None:
    at("2026-01-10")
    store.add("projects", "Old", "An old note about the build.\n")
    store.add("projects", "Linked old", "Another old note that nobody updates.\n")
    store.add("projects", "Expiring", "Valid until spring.\n", expires=date(2026, 3, 1))
    at("2026-11-20")
    store.add("projects", "Fresh", "See [the old one](linked-old.md) for history.\n")
    at("2026-11-30")


def test_plan_archives_and_expires_by_config(store: Store, at) -> None:
    _old_store(store, at)
    moves = {m["id"]: m for m in lifecycle.plan(store)}
    assert moves["projects/old"]["action"] == "archive"
    assert "not updated for 324 days" in moves["projects/old"]["reason"]
    assert moves["projects/expiring"]["action"] == "archive"  # archive wins over expiry
    assert "projects/fresh" not in moves
    (store.root / "config.md").write_text("---\narchive_after_days: 400\n---\n")
    moves = {m["id"]: m for m in lifecycle.plan(store)}
    assert moves == {"projects/expiring": moves["projects/expiring"]}
    assert moves["projects/expiring"]["action"] == "expire"


def test_reading_delays_archiving(store: Store, at) -> None:
    _old_store(store, at)
    at("2026-10-01")
    assert lifecycle.touch_accessed(store, "projects/old") is True
    assert lifecycle.touch_accessed(store, "projects/old") is False  # once a day at most
    at("2026-11-30")
    assert "projects/old" not in {m["id"] for m in lifecycle.plan(store)}
    assert "accessed" not in (store.root / "projects/old.md").read_text()  # recorded beside the file
    assert store.check_index() == []  # no index column changed


def test_touch_accessed_is_not_logged_and_keeps_updated(store: Store) -> None:
    e = store.add("a", "T", "text here\n")
    before = len(oplog.records(store.root))
    index = (store.root / "a/INDEX.md").read_bytes()
    assert lifecycle.touch_accessed(store, e.id)
    assert len(oplog.records(store.root)) == before
    assert store.get(e.id).updated == e.updated
    assert (store.root / "a/INDEX.md").read_bytes() == index
    assert lifecycle.touch_accessed(store, "a/missing") is False


def test_apply_archive_then_trash_unreferenced_then_purge(store: Store, at) -> None:
    _old_store(store, at)
    r = lifecycle.apply(store)
    assert {m["id"] for m in r["applied"]} == {"projects/old", "projects/linked-old", "projects/expiring"}
    assert store.get("projects/archived/old").status == "archived"
    # the link in Fresh follows the archived entry
    assert "[the old one](archived/linked-old.md)" in store.get("projects/fresh").body
    assert store.check_index() == []
    at("2027-06-01")
    moves = {m["id"]: m["action"] for m in lifecycle.plan(store)}
    # Fresh itself is archived by now; a link from an archived entry does not keep one alive
    assert moves["projects/fresh"] == "archive"
    assert moves["projects/archived/old"] == "trash"
    lifecycle.apply(store, [m for m in lifecycle.plan(store) if m["id"] != "projects/fresh"])
    assert "projects/archived/linked-old" in {s.id for s in store.list()}  # still referenced by Fresh
    items = trash.list_trash(store.root)
    assert {i.original_id for i in items} == {"projects/archived/old", "projects/archived/expiring"}
    assert all("unreferenced" in i.reason for i in items)
    at("2027-07-02")
    purge = [m for m in lifecycle.plan(store) if m["action"] == "purge"]
    assert len(purge) == 2
    lifecycle.apply(store, purge)
    assert trash.list_trash(store.root) == []


def test_apply_is_one_undoable_operation(store: Store, at) -> None:
    _old_store(store, at)
    before = files(store.root)
    lifecycle.apply(store)
    assert files(store.root) != before
    undo.undo_last(store.root)
    assert files(store.root) == before


def test_stale_moves_are_skipped(store: Store, at) -> None:
    _old_store(store, at)
    moves = lifecycle.plan(store)
    trash.trash(store, "projects/old")
    r = lifecycle.apply(store, moves)
    assert [s["id"] for s in r["skipped"]] == ["projects/old"]


def test_upkeep_proposes_weekly_and_accept_applies(store: Store, at, tmp_path) -> None:
    _old_store(store, at)
    rows = store_upkeep.upkeep(store.root, tmp_path)
    assert {r["task"]: r["result"] for r in rows} == {"lifecycle": "proposed", "split": "none"}
    assert all(r["platform"] == "store" for r in rows)
    again = store_upkeep.upkeep(store.root, tmp_path)
    assert {r["task"]: r["result"] for r in again} == {"lifecycle": "skip", "split": "skip"}
    state = json.loads((store.root / ".memsearch-tui/upkeep.json").read_text())
    assert state["lifecycle_last"].startswith("2026-11-30")
    [prop] = store_proposals.list_proposals(store.root, "pending")
    assert prop["kind"] == "lifecycle" and "3 archive" in prop["summary"]
    before = files(store.root)
    store_proposals.accept(store, prop["id"])
    assert store.get("projects/archived/old").status == "archived"
    assert store_proposals.show(store.root, prop["id"])["status"] == "accepted"
    undo.undo_last(store.root)
    assert files(store.root) == before
    at("2026-12-08")
    rows = store_upkeep.upkeep(store.root, tmp_path)
    assert {r["task"]: r["result"] for r in rows}["lifecycle"] == "proposed"
    assert len(store_proposals.list_proposals(store.root, "pending")) == 1  # same moves: not duplicated


def test_upkeep_without_store_and_split_proposal(tmp_path, at) -> None:
    rows = store_upkeep.upkeep(tmp_path / "nothing", tmp_path)
    assert [r["result"] for r in rows] == ["skip", "skip"]
    store = Store(tmp_path / "m")
    store.init()
    (store.root / "config.md").write_text("---\nsplit_threshold: 3\n---\n")
    for i in range(4):
        at(f"202{i}-05-01")
        store.add("big", f"Note {i}", f"body number {i} of the big category\n")
    rows = {r["task"]: r for r in store_upkeep.upkeep(store.root, tmp_path)}
    assert rows["split"]["result"] == "proposed"
    [prop] = [p for p in store_proposals.list_proposals(store.root, "pending") if p["kind"] == "split"]
    assert prop["payload"]["by"] == "year" and prop["payload"]["groups"] == {"2020": 1, "2021": 1, "2022": 1, "2023": 1}
    store_proposals.reject(store.root, prop["id"])
    assert all(p["kind"] != "split" for p in store_proposals.list_proposals(store.root, "pending"))


def test_upkeep_does_not_import_heavy_modules(store: Store, tmp_path) -> None:
    import subprocess
    import sys

    from memsearch_tui.engine.core import locking, state_files

    assert store_upkeep.STATE_DIR == locking.STATE_DIR == state_files.STATE_DIR
    store_upkeep.upkeep(store.root, tmp_path)  # due: runs, records the time
    code = (
        "import sys; from pathlib import Path; from memsearch_tui.engine.upkeep.store_upkeep import upkeep; "
        f"rows = upkeep(Path({str(store.root)!r}), Path('.')); "
        "print([r['result'] for r in rows], [m for m in ('textual', 'torch', 'pymilvus', 'sentence_transformers', "
        "'typer', 'yaml', 'sqlite3', 'memsearch_tui.engine.store.store') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['skip', 'skip'] []"  # nothing due: not even the store is loaded


def test_fast_frontmatter_reader_agrees_with_yaml(store: Store, at) -> None:
    from memsearch_tui.engine.curator import versions
    from memsearch_tui.engine.store import links
    from memsearch_tui.engine.store.entry import load_entry
    from memsearch_tui.engine.store.store import Change

    at("2026-02-01")
    a = store.add("知识/项目", "用户偏好", "喜欢深色主题。\n", tags=["ui", "中文"], expires=date(2026, 6, 1))
    b = store.add(
        "p",
        "Linked: with colon",
        "See [a](../知识/项目/用户偏好.md) and [[p/x]].\n",
        related=[a.id, "p/other"],
        importance=0.5,
    )
    at("2026-11-30")
    versions.update_entry(store, b.id, Change(body="Nothing like before.\n"))  # nested conflict: mapping
    lifecycle.touch_accessed(store, a.id)
    lifecycle.archive(store, a.id)
    (store.root / "p/odd.md").write_text("---\ntitle: 'quoted: yes'\nupdated: '2026-01-01'\nrelated: [\"q\"]\n---\nx\n")
    seen = 0
    for entry_id, path in store.entry_paths():
        fast = links.fast_info(entry_id, path.read_bytes())
        full = links._info(load_entry(entry_id, path))
        if fast is not None:
            assert fast == full
            seen += 1
        else:
            assert entry_id == "p/odd"  # quoted values: left to the YAML parser
    assert seen == 2
