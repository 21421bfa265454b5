"""The Overview's pending proposals: a reason is masked, then cut (report-trial problem 5).

The row cut the reason at 120 characters and masked what was left: a token crossing the
cut lost its end, no longer matched, and its start was drawn in clear."""

from __future__ import annotations

import json

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, run_flow, settle
from tests.tui.home_demo import home_demo  # noqa: F401 (fixture)
from tests.tui.test_proposal_names import PID, _prompts

BODY = "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
TOKEN = "ghp_" + BODY


@pytest.mark.parametrize("lead", ["the CI step reads its credential from here " * 2 + "x" * 14, "令牌写在这里 " * 15])
def test_a_token_across_the_cut_is_never_drawn(home_demo, lead) -> None:  # noqa: F811
    root, project = home_demo
    path = project / ".memsearch" / "proposals" / f"{PID}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(lead) < 120 < len(lead) + len(TOKEN)
    path.write_text(json.dumps(data | {"reason": lead + TOKEN + " and more"}), encoding="utf-8")

    async def flow(pilot, app) -> None:
        await pilot.press("0")
        await settle(pilot)
        line = _prompts(app, "#overview-list")[f"prop:p:{PID}"]
        assert "ghp_" not in line and BODY[:6] not in line, line
        assert "[redacted" not in line or "[redacted: GitHub token]" in line, line
        assert app.errors == []

    run_flow(make_app((root, project), remember_theme=False), flow, size=SNAPSHOT_SIZES["120x36"])
