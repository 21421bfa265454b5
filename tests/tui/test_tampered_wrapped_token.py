"""The Maintenance pane masks a token wrapped over lines in a tampered proposal's target.

The head showed ``'~/ghp_A1b2C3d4E5f6G7h8\\nI9j0K1l2M3n4O5p6Q7r8'`` in clear: the target was
escaped (``repr``) before it was masked, so the redactor saw two short pieces. The list row
named an ANSI target ``b]`` (its ``Path.name``); it now shows the escaped target.
"""

from __future__ import annotations

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, run_flow, settle, shown
from tests.tui.home_demo import home_demo  # noqa: F401 (fixture)
from tests.tui.test_tampered_written_target import PID, retarget

HEAD, TAIL = "ghp_A1b2C3d4E5f6G7h8", "I9j0K1l2M3n4O5p6Q7r8"


@pytest.mark.slow
@pytest.mark.parametrize("prefix", ["~/", "~/笔记 私人/"])
def test_the_head_masks_a_wrapped_token_in_a_tampered_target(home_demo, prefix) -> None:  # noqa: F811
    root, project = home_demo
    retarget(project, f"{prefix}{HEAD}\n{TAIL}\x1b[2J[b]bold[/b]")

    async def flow(pilot, app) -> None:
        await pilot.press("5")
        await settle(pilot)
        pane = app.query_one("#pane-maintenance")
        pane.open_proposal(f"p:{PID}")
        await settle(pilot)
        head = shown(app.query_one("#proposal-head"))
        assert "A1b2C3d4E5f6G7h8" not in head and "O5p6Q7r8" not in head, head
        assert f"{prefix}[redacted: GitHub token]\\n[redacted: GitHub token]" in head, head
        lst = app.query_one("#proposals")
        rows = "\n".join(str(lst.get_option_at_index(i).prompt) for i in range(lst.option_count))
        assert f"[TAMPERED] '{prefix}[redacted: GitHub token]" in rows and "[TAMPERED] b]" not in rows, rows
        assert "A1b2C3d4E5f6G7h8" not in rows, rows
        assert app.errors == []

    run_flow(make_app((root, project), remember_theme=False), flow, size=SNAPSHOT_SIZES["120x36"])
