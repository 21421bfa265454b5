"""The Journal pane's status line draws an undated day's name as text, not markup."""

from __future__ import annotations

from tests.helpers import settle


def test_only_undated_days_named_like_markup(drive, demo) -> None:  # type: ignore[no-untyped-def]
    _root, project = demo
    days = project / ".memsearch" / "memory"
    for p in days.glob("*.md"):
        p.unlink()
    (days / "笔记[red]部署.md").write_text("# notes\n\n- 部署\n", encoding="utf-8")
    seen: dict[str, str] = {}

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("2")
        await settle(pilot, app)
        seen["status"] = str(app.query_one("#journal-status").render())

    app = drive(flow)
    assert not app.errors, app.errors
    assert "newest 笔记[red]部署" in seen["status"], seen["status"]
