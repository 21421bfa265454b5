"""The api's write results are frozen dataclasses; ``to_json`` gives each one's wire keys, in order."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path

import pytest

from memsearch_tui.engine.api import to_json
from memsearch_tui.engine.api.types import (
    ConflictConfirm,
    ImportResult,
    ImportSkip,
    LifecycleForecast,
    TaskRun,
    VersionRestore,
)
from memsearch_tui.engine.core import clock
from memsearch_tui.engine.curator.forecast import forecast, summary

FLY = "We deploy the shop to Fly.io every Friday afternoon, after the smoke tests pass."
RENDER = "We deploy the shop to Render every Monday morning."


@pytest.fixture
def mem(store_mem):
    store_mem.entries.add("ops", "Deploy day", FLY, ["deploy"])
    return store_mem


def test_version_confirm_and_restore_are_dataclasses_with_their_wire_keys(mem):
    assert mem.entries.add("ops", "Deploy day", RENDER, ["deploy"]).action == "conflict"  # v2, v1 kept
    done = mem.versions.confirm("ops/deploy-day")
    assert isinstance(done, ConflictConfirm) and dataclasses.is_dataclass(done)
    assert to_json(done) == {"confirmed": "ops/deploy-day", "version": 2}
    back = mem.versions.restore("ops/deploy-day", 1)
    assert isinstance(back, VersionRestore)
    data = to_json(back)
    assert list(data) == ["entry", "restored", "current", "message"]
    assert (data["restored"], data["current"], data["entry"]["id"]) == (1, 3, "ops/deploy-day")
    assert data["message"] == "v1 restored as v3; v2 kept"
    fields = ["id", "title", "status", "category", "created", "updated", "version", "tags", "importance", "related"]
    assert list(data["entry"]) == [*fields, "expires"]  # Entry.summary()'s keys, in order
    diff = to_json(mem.versions.diff("ops/deploy-day", 2, 3))
    assert list(diff) == ["id", "a", "b", "unified", "hunks", "same"] and diff["same"] is False
    assert list(diff["hunks"][0]) == ["header", "lines"] and list(diff["hunks"][0]["lines"][0]) == ["op", "text"]
    assert FLY in mem.entries.read("ops/deploy-day").text


def test_import_result_is_a_dataclass_with_its_wire_keys(mem, tmp_path: Path):
    src = tmp_path / "MEMORY.md"
    src.write_text("## One\nfirst imported fact\n\n## Two\nsecond imported fact\n")
    first = mem.layout.import_path(src, "imported")
    assert isinstance(first, ImportResult) and len(first.imported) == 2 and first.skipped == ()
    again = mem.layout.import_path(src, "imported")
    assert again.imported == () and all(isinstance(s, ImportSkip) for s in again.skipped)
    data = to_json(again)
    assert list(data) == ["source", "category", "imported", "skipped"]
    assert (data["source"], data["category"], data["imported"]) == (str(src), "imported", [])
    assert [list(s) for s in data["skipped"]] == [["title", "source", "reason"]] * 2
    assert [s["title"] for s in data["skipped"]] == ["One", "Two"]


def test_maintenance_run_rows_are_dataclasses_with_their_wire_keys(mem):
    rows = mem.maintenance.run(mem.maintenance.config(), platforms=["claude-code"])
    assert rows and all(isinstance(r, TaskRun) for r in rows)
    data = to_json(rows)
    assert all(list(r) == ["platform", "task", "result", "reason", "proposal_id", "output_file"] for r in data)
    assert {r["result"] for r in data} <= {"disabled", "skip", "ran", "proposed", "error", "unchanged"}


def test_the_lifecycle_forecast_is_a_dataclass_serialised_as_the_engine_counts_it(mem):
    mem.entries.add("ops", "Old note", "A note that expires soon.", expires=clock.today() + timedelta(days=5))
    f = mem.lifecycle.forecast(30)
    assert isinstance(f, LifecycleForecast) and f.counts["expire"] == (0, 1)
    assert f.first["expire"][0] == "ops/old-note" and list(f.first) == ["expire"]
    data = to_json(f)
    assert list(data) == ["today", "days", "counts", "first"]
    assert data == summary(forecast(mem.store, 30))  # the engine's own summary, key for key


def test_trash_restore_keeps_its_wire_keys(mem):
    """Still an engine record (its ``from`` key is a Python keyword): its keys are the wire."""
    key = mem.trash.put("ops/deploy-day", "moved").trash_key
    data = to_json(mem.trash.restore(key))
    assert list(data) == ["restored", "from", "original_id", "renamed", "related_dropped"]
    assert (data["restored"], data["from"], data["renamed"]) == ("ops/deploy-day", key, False)
