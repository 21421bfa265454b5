"""Issue 36 item 3 in the app: Enter ("by meaning") reaches the meaning leg when the
keyword hits are weak — the issue's example, on the demo memory with the real model."""

from __future__ import annotations

import pytest

from tests.helpers import settle
from tests.search.conftest import write_entry

pytestmark = pytest.mark.slow  # the real model


def test_enter_reaches_the_meaning_leg_when_keyword_hits_are_weak(demo, drive):
    root, _ = demo
    write_entry(root, "ops/rollback", "Rollback", [], "To roll back a bad release, redeploy the previous image.\n")
    write_entry(
        root, "ops/backups", "Backups", [], "The orders Postgres is dumped every night with pg_dump, kept 30 days.\n"
    )

    async def flow(pilot, app):
        pane = app.query_one("#pane-search")
        assert pane.strategy == "auto"
        await pilot.press("slash")
        await pilot.press(*"when is the database backed up", "enter")
        await settle(pilot, app)
        ids = [h.id for h in pane.hits]
        assert "ops/backups" in ids[:3], ids  # keyword hits first: "Rollback" (the stem "back"), backups 4th
        assert "ops/rollback" not in ids or ids.index("ops/backups") < ids.index("ops/rollback")

    drive(flow)
