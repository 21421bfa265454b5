"""Progress for long CLI work: a rich bar on a terminal, nothing when piped or under ``--json``.

The engine reports progress through a plain ``progress(done, total)`` callback; this turns
it into a bar on stderr only when a person is watching, so scripts and agents reading
stdout (or a log) never see control sequences or library progress bars.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Report = Callable[[int, int], None]


def wanted(json_mode: bool) -> bool:
    """A bar only for a person at a terminal: stderr is a TTY and no JSON was asked for."""
    return not json_mode and sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


@contextmanager
def bar(label: str, *, json_mode: bool) -> Iterator[Report | None]:
    """``with bar("embedding", json_mode=…) as report:`` — ``report`` is None when no bar is wanted."""
    if not wanted(json_mode):
        os.environ.setdefault("TQDM_DISABLE", "1")  # no library "Loading weights" bars either
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
    ) as progress:
        task = progress.add_task(label, total=None)

        def report(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total or None)

        yield report
