"""Journal activity per day (turns written by agent hooks) for the Overview pane.

Counts ``### HH:MM`` turn headings of the day files of the last ``days`` days only, with a
byte cap per file: a year of journals costs the same as a month.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, timedelta
from pathlib import Path

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.memsearch.journal import journal_files

MAX_BYTES = 2_000_000  # per day file: a runaway journal is counted up to here
_TURN = re.compile(rb"^###\s+\d{1,2}:\d{2}", re.MULTILINE)
_DAY = re.compile(r"^(\d{4}-\d{2}-\d{2})")


def first_day(days: int) -> date:
    """The first of the last ``days`` days up to today."""
    return clock.today() - timedelta(days=days - 1)


def activity(memory_dir: Path, days: int = 56, files: Iterable[Path] | None = None) -> dict[date, int]:
    """{day: turns} for each of the last ``days`` days up to today (0 for a quiet day);
    ``files``: ``journal_files(memory_dir)`` when the caller has listed them already (the
    Overview lists them once for its chart's days: 10,000 days listed twice, issue 37)."""
    first = first_day(days)
    out = {first + timedelta(days=n): 0 for n in range(days)}
    for path in journal_files(Path(memory_dir)) if files is None else files:
        m = _DAY.match(path.name)
        if not m:
            continue
        try:
            day = date.fromisoformat(m.group(1))
        except ValueError:
            continue
        if day not in out:
            continue
        try:
            with path.open("rb") as fh:
                out[day] += len(_TURN.findall(fh.read(MAX_BYTES)))
        except OSError:
            continue
    return out
