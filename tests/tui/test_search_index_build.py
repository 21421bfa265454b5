"""ctrl+o in the Search pane builds the vector index through ``mem.vectors.index`` and says
what it did from the API's ``IndexReport`` (the real model and Milvus Lite, a tiny store)."""

from __future__ import annotations

import asyncio

import pytest

from tests.helpers import SIZE, make_app, settle, until
from tests.textual_private import notifications
from tests.tui.test_journal_curate import _setup

pytestmark = pytest.mark.slow  # loads the embedding model


def test_building_the_index_reports_what_the_api_counted(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    root, project, _ = _setup(tmp_path)

    async def flow():
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("6")
            await settle(pilot, app)
            app.query_one("#pane-search").action_build_index()
            await until(
                pilot,
                lambda: any(n.title == "Vector index" for n in notifications(app)),
                "the index build",
                limit=600,
            )
            [note] = [n.message for n in notifications(app) if n.title == "Vector index"]
            assert note.startswith("index up to date: 1 file, 1 changed, ") and "embedded" in note
            assert app.errors == []

    asyncio.run(flow())
