"""Lifecycle forecast: the same rules as ``plan``, looking ``days`` ahead (Overview pane)."""

from __future__ import annotations

from datetime import date

from memsearch_tui.engine.curator import forecast, lifecycle, trash
from memsearch_tui.engine.store.store import Store


def test_forecast_agrees_with_plan_today_and_looks_ahead(store: Store, at) -> None:
    at("2026-01-10")
    store.add("projects", "Old", "An old note about the build.\n")
    at("2026-09-10")  # 90 days before 2026-12-09: archived within the next 30 days, not today
    store.add("projects", "Soon", "Will be archived in nine days.\n")
    at("2026-11-20")
    store.add("projects", "Fresh", "Written last week.\n", expires=date(2026, 12, 5))
    store.add("snippets", "Gone", "To be trashed.\n")
    trash.trash(store, "snippets/gone", reason="test")
    at("2026-11-30")

    f = forecast.forecast(store, 30)
    due_now = {(m["action"], m["id"]) for m in lifecycle.plan(store)}
    assert {(d.action, d.id) for d in f.items if d.on <= f.today} == due_now
    by_id = {d.id: d for d in f.items}
    assert by_id["projects/old"].action == "archive" and by_id["projects/old"].on < f.today
    assert by_id["projects/soon"].on == date(2026, 12, 9)
    assert by_id["projects/fresh"].action == "expire" and by_id["projects/fresh"].on == date(2026, 12, 6)
    purge = next(d for d in f.items if d.action == "purge")
    assert purge.on == date(2026, 12, 20)  # trash_retention_days 30 after 2026-11-20
    assert f.count("archive") == 2 and f.count("archive", now_only=True) == 1
    assert [d.on for d in f.items] == sorted(d.on for d in f.items)

    short = forecast.forecast(store, 5)
    assert {d.id for d in short.items} == {"projects/old"}
