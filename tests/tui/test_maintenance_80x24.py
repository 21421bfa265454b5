"""The Maintenance pane's task table fits 80×24: every task row shown, no column cut.

With two platforms configured (six tasks) the table showed five rows at 24 rows, and at
80 columns its columns ran past the edge, cut after "platform". A narrow pane now shows
task, status, next, the day of the last success and the platform, each whole (the detail,
``t``, has the rest), and a short one has room for six rows; 120 columns are unchanged.
"""

from __future__ import annotations

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, run_flow, screen_lines, settle
from tests.tui.home_demo import home_demo  # noqa: F401 (fixture)

CODEX = "\n[plugins.codex.project_review]\nenabled = false\n"  # a second platform: six tasks
NAMES = ("Claude Code", "Codex")
TASKS = ("project review", "user profile", "memory to skill")


def _two_platforms(home_demo) -> tuple:  # noqa: F811
    root, project = home_demo
    config = project / ".memsearch.toml"
    config.write_text(config.read_text(encoding="utf-8") + CODEX, encoding="utf-8")
    return root, project


def _table_rows(app) -> list[str]:
    lines = screen_lines(app)
    head = next(i for i, line in enumerate(lines) if "task" in line and "status" in line)
    return lines[head : head + 1 + app.query_one("#tasks").row_count]


def _fits(app) -> None:
    table = app.query_one("#tasks")
    widths = [c.get_render_width(table) for c in table.columns.values()]
    assert sum(widths) <= table.scrollable_content_region.width, (widths, table.size)
    rows = _table_rows(app)
    assert rows[0].split()[-1] == "platform", rows[0]
    seen = [(task, name) for name in NAMES for task in TASKS]
    for task, name in seen:  # every row on screen, its platform whole
        assert any(task in row and row.rstrip().endswith(name) for row in rows[1:]), "\n".join(rows)


def test_six_tasks_fit_80x24(home_demo) -> None:  # noqa: F811
    async def flow(pilot, app) -> None:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        _fits(app)
        table = app.query_one("#tasks")
        table.focus()
        await pilot.press(*["down"] * 5)
        await settle(pilot)
        assert table.cursor_row == 5 and "Codex" in _table_rows(app)[6]
        assert app.errors == []

    run_flow(make_app(_two_platforms(home_demo), remember_theme=False), flow, size=SNAPSHOT_SIZES["80x24"])


def test_a_resize_across_the_narrow_edge_swaps_the_columns_and_keeps_the_cursor(home_demo) -> None:  # noqa: F811
    async def flow(pilot, app) -> None:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        table = app.query_one("#tasks")
        wide = [str(c.label) for c in table.columns.values()]
        table.focus()
        await pilot.press("down", "down", "down", "down")
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        _fits(app)
        assert table.cursor_row == 4
        await pilot.press("1")  # resized back while the pane is hidden
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        assert [str(c.label) for c in table.columns.values()] == wide and "provider" in wide
        assert table.row_count == 6 and app.errors == []

    run_flow(make_app(_two_platforms(home_demo), remember_theme=False), flow, size=SNAPSHOT_SIZES["120x36"])


@pytest.mark.slow
def test_six_tasks_at_80x24_snapshot(home_demo, snap_compare) -> None:  # noqa: F811
    """The pane with two platforms' tasks at 80×24 (the demo's fixed clock, its own HOME)."""
    app = make_app(_two_platforms(home_demo), remember_theme=False)

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SNAPSHOT_SIZES["80x24"], run_before=run_before)
