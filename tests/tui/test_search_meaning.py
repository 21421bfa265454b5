"""Issue 36 item 3 in the app: Enter ("by meaning") reaches the meaning leg when the
keyword hits are weak — the issue's example, on the demo memory with the real model."""

from __future__ import annotations

import pytest

from tests.helpers import hold_index, settle, until
from tests.search.conftest import write_entry

pytestmark = pytest.mark.slow  # the real model


def test_enter_reaches_the_meaning_leg_when_keyword_hits_are_weak(demo, drive):
    root, _ = demo
    write_entry(root, "ops/rollback", "Rollback", [], "To roll back a bad release, redeploy the previous image.\n")
    write_entry(
        root, "ops/backups", "Backups", [], "The orders Postgres is dumped every night with pg_dump, kept 30 days.\n"
    )

    async def flow(pilot, app):
        pane = app.pane("search")
        assert pane.strategy == "auto"
        await pilot.press("slash")
        await pilot.press(*"when is the database backed up", "enter")
        await settle(pilot, app)
        ids = [h.id for h in pane.hits]
        assert "ops/backups" in ids[:3], ids  # keyword hits first: "Rollback" (the stem "back"), backups 4th
        assert "ops/rollback" not in ids or ids.index("ops/backups") < ids.index("ops/rollback")

    drive(flow)


def test_enter_while_the_index_builds_shows_keyword_hits_then_fills_in_meaning(demo, drive, monkeypatch):
    """The app builds the index after it opens (``prepare_index``). Enter during the build
    shows the keyword hits at once with "meaning results coming", then the meaning hits in
    their place when the build ends. The embedding waits for an event (the one stand-in:
    what is tested is the answer during the build)."""
    go = hold_index(monkeypatch)

    async def flow(pilot, app):
        warm = app.ctx.mem.warm
        await until(pilot, lambda: not warm.built.is_set(), "the build at open")
        await pilot.press("slash")
        status = app.query_one("#search-status")  # the Search pane is made by its first visit
        await pilot.press(*"how do we deploy", "enter")
        await until(pilot, lambda: "meaning results coming" in str(status.content), "the keyword hits, meaning to come")
        assert app.pane("search").hits
        go.set()
        await until(pilot, lambda: warm.built.is_set(), "the build's end")
        await settle(pilot, app)
        assert "meaning results coming" not in str(status.content)
        assert "strategy hybrid" in str(status.content) or "+hybrid" in str(status.content), str(status.content)

    drive(flow, prepare_index=True)
