"""The agent-memory screen (``M``, the palette): files grouped by host with badges, the diff
since the last review with secrets masked, mark seen, what the host loads with the cut tail
greyed, history with a diff between two versions, prune as a proposal (issue 33, item 5)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

from tests.helpers import settle, shown
from tests.tui.walks import close_screens

pytestmark = pytest.mark.slow
TOKEN = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def slug_dir(project: Path) -> Path:
    """~/.claude/projects/<slug>/memory by the documented rule (not the code under test)."""
    name = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(project.resolve()))
    return Path(os.environ["HOME"]) / ".claude" / "projects" / name / "memory"


def seed(project: Path) -> tuple[Path, Path]:
    index = slug_dir(project) / "MEMORY.md"
    index.parent.mkdir(parents=True)
    index.write_text("".join(f"- 记忆 {i}\n" for i in range(1, 251)), encoding="utf-8")
    summary = Path(os.environ["HOME"]) / ".codex" / "memories" / "memory_summary.md"
    summary.parent.mkdir(parents=True)
    summary.write_text(f"- deploy with token {TOKEN}\n", encoding="utf-8")
    return index, summary


def labels(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(str(o.prompt) for o in app.screen.query_one("#am-list", OptionList).options)


def pick(app, path: Path) -> None:  # type: ignore[no-untyped-def]
    lst = app.screen.query_one("#am-list", OptionList)
    lst.highlighted = next(n for n, o in enumerate(lst.options) if o.id == str(path))


async def open_on(pilot, app, path: Path, *keys: str) -> None:  # type: ignore[no-untyped-def]
    """Open the screen (``M``), highlight ``path``, press ``keys``."""
    await pilot.press("M")
    await settle(pilot)
    pick(app, path)
    await pilot.press(*keys)
    await settle(pilot)


def test_mark_seen_then_a_change_shows_as_a_count(drive, demo) -> None:  # type: ignore[no-untyped-def]
    index, _ = seed(demo[1])

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("M")
        await settle(pilot)
        pick(app, index)
        await pilot.press("s")
        await settle(pilot)
        assert "unreviewed" not in labels(app).split("Codex")[0]
        index.write_text(index.read_text(encoding="utf-8") + "- 新的一条\n", encoding="utf-8")
        await pilot.press("h")  # history: two versions now, the diff between them
        await settle(pilot)
        versions = app.screen.query_one("#am-versions", OptionList)
        assert versions.option_count == 2
        assert "+- 新的一条" in shown(app.screen.query_one("#am-diff"))
        app.screen.reload()
        await settle(pilot)
        assert "+1 -0" in labels(app)

    drive(flow)


def test_prune_from_the_screen_is_a_proposal_and_nothing_changes(drive, demo) -> None:  # type: ignore[no-untyped-def]
    index, _ = seed(demo[1])
    before = index.read_bytes()

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await open_on(pilot, app, index, "p")
        box = app.screen.query_one("#am-prune", Input)
        assert box.display and box.has_focus
        await pilot.press(*"2-3 wrong", "enter")
        await settle(pilot)
        pending = app.ctx.mem.proposals.list()
        assert [p.target for p in pending if p.task == "agent_memory"] == [str(index)]
        assert index.read_bytes() == before

    drive(flow)


def test_select_lines_with_keys_then_prune_them(drive, demo) -> None:  # type: ignore[no-untyped-def]
    """In the loads view the arrows and j/k move a line cursor, ``v`` starts a selection the
    cursor extends (highlighted), ``p`` fills the range in: only the reason is typed."""
    index, _ = seed(demo[1])
    before = index.read_bytes()

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await open_on(pilot, app, index)
        footer = app.screen.query_one("#am-footer")
        assert ("v", "Select lines (↑↓)") not in footer.items()  # the diff view: nothing to select
        await pilot.press("l")
        await settle(pilot)
        assert ("v", "Select lines (↑↓)") in footer.items()
        await pilot.press("down", "j", "v", "down", "j", "j", "k")  # lines 3 to 5
        await settle(pilot)
        body = app.screen.query_one("#am-text").content
        lit = {body.plain[s.start : s.end] for s in body.spans if "reverse" in str(s.style)}
        assert lit == {"    3 - 记忆 3", "    4 - 记忆 4", "    5 - 记忆 5"}
        await pilot.press("p")
        box = app.screen.query_one("#am-prune", Input)
        assert box.display and box.has_focus and box.value == "3-5 "
        await pilot.press(*"过时 stale", "enter")
        await settle(pilot)
        made = [p for p in app.ctx.mem.proposals.list() if p.task == "agent_memory"]
        assert [(p.target, p.reason) for p in made] == [(str(index), "过时 stale")]
        proposed = app.ctx.mem.proposals.get(made[0].id).content
        assert proposed == "".join(f"- 记忆 {i}\n" for i in range(1, 251) if not 3 <= i <= 5)
        assert index.read_bytes() == before  # nothing changes before `proposals accept`

    drive(flow)


# -- the reading walk: checks that write nothing, on one app --------------------------
#
# Each was a test of its own with the same opening (the demo, the two hosts' files seeded);
# one app now runs them in order (a start cost about as much as one of them). Each step
# names the test it was; ``close_screens`` closes the screen between them.


async def grouped_by_host_with_badges_and_secrets_masked(pilot, app, index: Path, summary: Path) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("M")
    await settle(pilot)
    text = labels(app)
    assert text.index("Claude Code") < text.index("MEMORY.md") < text.index("Codex") < text.index("memory_summary")
    assert "cut 50" in text and "1 secret" in text and "unreviewed" in text
    pick(app, summary)
    await pilot.pause(0.1)
    diff = shown(app.screen.query_one("#am-diff"))
    assert "deploy with token" in diff and TOKEN not in diff


async def what_the_host_loads_greys_the_cut_tail(pilot, app, index: Path, summary: Path) -> None:  # type: ignore[no-untyped-def]
    await open_on(pilot, app, index, "l")
    body = app.screen.query_one("#am-text").content
    cut = [body.plain[s.start : s.end] for s in body.spans if "strike" in str(s.style)]
    assert cut[0] == "- 记忆 201\n" and cut[-1] == "- 记忆 250\n" and len(cut) == 50
    assert "  200 - 记忆 200\n  201 - 记忆 201\n" in body.plain  # numbered: what `p` asks for


async def space_selects_too_and_a_second_press_drops_the_selection(pilot, app, index: Path, summary: Path) -> None:  # type: ignore[no-untyped-def]
    await open_on(pilot, app, index, "l", "space", "down")
    assert app.screen.view.selected() == (1, 2)
    await pilot.press("space", "p")
    box = app.screen.query_one("#am-prune", Input)
    assert box.display and box.value == ""  # no selection: the range is typed, as before


async def the_palette_opens_it(pilot, app, index: Path, summary: Path) -> None:  # type: ignore[no-untyped-def]
    commands = [c.title for c in app.get_system_commands(app.screen)]
    assert "Agent memories (Claude Code, Codex)…" in commands
    app.run_spec("app.agent_memory")
    await settle(pilot)
    assert "MEMORY.md" in labels(app)


async def the_palette_and_help_name_the_screen(pilot, app, index: Path, summary: Path) -> None:  # type: ignore[no-untyped-def]
    from memsearch_tui.tui.actions import BY_ID, markdown_table

    assert BY_ID["app.agent_memory"].palette and BY_ID["app.agent_memory"].keys == "M"
    assert "Agent memories (Claude Code, Codex)…" in markdown_table()
    assert "Agent memories" in (Path(__file__).parents[2] / "docs" / "tui.md").read_text(encoding="utf-8")
    await pilot.press("f1")
    await settle(pilot)
    listed = {s.id for s in app.screen._specs()}  # the rows the help table draws
    assert {"app.agent_memory", "agent_memory.prune", "agent_memory.seen"} <= listed


READING_WALK = (
    grouped_by_host_with_badges_and_secrets_masked,
    what_the_host_loads_greys_the_cut_tail,
    space_selects_too_and_a_second_press_drops_the_selection,
    the_palette_opens_it,
    the_palette_and_help_name_the_screen,
)


def test_the_reading_walk(drive, demo) -> None:  # type: ignore[no-untyped-def]
    """The steps of ``READING_WALK`` in order, on one app (a failure names its step in the
    traceback); none of them changed the host's files."""
    index, summary = seed(demo[1])
    before = index.read_bytes(), summary.read_bytes()

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        for step in READING_WALK:
            await close_screens(pilot, app)
            await step(pilot, app, index, summary)

    drive(flow)
    assert (index.read_bytes(), summary.read_bytes()) == before


def test_badges_say_unreviewed_cut_off_and_secrets() -> None:
    from memsearch_tui.engine.api.agent_memory import AgentMemoryFile
    from memsearch_tui.tui.screens.agent_memory import badges

    def row(**kw):  # type: ignore[no-untyped-def]
        base = dict(host="claude-code", kind="auto-memory-index", path="/x/MEMORY.md", lines=250, bytes=3000,
                    tokens=750, loads="head", loaded_lines=200, loaded_bytes=2400, cut_lines=50, cut_bytes=600,
                    secrets=0, unreviewed_added=3, unreviewed_removed=1)  # fmt: skip
        return AgentMemoryFile(**{**base, **kw})

    assert [t for t, _ in badges(row())] == ["+3 -1", "cut 50"]
    assert [t for t, _ in badges(row(unreviewed_added=None, unreviewed_removed=None, secrets=2))] == [
        "unreviewed", "cut 50", "2 secrets"
    ]  # fmt: skip
    assert [t for t, _ in badges(row(loads="off", cut_lines=250, unreviewed_added=0, unreviewed_removed=0))] == ["off"]
