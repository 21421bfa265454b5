"""What the terminal says while the app, its screen gone, waits for a vector build to stop.

Textual leaves the screen (the terminal restored) before it unmounts the widgets; the
Search pane's unmount then waits for the build in its warm searcher to stop: within a layer
of the model's forward pass (:mod:`memsearch_tui.engine.search.stopping`), longer on a
loaded machine, then Milvus Lite's flush and close. Seconds of an empty terminal read as a
hang (trial s19 #3: 8-15 s, no message): past :data:`SAY_AFTER`, one plain line says what
the wait is. Nothing is said when no build was under way, nor while the screen is shown.

The searcher's release is only part of that wait: after ``run`` returns comes the
interpreter's teardown (trial s20 #5: the prompt 1.2-2.6 s after the screen went, and the
line in one quit of six, since the release alone rarely passed 0.5 s). So the 0.5 s counts
from the quit (:func:`quitting`), and :func:`say_until_exit`, once ``run`` returns, says the
line if a build was stopping: the teardown after it is longer than that moment.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Awaitable

STOPPING = "memsearch-tui: stopping the vector build… (what it embedded is kept; the next index goes on from there)"
SAY_AFTER = 0.5  # seconds: a stop that ends sooner says nothing

#: ``time.monotonic`` when the quit was asked (``quitting``), when a build began stopping with
#: the screen gone (counted from the quit when known), and whether the line was said
_stopping: dict[str, float | bool | None] = {"quit_at": None, "since": None, "said": False}
_lock = threading.Lock()


def _say() -> None:
    """The line, once a process."""
    with _lock:
        if _stopping["said"]:
            return
        _stopping["said"] = True
    print(STOPPING, file=sys.__stderr__ or sys.stderr, flush=True)


def quitting() -> None:
    """The user asked to quit: the wait is counted from here. In a real terminal the screen
    went ~0.25 s after ctrl+q, and the pane's unmount (``close_saying``) came most of a
    second later: counted from there, the line was due after the process had ended."""
    if _stopping["quit_at"] is None:
        _stopping["quit_at"] = time.monotonic()


async def close_saying(closing: Awaitable[object], *, building: bool, shown: bool) -> None:
    """Await ``closing`` (the searcher's release); with a vector build under way (``building``)
    and the screen gone (not ``shown``), print :data:`STOPPING` to stderr if it takes longer
    than :data:`SAY_AFTER`. The release's own error propagates, as it would unwrapped.

    The process's own stderr (``sys.__stderr__``), not ``sys.stderr``: Textual may still
    have that redirected to its print capture (``run_test`` unmounts inside it)."""
    task = asyncio.ensure_future(closing)
    if building and not shown:
        quit_at, _stopping["quit_at"] = _stopping["quit_at"], None  # one quit's, used once
        since = quit_at if isinstance(quit_at, float) else time.monotonic()
        _stopping.update(since=since, said=False)  # a new stop (tests run many apps in one process)
        done, _ = await asyncio.wait({task}, timeout=max(0.0, SAY_AFTER - (time.monotonic() - since)))
        if not done:
            _say()
    await task


def say_until_exit() -> None:
    """``run`` returned after a build was stopping: the line now, unless said already. What
    follows (the interpreter's teardown of torch, Milvus Lite's client) took 0.7-0.9 s more
    at 10,000 days in a real terminal, and cannot be watched from here: a daemon thread set
    to speak at 0.5 s never ran (Python threads stop once finalization begins). So a stopped
    build says it as the process goes; nothing when no build was stopping."""
    if isinstance(_stopping["since"], float):
        _say()
