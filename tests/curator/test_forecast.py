"""Lifecycle forecast: the same rules as ``plan``, looking ``days`` ahead (Overview pane)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from memsearch_tui.engine.curator import forecast, lifecycle, trash
from memsearch_tui.engine.store import access, catalog
from memsearch_tui.engine.store.catalog import Catalog
from memsearch_tui.engine.store.store import Store
from tests.helpers import entry_reads


def test_forecast_agrees_with_plan_today_and_looks_ahead(store: Store, at) -> None:
    at("2026-01-10")
    store.add("projects", "Old", "An old note about the build.\n")
    at("2026-09-10")  # 90 days before 2026-12-09: archived within the next 30 days, not today
    store.add("projects", "Soon", "Will be archived in nine days.\n")
    at("2026-11-20")
    store.add("projects", "Fresh", "Written last week.\n", expires=date(2026, 12, 5))
    store.add("snippets", "Gone", "To be trashed.\n")
    trash.trash(store, "snippets/gone", reason="test")
    at("2026-11-30")

    f = forecast.forecast(store, 30)
    due_now = {(m["action"], m["id"]) for m in lifecycle.plan(store)}
    assert {(d.action, d.id) for d in f.items if d.on <= f.today} == due_now
    by_id = {d.id: d for d in f.items}
    assert by_id["projects/old"].action == "archive" and by_id["projects/old"].on < f.today
    assert by_id["projects/soon"].on == date(2026, 12, 9)
    assert by_id["projects/fresh"].action == "expire" and by_id["projects/fresh"].on == date(2026, 12, 6)
    purge = next(d for d in f.items if d.action == "purge")
    assert purge.on == date(2026, 12, 20)  # trash_retention_days 30 after 2026-11-20
    assert f.count("archive") == 2 and f.count("archive", now_only=True) == 1
    assert [d.on for d in f.items] == sorted(d.on for d in f.items)

    short = forecast.forecast(store, 5)
    assert {d.id for d in short.items} == {"projects/old"}


def lived(store: Store, at) -> None:
    """Entries whose lifecycle facts matter: read dates, references, expiry, English and Chinese."""
    at("2026-01-10")
    store.add("projects", "Old", "An old note about the build.\n")
    store.add("projects", "Read lately", "Old, but opened last week.\n")
    store.add("notes", "旧的笔记", "很久以前写的，被下面的笔记引用。\n")
    store.add("notes", "Orphan", "Archived and named by nobody.\n")
    lifecycle.archive(store, "notes/旧的笔记")
    lifecycle.archive(store, "notes/orphan")
    at("2026-11-20")
    store.add("notes", "Live", "See [the old one](archived/旧的笔记.md).\n", expires=date(2026, 12, 5))
    at("2026-11-30")
    access.touch(store.root, "projects/read-lately")


def test_the_forecast_is_a_query_that_reads_no_entry_file(store: Store, at) -> None:
    lived(store, at)
    due_now = {(m["action"], m["id"]) for m in lifecycle.plan(store)}  # the rules, read from the files
    assert due_now == {("archive", "projects/old"), ("trash", "notes/archived/orphan")}  # read lately: kept
    with entry_reads(store.root) as reads:
        got = forecast.due_summary(store, 30)
    assert reads == []  # every fact from the catalog; the files were only stat'ed
    assert got == forecast.summary(forecast.forecast(store, 30))
    assert got["counts"] == {"archive": [1, 1], "expire": [0, 1], "trash": [1, 1], "purge": [0, 0]}
    assert got["first"]["trash"][0] == "notes/archived/orphan"  # 旧的笔记 is linked from a live entry


def test_a_file_changed_by_hand_is_noticed_and_the_cached_answer_waits_for_a_refresh(store: Store, at) -> None:
    lived(store, at)
    before = forecast.due_summary(store, 30)
    path = store.root / "projects" / "read-lately.md"
    text = path.read_text(encoding="utf-8").replace("status: active", "status: active\nexpires: 2026-12-10")
    path.write_text(text, encoding="utf-8")
    assert forecast.due_summary(store, 30, fresh=False) == before  # the catalog as last saved
    fresh = forecast.due_summary(store, 30)
    assert before["counts"]["expire"] == [0, 1] and fresh["counts"]["expire"] == [0, 2]  # an editor, a sync: by stat


def test_a_catalog_of_schema_9_gains_the_facts_in_place_without_a_full_read(store: Store, at, monkeypatch) -> None:
    lived(store, at)
    (store.root / "notes" / "flow.md").write_text(  # not the store's plain shape: the full reader
        '---\ntitle: "Flow"\nstatus: active\nupdated: 2026-01-02\nrelated: ["notes/live"]\n---\nBody.\n',
        encoding="utf-8",
    )
    want = forecast.due_summary(store, 30)
    lifecycle.plan(store)  # the lifecycle scan caches what it read; drop two files from it:
    cache = store.root / ".memsearch-tui" / "lifecycle-scan.json"
    seeds = json.loads(cache.read_text(encoding="utf-8"))
    cache.write_text(json.dumps({k: v for k, v in seeds.items() if k not in ("notes/flow", "projects/old")}))
    cat = Catalog(store.root)
    gens = {c: cat.rows_gen(c) for c in ("projects", "notes/archived")}  # notes: flow.md is re-read
    cat.db.executescript(  # back to schema 9, as the previous release left it
        "DROP INDEX entries_unknown; DROP INDEX entries_counts; DROP INDEX entries_life; DROP INDEX entries_fold;"
        " DROP TRIGGER entries_upd;"
        " ALTER TABLE entries DROP COLUMN accessed; ALTER TABLE entries DROP COLUMN archived;"
        " ALTER TABLE entries DROP COLUMN expires; ALTER TABLE entries DROP COLUMN refs;"
        " CREATE TRIGGER entries_upd AFTER UPDATE ON entries BEGIN SELECT 1; END; PRAGMA user_version = 9;"
    )
    cat.close()
    full: list[str] = []
    real = catalog.summarise
    monkeypatch.setattr(catalog, "summarise", lambda i, *a, **k: full.append(i) or real(i, *a, **k))
    with entry_reads(store.root) as reads:
        assert forecast.due_summary(store, 30) == want
    assert full == ["notes/flow"]  # every other row kept: facts from the scan's cache, or the quick reader
    assert {Path(r).relative_to(store.root).as_posix() for r in reads} == {"notes/flow.md", "projects/old.md"}
    cat = Catalog(store.root)
    assert {c: cat.rows_gen(c) for c in gens} == gens  # no INDEX.md looks stale for it
    assert cat.db.execute("SELECT count(*) FROM entries WHERE refs IS NULL").fetchone()[0] == 0
    cat.close()


def test_a_catalog_that_cannot_be_written_still_forecasts_from_the_files(store: Store, at) -> None:
    """A read-only state folder: the catalog lives in memory; the cached forecast re-reads
    the store rather than answer nothing (or from an old file) for the life of the app."""
    lived(store, at)
    want = forecast.due_summary(store, 30)
    cat_file = store.root / ".memsearch-tui" / "catalog.sqlite3"
    cat_file.unlink()
    cat_file.mkdir()  # cannot be opened as a database: the catalog is degraded to memory
    assert Catalog(store.root).populated() is False
    assert forecast.due_summary(store, 30, fresh=False) == want


def test_an_impossible_date_written_by_hand_is_left_alone_not_a_crash(store: Store, at) -> None:
    """A hand edit writes ``accessed: 2026-02-30``. The quick reader (no YAML) took any
    ``dddd-dd-dd`` for a date, so lifecycle plan and the forecast raised ValueError on it;
    now such a value goes to the full parser, which refuses the file (``index check``
    reports it) and the rules leave that entry alone, in English as in Chinese."""
    from memsearch_tui.engine.store.links import fast_info

    at("2026-01-10")
    store.add("projects", "Old", "An old note about the build.\n")
    store.add("notes", "坏日期", "手写了一个不存在的日期。\n")
    at("2026-11-30")
    path = store.root / "notes" / "坏日期.md"
    raw = path.read_bytes().replace(b"\n---\n", b"\naccessed: 2026-02-30\n---\n", 1)
    path.write_bytes(raw)
    assert fast_info("notes/坏日期", raw) is None
    plan = {(m["action"], m["id"]) for m in lifecycle.plan(store)}
    assert ("archive", "projects/old") in plan and not any(i == "notes/坏日期" for _, i in plan)
    f = forecast.forecast(store, 30)
    assert "projects/old" in {d.id for d in f.items} and "notes/坏日期" not in {d.id for d in f.items}
