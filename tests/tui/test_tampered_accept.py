"""The pane says a tampered proposal "is never applied", yet ``y`` on one that is
also marked stale (a field of the same file) asked "accept anyway?" first; the engine then
refused it. Refused at once, as ``e`` refuses it, with no dialog that offers what cannot be."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, settle, told
from tests.tui.home_demo import home_demo  # noqa: F401 (fixture)
from tests.tui.test_tampered_proposal import PID, SECRET, tamper


@pytest.mark.slow
def test_accepting_a_tampered_stale_proposal_asks_nothing(home_demo) -> None:  # noqa: F811
    root, project = home_demo
    victim = tamper(project, root.parent)
    path = project / ".memsearch" / "proposals" / f"{PID}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(
        json.dumps(data | {"extra": {**data.get("extra", {}), "stale": "a journal day it read was edited since"}}),
        encoding="utf-8",
    )

    async def flow() -> None:
        app = make_app((root, project), remember_theme=False)
        async with app.run_test(size=SNAPSHOT_SIZES["120x36"]) as pilot:
            await settle(pilot)
            await pilot.press("5")
            await settle(pilot)
            app.query_one("#pane-maintenance").open_proposal(f"p:{PID}")
            await settle(pilot)
            await pilot.press("y")
            await settle(pilot)
            assert type(app.screen).__name__ == "Screen" or "Modal" not in type(app.screen).__name__, type(app.screen)
            assert any("tampered" in t.message for t in told(app)), told(app)
            assert app.errors == []
        assert victim.read_text(encoding="utf-8") == SECRET + "\n"

    asyncio.run(flow())
