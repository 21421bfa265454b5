"""The one snapshot suite: every pane, help and the first-run screen at 80×24 and 120×36,
with the demo's fixed clock and the demo copied into the test's own HOME (the header reads
``~/memory · ~/project`` on every machine; no folder is shared, so the suite runs on every
xdist worker).

The 120×36 pictures are also the README's screenshots: ``scripts/screenshots.py`` refreshes
them and copies them to ``screenshots/``, and ``test_screenshots.py`` checks the two stay
the same. The two sizes sit on either side of each of the app's layout breakpoints (110
columns, 32 rows: ``MemsearchApp.HORIZONTAL_BREAKPOINTS``); 160×48 drew the same layout as
120×36, wider, and its ten pictures were a third of the suite's cost. Update after an intended visual change with
``pytest tests/tui/test_snapshots.py --snapshot-update``, then look at every changed SVG
before committing.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, settle
from tests.tui.home_demo import home_demo, snap_home  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow

#: the sizes pictured: one in each of the app's width and height layouts (narrow and short, wide and tall)
SIZES = ("80x24", "120x36")


async def _overview(pilot) -> None:
    await settle(pilot)
    await pilot.press("0")
    await settle(pilot)


async def _index(pilot) -> None:
    await settle(pilot)
    pilot.app.query_one("#pane-index").select_entry("projects/web/alpha-dashboard")
    await settle(pilot)


async def _journal(pilot) -> None:
    await settle(pilot)
    await pilot.press("2")
    await settle(pilot)
    await pilot.press("enter", "j", "enter", "j")
    await settle(pilot)


async def _versions(pilot) -> None:
    await settle(pilot)
    await pilot.press("3")
    await settle(pilot)


async def _trash(pilot) -> None:
    await settle(pilot)
    await pilot.press("4")
    await settle(pilot)
    await pilot.press("p")
    await settle(pilot)


async def _maintenance(pilot) -> None:
    await settle(pilot)
    await pilot.press("5")
    await settle(pilot)


async def _search(pilot) -> None:
    await settle(pilot)
    await pilot.press("6")
    await settle(pilot)
    pilot.app.query_one("#pane-search").strategy = "grep"
    await pilot.press(*"ECharts", "enter")
    await settle(pilot)
    status = pilot.app.query_one("#search-status")  # the timing is the one thing that varies
    status.update(str(status.content).split(" · ")[0] + " · strategy grep")
    box = pilot.app.query_one("#search-input")  # the focus stays in the box; a steady cursor, not a blink
    box.cursor_blink = False
    box.focus()
    await pilot.pause(0.05)


async def _notes(pilot) -> None:
    await settle(pilot)
    await pilot.press("7")
    await settle(pilot)


async def _help(pilot) -> None:
    await settle(pilot)
    await pilot.press("f1")
    await pilot.pause(0.1)


async def _first_run(pilot) -> None:
    await settle(pilot)
    await pilot.pause(0.2)


SHOTS = {
    "0-overview": _overview,
    "1-index": _index,
    "2-journal": _journal,
    "3-versions": _versions,
    "4-trash": _trash,
    "5-maintenance": _maintenance,
    "6-search": _search,
    "7-notes": _notes,
    "help": _help,
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", list(SHOTS))
def test_pane(name, size, snap_home, snap_compare):  # noqa: F811
    root, project = snap_home
    app = make_app((root, project), remember_theme=False)
    assert snap_compare(app, terminal_size=SNAPSHOT_SIZES[size], run_before=SHOTS[name])


@pytest.mark.parametrize("size", SIZES)
def test_agent_memory_screen(size, snap_home, snap_compare):  # noqa: F811
    """``M``: the hosts' memory files of the demo project, one of them cut by the host and
    one holding a secret (masked), the first file's diff since (never) reviewed."""
    root, project = snap_home
    home = Path(os.environ["HOME"])
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(project.resolve()))
    files = {
        home / ".claude" / "CLAUDE.md": "- answer in English; 代码注释用中文\n",
        home / ".claude" / "projects" / slug / "memory" / "MEMORY.md": "".join(f"- note {i}\n" for i in range(1, 231)),
        home / ".codex" / "memories" / "memory_summary.md": "- deploy token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\n",
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    async def open_it(pilot) -> None:
        await settle(pilot)
        await pilot.press("M")
        await settle(pilot)

    try:
        app = make_app((root, project), remember_theme=False)
        assert snap_compare(app, terminal_size=SNAPSHOT_SIZES[size], run_before=open_it)
    finally:
        for folder in (home / ".claude", home / ".codex"):
            shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("size", SIZES)
def test_first_run(size, home_demo, snap_compare):  # noqa: F811
    """No store yet at ~/memory; the project has the demo's journals."""
    root, project = home_demo
    shutil.rmtree(root)
    app = make_app((root, project), remember_theme=False)
    assert snap_compare(app, terminal_size=SNAPSHOT_SIZES[size], run_before=_first_run)


def test_the_sizes_pictured_cover_every_width_and_height_layout():
    """Each of the app's breakpoint classes (``-narrow``/``-wide``, ``-short``/``-tall``) is
    drawn by some picture: a third size would draw one of them again."""
    from memsearch_tui.tui.app import MemsearchApp

    def layout(breakpoints: list[tuple[int, str]], value: int) -> str:
        return [name for start, name in sorted(breakpoints) if value >= start][-1]

    widths = {layout(MemsearchApp.HORIZONTAL_BREAKPOINTS, SNAPSHOT_SIZES[s][0]) for s in SIZES}
    heights = {layout(MemsearchApp.VERTICAL_BREAKPOINTS, SNAPSHOT_SIZES[s][1]) for s in SIZES}
    assert widths == {name for _, name in MemsearchApp.HORIZONTAL_BREAKPOINTS}
    assert heights == {name for _, name in MemsearchApp.VERTICAL_BREAKPOINTS}
