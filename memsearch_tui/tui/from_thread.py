"""A worker thread's answer drawn on the UI thread only while its widget is still there.

``App.call_from_thread`` runs its callback whenever the event loop gets to it, whatever
became of the widget meanwhile. A worker outlives what started it: a pane's load still
running when the user quits, a dialog's list still being read when the user closes it.
Its callback then ran while Textual was taking the widgets down, and its ``query_one``
found none (NoMatches, reported as an unexpected error at exit). The question "is it
still there?" is asked on the UI thread, when the callback runs: asked in the thread, the
answer could change before the callback runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.dom import DOMNode
from textual.widget import Widget


def still_shown(node: DOMNode) -> bool:
    """Is the app running (not exiting) and ``node`` on a screen still in its stack? (UI
    thread.) A pane is on the main screen; a dialog is its own screen, gone once dismissed."""
    app = node.app
    if not app.is_running or not node.is_attached:
        return False
    return not isinstance(node, Widget) or node.screen in app.screen_stack  # a Screen's ``screen``: itself


def call_while_shown(node: DOMNode, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    """From a worker thread: ``callback(*args, **kwargs)`` on the UI thread, unless by then
    the app has begun to exit or ``node`` has left the screen (its widgets may be gone).
    Whether it ran: a worker with more to do stops when nothing it makes would be drawn
    (the app's ``run`` waits for its threads: work after the exit holds the quit up)."""

    def run() -> bool:
        if not still_shown(node):
            return False
        callback(*args, **kwargs)
        return True

    try:  # a worker thread finds the app through the node's parents
        app = node.app
    except RuntimeError:  # Textual's NoActiveAppError: the node is taken down already, nothing to draw
        return False
    return bool(app.call_from_thread(run))
