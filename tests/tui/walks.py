"""Walks: checks with the same opening run as steps of one app (a Pilot start costs about
as much as a check). Between steps a walk puts back what a new app gave; this closes what
a step left open the way a user would, with Escape."""

from __future__ import annotations

from typing import Any

from tests.helpers import settle


async def close_screens(pilot: Any, app: Any, limit: int = 4) -> None:
    """Escape until only the main screen is left (a dialog, then the screen under it);
    fails naming the screen still open after ``limit`` presses."""
    for _ in range(limit):
        if app.screen is app.screen_stack[0]:
            break
        await pilot.press("escape")
        await settle(pilot, app)
    assert app.screen is app.screen_stack[0], f"still open after {limit} Escapes: {app.screen!r}"
