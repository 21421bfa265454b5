"""The Maintenance pane with a pending rewrite whose PROJECT.md is a FIFO: its worker read
the target with a plain read (``target_bytes``) and blocked forever, the pane stayed empty
and the app could not quit. Now that proposal is skipped and named, the rest is shown.
The flow runs in a thread with a bounded join, so a regression fails instead of hanging."""

from __future__ import annotations

import os
import threading

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, run_flow, settle, shown
from tests.tui.home_demo import home_demo  # noqa: F401 (fixture)

PID = "20261130-083000-project-review-demo"  # the demo's pending rewrite of PROJECT.md


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_target_is_skipped_and_named_not_waited_for(home_demo) -> None:  # noqa: F811
    root, project = home_demo
    target = project / ".memsearch" / "PROJECT.md"
    target.unlink()
    os.mkfifo(target)
    seen: dict[str, object] = {}

    async def flow(pilot, app) -> None:
        await pilot.press("5")
        await settle(pilot)
        seen["status"] = shown(app.query_one("#maint-status"))
        seen["tasks"] = app.query_one("#tasks").row_count
        seen["errors"] = list(app.errors)

    worker = threading.Thread(
        target=lambda: run_flow(make_app((root, project), remember_theme=False), flow, size=SNAPSHOT_SIZES["120x36"]),
        daemon=True,
    )
    worker.start()
    worker.join(90)
    blocked = worker.is_alive()
    for _ in range(5):  # release a reader blocked on the FIFO (the bug), so the run can end
        try:
            os.close(os.open(target, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            break
        worker.join(2)
    assert not blocked, "the app blocked on the FIFO PROJECT.md"
    status = " ".join(str(seen["status"]).split())
    assert f"skipped proposal {PID}" in status and "PROJECT.md" in status and "FIFO" in status, status
    assert seen["tasks"] and seen["errors"] == []
