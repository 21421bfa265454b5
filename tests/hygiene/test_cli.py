"""``memsearch-tui hygiene``: every kind planted at once, listed in text and ``--json``,
and nothing written — every file of the store, the journals, the data dir (the index) and
the hosts' memory files hashes the same after as before (with an index built, so the
vectors path runs too). The store's private state folder is left out, as in every
before/after test here: its caches (the catalog, the lifecycle scan) follow the files on
any read, ``ls`` included."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import run_cli

from .conftest import World, hashes, write
from .test_kinds import AWS


def _plant(world: World) -> None:
    world.tracked("src/auth/login_flow.py")
    world.entry("ops/aws-access", f"key id {AWS} for the deploy user")
    world.entry("ops/staging", "Staging resets on Monday.", updated="2026-10-01")
    world.entry("team/staging", "Staging resets on Friday.")
    world.entry("notes/auth", "The login lives in src/auth/login.py.")
    world.entry("ops/db-a", "Staging database is refreshed from a production snapshot every night at two.")
    world.entry("ops/db-b", "Every night at two the staging database is refreshed from a production snapshot.")
    world.entry("ops/old", "How we deployed in 2024.", updated="2025-01-01")
    world.journal("2026-11-02", "## 10:00\nindexed the repo\n")
    write(world.claude_memory(), "".join(f"- fact number {n}\n" for n in range(1, 231)))


def _cli(world: World, *args: str) -> tuple[int, str]:
    r = run_cli("--memory-root", str(world.root), "--project", str(world.project), *args)
    return r.code, r.out


@pytest.mark.slow
def test_hygiene_lists_every_kind_and_changes_nothing(world: World) -> None:
    _plant(world)
    assert _cli(world, "vectors", "index")[0] == 0
    folders = (world.root, world.project, world.home, Path(os.environ["MEMSEARCH_TUI_DATA_DIR"]))
    before = hashes(*folders)
    code, text = _cli(world, "hygiene")
    assert code == 0
    for kind in ("secret", "over-long", "dead-reference", "duplicate", "contradiction", "stale"):
        assert f"\n{kind}: " in "\n" + text
    assert AWS not in text and "fix: " in text
    code, out = _cli(world, "hygiene", "--json")
    data = json.loads(out)["data"]
    assert code == 0 and data["vectors"] is True
    kinds = {f["kind"] for f in data["findings"]}
    assert kinds == {"secret", "over-long", "dead-reference", "duplicate", "contradiction", "stale"}
    assert all(set(f) == {"kind", "ids", "evidence", "fix", "proposal"} for f in data["findings"])
    assert AWS not in out
    assert hashes(*folders) == before
    assert before and any(".memsearch/memory" in p for p in before) and any("manifest.sqlite3" in p for p in before)


def test_kind_filter_and_a_bad_kind(world: World) -> None:
    _plant(world)
    code, out = _cli(world, "hygiene", "--kind", "contradiction", "--json")
    findings = json.loads(out)["data"]["findings"]
    assert code == 0 and [f["ids"] for f in findings] == [["ops/staging", "team/staging"]]
    code, out = _cli(world, "hygiene", "--kind", "rot", "--json")
    assert code == 1 and "unknown kind 'rot'" in json.loads(out)["error"]["message"]
