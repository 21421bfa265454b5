"""Overview: the sync state (issue 22) and the journal copies waiting, as a person sees them."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.sync import run
from tests.helpers import SNAPSHOT_SIZES, make_app, settle
from tests.tui.home_demo import option_texts

SIZE = SNAPSHOT_SIZES["120x36"]


def _overview_text(root: Path, project: Path) -> str:
    async def flow() -> str:
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("0")
            await settle(pilot)
            text = "\n".join(option_texts(app.query_one("#overview-list")))
            assert app.errors == []
            return text

    return asyncio.run(flow())


@pytest.mark.slow
def test_overview_says_when_the_store_is_not_synced_and_names_copies_waiting(tmp_path: Path) -> None:
    root, project = tmp_path / "memory", tmp_path / "proj"
    Store(root).init()
    mem = project / ".memsearch" / "memory"
    mem.mkdir(parents=True)
    (mem / "2026-11-30.md").write_text("## Session 09:00\n\n### 09:05\n- one\n")
    (mem / "2026-11-30 (conflicted copy).md").write_text("## Session 09:00\n\n### 09:06\n- two\n")
    text = _overview_text(root, project)
    assert "Not synced across machines" in text
    assert "1 conflicted copy of 2026-11-30" in text


@pytest.mark.slow
def test_overview_shows_the_device_and_commits_ahead_after_a_sync(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    store = Store(tmp_path / "memory")
    store.init()
    run.init(store.root, remote=str(remote), device="laptop")
    text = _overview_text(store.root, tmp_path / "proj")
    assert "laptop: last sync" in text and "0 ahead · 0 behind" in text
