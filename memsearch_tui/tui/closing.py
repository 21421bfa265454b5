"""What the terminal says while the app, its screen gone, waits for a vector build to stop.

Textual leaves the screen (the terminal restored) before it unmounts the widgets; the
Search pane's unmount then waits for the build in its warm searcher to stop: within a layer
of the model's forward pass (:mod:`memsearch_tui.engine.search.stopping`), longer on a
loaded machine, then Milvus Lite's flush and close. Seconds of an empty terminal read as a
hang (trial s19 #3: 8-15 s, no message): past :data:`SAY_AFTER`, one plain line says what
the wait is. Nothing is said when no build was under way, nor while the screen is shown.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable

STOPPING = "memsearch-tui: stopping the vector build… (what it embedded is kept; the next index goes on from there)"
SAY_AFTER = 0.5  # seconds: a stop that ends sooner says nothing


async def close_saying(closing: Awaitable[object], *, building: bool, shown: bool) -> None:
    """Await ``closing`` (the searcher's release); with a vector build under way (``building``)
    and the screen gone (not ``shown``), print :data:`STOPPING` to stderr if it takes longer
    than :data:`SAY_AFTER`. The release's own error propagates, as it would unwrapped.

    The process's own stderr (``sys.__stderr__``), not ``sys.stderr``: Textual may still
    have that redirected to its print capture (``run_test`` unmounts inside it)."""
    task = asyncio.ensure_future(closing)
    if building and not shown:
        done, _ = await asyncio.wait({task}, timeout=SAY_AFTER)
        if not done:
            print(STOPPING, file=sys.__stderr__ or sys.stderr, flush=True)
    await task
