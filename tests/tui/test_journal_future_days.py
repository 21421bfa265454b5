"""Pilot: a journal day dated after today (a skewed clock, a file named 2031-01-01.md) is
listed first in the Journal pane, as the newest day; its row and the pane's status say
"future" (the Overview's chart stops at today, so nothing else told the user). The
engine's clock is the tests' fixed one (``MEMSEARCH_TUI_NOW``: 2026-11-30)."""

from __future__ import annotations

from tests.helpers import screen_lines, settle, told

FUTURE_DAY = """# 2031-01-01

## Session 10:00

### 10:01 部署 the release

- 部署到生产环境 (deploy to production)
- rolled back once
"""


def test_a_day_dated_after_today_is_marked_and_opens(drive, demo) -> None:  # type: ignore[no-untyped-def]
    _root, project = demo
    future = project / ".memsearch" / "memory" / "2031-01-01.md"
    future.write_text(FUTURE_DAY, encoding="utf-8")
    seen: dict[str, str] = {}

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("2")
        await settle(pilot, app)
        tree = app.query_one("#journal-tree")
        rows = [n for n in tree.root.children if n.data is not None]
        seen["first"] = str(rows[0].label)
        seen["others"] = "\n".join(str(n.label) for n in rows[1:])
        seen["status"] = str(app.query_one("#journal-status").render())
        app.query_one("#pane-journal").open_at(future, 0)
        await settle(pilot, app)
        seen["opened"] = str(rows[0].label)
        seen["screen"] = "\n".join(screen_lines(app))
        await pilot.press("0")  # the Overview's chart stops at today: it still draws
        await settle(pilot, app)
        seen["overview"] = "drawn" if app.pane("overview")._data is not None else "not drawn"

    app = drive(flow)
    assert seen["first"].startswith("2031-01-01  future"), seen["first"]
    assert "future" not in seen["others"], seen["others"]
    assert "newest 2031-01-01  future" in seen["status"], seen["status"]
    assert seen["opened"].startswith("2031-01-01  future  1 turn"), seen["opened"]
    assert "部署到生产环境" in seen["screen"], seen["screen"]
    assert seen["overview"] == "drawn"
    assert not [t for t in told(app) if t.severity == "error"], told(app)
    assert not app.errors, app.errors
