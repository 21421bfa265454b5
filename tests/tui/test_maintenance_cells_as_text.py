"""The task table draws its cells as text: a str cell was parsed as Rich markup (DataTable parses a str), and `2026[/]` from the state file crashed the pane."""

import json

import pytest

from tests.helpers import make_app, run_flow, screen_lines, settle


@pytest.mark.parametrize("size", [(120, 36), (80, 24)], ids=["wide", "narrow"])
def test_a_state_files_time_is_drawn_as_text_not_markup(demo, size) -> None:
    root, project = demo
    path = project / ".memsearch" / ".maintenance-state.json"  # memsearch writes it too; a repo may ship it
    state = json.loads(path.read_text(encoding="utf-8"))
    state["claude-code.project_review"]["last_success_at"] = "2026[/]"
    path.write_text(json.dumps(state), encoding="utf-8")

    async def flow(pilot, app) -> None:
        await pilot.press("5")
        await settle(pilot)
        assert app.errors == []
        assert any("2026[/]" in line for line in screen_lines(app)), "\n".join(screen_lines(app))

    run_flow(make_app((root, project)), flow, size=size)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_task_detail_draws_the_state_files_text_as_text(demo, lang) -> None:
    """The detail screen (``t``) showed ``last action`` and the times through Rich's markup too."""
    root, project = demo
    path = project / ".memsearch" / ".maintenance-state.json"
    state = json.loads(path.read_text(encoding="utf-8"))
    action = {"en": "wrote [bold]PROJECT.md[/bold]", "zh": "写了[bold]项目笔记[/bold]"}[lang]
    state["claude-code.project_review"].update(last_action=action, last_success_at="2026[/]")
    path.write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")

    async def flow(pilot, app) -> None:
        await pilot.press("5")
        await settle(pilot)
        table = app.query_one("#pane-maintenance DataTable")
        keys = [str(k.value) for k in table.rows]
        table.move_cursor(row=next(i for i, k in enumerate(keys) if "project_review" in k and "claude" in k))
        await pilot.press("t")
        await settle(pilot)
        assert app.errors == []
        lines = "\n".join(screen_lines(app))
        assert action in lines and "2026[/]" in lines, lines

    run_flow(make_app((root, project)), flow)
