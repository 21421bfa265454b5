"""The Maintenance pane's spend panel (issue 34): 30 days of tokens as a bar chart, this
month per task and per provider, the budget left; a run a budget refuses says why."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.maintenance import ledger
from tests.helpers import settle, told


def _line(ts: str, tokens: int, outcome: str = "none") -> ledger.Line:
    made = outcome != "refused"
    return ledger.Line(
        ts, "claude-code", "project_review", "api", "openai", "m", tokens if made else 0, 0, False, 1.0, outcome,
        reason="" if made else "budget: daily_tokens",
    )  # fmt: skip


@pytest.mark.slow
def test_spend_chart_budget_and_a_refused_run(demo, drive, tmp_path):
    config = tmp_path / "home" / ".memsearch" / "config.toml"  # the user's: HOME is the test's own
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[tui.budget]\ndaily_tokens = 3000\nmonthly_tokens = 100000\n", encoding="utf-8")
    for line in (
        _line("2026-11-10T08:00:00Z", 4000),
        _line("2026-11-29T08:00:00Z", 8000),
        _line("2026-11-30T08:00:00Z", 2000),
        _line("2026-11-30T08:30:00Z", 0, "refused"),
    ):
        ledger.append(line)

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        text = str(app.query_one("#spend").render())
        chart = text.splitlines()[0]
        assert chart.startswith("Spend 11-01 ") and chart.count("█") == 1  # 8,000 on 11-29, the tallest day
        bars = chart.split(" ")[2]
        assert len(bars) == 30 and bars[9] == "▄" and bars[-1] == "▂"  # 4,000 and 2,000 of 8,000 (eighths, rounded up)
        assert "this month by task: project_review 14,000" in text
        assert "this month by provider: api (openai) 14,000" in text
        assert "daily_tokens: 2,000 of 3,000 tokens used today (67%), 1,000 tokens left" in text
        app.query_one("#tasks").focus()
        await pilot.press(
            "g", "ctrl+g"
        )  # claude-code.project_review: the estimate (at least 2,000 output tokens) would pass 3,000
        await settle(pilot, app)
        note = [n for n in told(app) if n.title == "Maintenance"][-1]  # the key's, the newest
        assert note.message.startswith("claude-code.project_review: refused budget: daily_tokens")
        assert "raise [tui.budget] daily_tokens" in note.message and note.severity == "warning"
        assert app.errors == []

    drive(flow)
    assert [x.outcome for x in ledger.read()][-1] == "refused"


def test_no_spend_and_no_budget_shows_no_panel():
    from memsearch_tui.engine.api.maintenance import SpendReport
    from memsearch_tui.engine.maintenance.spend import Group
    from memsearch_tui.tui.panes.maintenance_pane import spend_view

    empty = Group("total", 0, 0, 0, 0, 0, None)
    days = tuple((f"2026-11-{d:02d}", 0, 0) for d in range(1, 31))
    report = SpendReport("2026-11-01T00:00:00Z", "task", (), empty, (), days, "x", ())
    assert spend_view(report, report) is None
