"""Progress for long CLI work: a rich bar on a terminal, nothing when piped or under ``--json``.

The engine reports progress through a plain ``progress(done, total)`` callback, and (for
work with a slow start, such as loading the embedding model) ``phase(label)``; this turns
both into a bar on stderr only when a person is watching, so scripts and agents reading
stdout (or a log) never see control sequences or library progress bars.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

Report = Callable[[int, int], None]


def wanted(json_mode: bool) -> bool:
    """A bar only for a person at a terminal: stderr is a TTY and no JSON was asked for."""
    return not json_mode and sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


class Bar:
    """The engine's two callbacks on one rich task: ``bar(done, total)`` counts, ``bar.phase``
    renames the step and clears the count (a phase with no total pulses, showing no "0/?")."""

    def __init__(self, progress: Any, task: Any) -> None:
        self.progress, self.task = progress, task

    def __call__(self, done: int, total: int) -> None:
        count = f"{done}/{total}" if total else ""
        self.progress.update(self.task, completed=done, total=total or None, count=count)

    def phase(self, label: str) -> None:
        self.progress.update(self.task, description=label, completed=0, total=None, count="")


@contextmanager
def bar(label: str, *, json_mode: bool) -> Iterator[Bar | None]:
    """``with bar("embedding", json_mode=…) as report:`` — ``report`` is None when no bar is wanted."""
    if not wanted(json_mode):
        os.environ.setdefault("TQDM_DISABLE", "1")  # no library "Loading weights" bars either
        yield None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[count]}"),
        TimeElapsedColumn(),
        transient=True,
    ) as progress:
        yield Bar(progress, progress.add_task(label, total=None, count=""))
