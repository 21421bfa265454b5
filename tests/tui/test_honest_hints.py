"""Honest hints (issue 21, item 4): what a hint offers works, and keys look as typed."""

from __future__ import annotations

import re

from memsearch_tui.engine.api import Memory
from memsearch_tui.tui.screens.task_detail import enable_hint


def _row(mem: Memory, task: str):
    return next(r for r in mem.maintenance.status(mem.maintenance.config()) if r.task == task)


def test_a_task_the_project_file_disables_names_the_file_and_the_command_that_works(demo):
    mem = Memory(*demo)
    row = _row(mem, "user_profile")
    assert not row.enabled
    where, in_project = mem.maintenance.enabled_in(row.platform, row.task)
    assert in_project and where == demo[1] / ".memsearch.toml"  # the demo's project file turns it off
    text = enable_hint(row, where, in_project).plain
    assert ".memsearch.toml" in text and "project file wins" in text
    assert f"maintenance enable user_profile --platform {row.platform}" in text and "--project-file" in text


def test_a_task_off_by_default_offers_the_home_file(demo, tmp_path):
    bare = tmp_path / "bare"
    (bare / ".memsearch").mkdir(parents=True)
    assert Memory(demo[0], bare).maintenance.enabled_in("claude-code", "user_profile") == (None, False)
    row = _row(Memory(*demo), "user_profile")
    text = enable_hint(row, None, False).plain
    assert "(the default)" in text and "--project-file" not in text and "~/.memsearch/config.toml" in text


def test_the_palette_lists_only_what_can_run_with_keys_as_typed(drive):
    async def flow(pilot, app):
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert not any("Create the memory store" in t for t in commands)  # the demo has a store
        assert commands["Help"].endswith("keys f1 ?") and "question_mark" not in " ".join(commands.values())
        assert commands["Search"].endswith("keys /")

    drive(flow)


def test_help_lists_the_current_pane_first_scrolls_with_j_k_and_filters(drive):
    from memsearch_tui.tui.modals import HelpScreen
    from tests.helpers import settle, shown, until

    async def flow(pilot, app):
        await pilot.press("4")
        await settle(pilot, app)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        await settle(pilot, app)
        help_ = app.screen
        first_row = shown(help_.query_one("#help-table")).strip().splitlines()[1]
        assert first_row.lstrip().startswith("Trash"), first_row
        scroll = help_.query_one("#help-table")  # the list scrolls itself (draws only what is shown)
        await pilot.press("j", "j")
        assert scroll.scroll_y == 2
        await pilot.press("G")
        await pilot.pause(0.1)
        assert scroll.scroll_y == scroll.max_scroll_y > 2
        await pilot.press("g")
        await pilot.pause(0.1)
        assert scroll.scroll_y == 0
        assert "Create the memory store" not in shown(help_.query_one("#help-table"))  # the demo has one
        await pilot.press("slash", *"purge")  # / filters; typed keys are text there
        table = shown(help_.query_one("#help-table"))
        assert "Purge" in table and "Go to Index" not in table
        await pilot.press("escape", "escape")  # clear, then back to the list
        assert app.screen is help_ and app.focused is scroll
        await pilot.press("q")
        await settle(pilot, app)
        assert app.screen is app.screen_stack[0] and app.is_running

    drive(flow)


def test_the_trash_keeps_title_reason_and_purge_date_at_80_columns(drive):
    from tests.helpers import screen_lines, settle

    async def flow(pilot, app):
        await pilot.press("4")
        await settle(pilot, app)
        head = next(line for line in screen_lines(app) if "title" in line)
        assert "reason" in head and "purge in" in head, head
        rows = "\n".join(screen_lines(app))
        assert "belongs in the" in rows and "days" in rows  # a reason and a purge countdown
        # a reason longer than its column ends in "…" inside the table, not cut by its edge
        row = next(line for line in screen_lines(app) if "Find large files" in line and "days" in line)
        assert re.search(r"belongs in the \w*… ", row), row
        await pilot.press("p")  # the lifecycle plan: a long id loses its middle, the reason its end
        await settle(pilot, app)
        plan = next(line for line in screen_lines(app) if line.lstrip("▌ ").startswith("archive"))
        assert re.search(r"projects/da\w*…", plan) and "schema-rules" in plan and plan.rstrip().endswith("…"), plan

    drive(flow, size=(80, 24))
