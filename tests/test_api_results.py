"""The api's write results are frozen dataclasses; ``to_json`` gives each one's wire keys, in order."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from memsearch_tui.engine.api import Memory, to_json
from memsearch_tui.engine.api.types import ConflictConfirm, VersionRestore

FLY = "We deploy the shop to Fly.io every Friday afternoon, after the smoke tests pass."
RENDER = "We deploy the shop to Render every Monday morning."


@pytest.fixture
def mem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMSEARCH_DIR", raising=False)
    (tmp_path / "proj").mkdir()
    with Memory(tmp_path / "memory", tmp_path / "proj") as m:
        m.store.init()
        m.entries.add("ops", "Deploy day", FLY, ["deploy"])
        yield m


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
    assert FLY in mem.entries.read("ops/deploy-day").text
