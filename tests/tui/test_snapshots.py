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

The panes and the agent-memory screen are pictured in one walk per size (``_walk``: one app
start instead of ten; each picture is still its own test, compared by ``snap_compare``):
a start cost as much as the picture. Help comes first (its keys follow the pane in focus)
and the agent-memory screen next, its host files removed again before any pane reads them;
each picture was checked equal, byte for byte, to the one a fresh start drew.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import SNAPSHOT_SIZES, make_app, settle
from tests.tui.home_demo import home_demo, snap_home  # noqa: F401 (fixture)

# one worker takes the module, so each size is walked once in the run
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("snapshots")]

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


def _agent_memory_files(project: Path) -> dict[Path, str]:
    """The hosts' memory files of the demo project, one of them cut by the host and one
    holding a secret (masked), under this test's HOME."""
    home = Path(os.environ["HOME"])
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(project.resolve()))
    return {
        home / ".claude" / "CLAUDE.md": "- answer in English; 代码注释用中文\n",
        home / ".claude" / "projects" / slug / "memory" / "MEMORY.md": "".join(f"- note {i}\n" for i in range(1, 231)),
        home / ".codex" / "memories" / "memory_summary.md": "- deploy token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\n",
    }


def _agent_memory(project: Path) -> Callable[[Any], Awaitable[None]]:
    async def open_it(pilot) -> None:
        for path, text in _agent_memory_files(project).items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        await settle(pilot)
        await pilot.press("M")
        await settle(pilot)

    return open_it


#: the walk's order (see the module docstring); after each name in ``_CLOSED`` Escape closes
#: what it opened (help, the agent-memory screen, the trash's purge question)
WALK = (
    "help",
    "agent-memory",
    "0-overview",
    "1-index",
    "3-versions",
    "5-maintenance",
    "7-notes",
    "2-journal",
    "4-trash",
    "6-search",
)
_CLOSED = ("help", "agent-memory", "4-trash")
_walked: dict[str, dict[str, str]] = {}  # size -> name -> picture, once per worker


def _pictures(size: str, request: pytest.FixtureRequest) -> dict[str, str]:
    """Every picture of the walk at ``size``, walked by the first test of this worker that
    asks (in its own HOME: the pictures read ``~/memory`` wherever it is)."""
    if size not in _walked:
        root, project = request.getfixturevalue("snap_home")
        _walked[size] = asyncio.run(_walk(make_app((root, project), remember_theme=False), size, project))
    return _walked[size]


async def _walk(app: Any, size: str, project: Path) -> dict[str, str]:
    shots = {**SHOTS, "agent-memory": _agent_memory(project)}
    pictures: dict[str, str] = {}
    async with app.run_test(size=SNAPSHOT_SIZES[size]) as pilot:
        for name in WALK:
            await shots[name](pilot)
            # what ``snap_compare`` does between its ``run_before`` and its picture
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()
            pictures[name] = app.export_screenshot(title=app.title, simplify=True)
            if name in _CLOSED:
                await pilot.press("escape")
            if name == "agent-memory":
                for folder in {
                    path.relative_to(Path(os.environ["HOME"])).parts[0] for path in _agent_memory_files(project)
                }:
                    shutil.rmtree(Path(os.environ["HOME"]) / folder)
    return pictures


def _compare(snap_compare, monkeypatch: pytest.MonkeyPatch, picture: str, size: str) -> bool:
    """``snap_compare`` on a picture the walk took: its comparison, ``--snapshot-update`` and
    report, with the screenshot it takes (``textual._doc.take_svg_screenshot``, imported at
    each call) replaced by the picture. Were the replacement ever missed, it would picture a
    bare app and fail."""
    from textual.app import App

    monkeypatch.setattr("textual._doc.take_svg_screenshot", lambda **kw: picture)
    return bool(snap_compare(App(), terminal_size=SNAPSHOT_SIZES[size]))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", list(SHOTS))
def test_pane(name, size, request, snap_compare, monkeypatch):
    assert _compare(snap_compare, monkeypatch, _pictures(size, request)[name], size)


@pytest.mark.parametrize("size", SIZES)
def test_agent_memory_screen(size, request, snap_compare, monkeypatch):
    """``M``: the hosts' memory files of the demo project, one of them cut by the host and
    one holding a secret (masked), the first file's diff since (never) reviewed."""
    assert _compare(snap_compare, monkeypatch, _pictures(size, request)["agent-memory"], size)


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
