"""The README's pictures: one snapshot per pane, the first-run screen and help, at 120×36.

The demo lives in a fixed HOME, so the header reads ``~/memory · ~/project`` (no temp path).
``scripts/screenshots.py`` refreshes these snapshots and copies them to ``screenshots/``;
``test_screenshots_are_current`` fails when the two differ (a visual change without new
screenshots).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memsearch_tui.tui.app import MemsearchApp
from tests.tui.home_demo import HOME_BASE, seed_home, settle, snap_home  # noqa: F401 (fixture)

SIZE = (120, 36)
REPO = Path(__file__).resolve().parents[2]
SNAPSHOTS = Path(__file__).parent / "__snapshots__" / "test_screenshots"
FIRST_RUN_HOME = Path("/tmp/memsearch-tui-home-first")


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


@pytest.mark.parametrize("name", list(SHOTS))
def test_screenshot(name, snap_home, snap_compare):  # noqa: F811
    root, project = snap_home
    app = MemsearchApp(root, project, watch_files=False, remember_theme=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=SHOTS[name])


def test_screenshot_first_run(snap_compare, monkeypatch):
    """No store yet at ~/memory; the project has the demo's journals."""
    from filelock import FileLock

    monkeypatch.setenv("HOME", str(FIRST_RUN_HOME))
    with FileLock(str(FIRST_RUN_HOME) + ".lock", timeout=300):
        root, project = seed_home(FIRST_RUN_HOME)
        shutil.rmtree(root)
        app = MemsearchApp(root, project, watch_files=False, remember_theme=False)
        assert snap_compare(app, terminal_size=SIZE, run_before=_first_run)


def _snapshot_of(name: str) -> Path:
    if name == "first-run":
        return SNAPSHOTS / "test_screenshot_first_run.svg"
    return SNAPSHOTS / f"test_screenshot[{name}].svg"


@pytest.mark.parametrize("name", [*SHOTS, "first-run"])
def test_screenshots_are_current(name):
    """screenshots/<name>.svg is byte-for-byte the snapshot (run scripts/screenshots.py)."""
    shot = REPO / "screenshots" / f"{name}.svg"
    assert shot.is_file(), f"{shot} missing: run python scripts/screenshots.py"
    assert shot.read_bytes() == _snapshot_of(name).read_bytes(), f"{shot} is stale: run python scripts/screenshots.py"
