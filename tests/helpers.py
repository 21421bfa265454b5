"""Shared test helpers for the Textual app: one Pilot scaffold, waits that fail loudly.

``settle`` and ``until`` wait on real conditions (no worker running, a predicate true) and
raise with what they were waiting for when it does not happen within a generous limit:
a test never carries on silently after a timeout.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

SIZE = (120, 40)
WAIT_LIMIT = 60.0  # seconds: a wait that takes longer is a hang, and fails the test


def shown(widget: Any) -> str:
    """The text a Static (or Label) currently shows, its rich renderable printed to a string."""
    from rich.console import Console

    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(widget.content)
    return console.export_text()


def busy_workers(app: Any) -> list[str]:
    return [w.name or w.group for w in app.workers if w.is_running and w.group != "watch"]


async def settle(pilot: Any, app: Any | None = None, limit: float = WAIT_LIMIT) -> None:
    """Wait until no worker runs (except the file watcher) and the screen has caught up.

    Raises AssertionError naming the workers still running after ``limit`` seconds.
    """
    app = app or pilot.app
    deadline = time.monotonic() + limit
    while True:
        await pilot.pause(0.02)
        busy = busy_workers(app)
        if not busy:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"workers still running after {limit:.0f} s: {busy}")
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def until(pilot: Any, check: Callable[[], Any], what: str, limit: float = WAIT_LIMIT) -> None:
    """Wait until ``check()`` is true; raise AssertionError naming ``what`` if it never is."""
    deadline = time.monotonic() + limit
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what} after {limit:.0f} s")
        await pilot.pause(0.02)


def make_app(demo: tuple[Path, Path], **kw: Any) -> Any:
    from memsearch_tui.tui.app import MemsearchApp

    root, project = demo
    kw.setdefault("watch_files", False)
    kw.setdefault("remember_theme", True)
    return MemsearchApp(root, project, **kw)


Flow = Callable[[Any, Any], Awaitable[None]]


def run_flow(app: Any, flow: Flow, size: tuple[int, int] = SIZE) -> Any:
    """Run ``flow(pilot, app)`` against ``app`` at a fixed terminal size, after the first
    load settled; returns the app (for assertions after it closed)."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await flow(pilot, app)

    asyncio.run(main())
    return app


def screen_lines(app: Any) -> list[str]:
    """The text of every row of the screen as drawn now (cut, wrapped and clipped as the
    user sees it): for checks that a hint fits the terminal."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


#: the snapshot suite's terminal sizes (tests/tui/test_snapshots.py), by the name in a
#: snapshot's file name; the README's screenshots are the ``SCREENSHOT_SIZE`` ones
SNAPSHOT_SIZES: dict[str, tuple[int, int]] = {"80x24": (80, 24), "120x36": (120, 36), "160x48": (160, 48)}
SCREENSHOT_SIZE = "120x36"
