"""An error text for an agent: entries by id, days by date, never the store's absolute path.

The engine's messages name files by path for the person at the terminal. An agent needs
only the id it can pass back (``ops/deploy-day``, ``2026-11-29``); where the store and
the project live on disk (a user name, a folder layout) is none of its business.
"""

from __future__ import annotations

import re
from pathlib import Path

STOP = r"[^\s'\"`;,()]"


def without_places(message: str, root: Path, project: Path, home: Path | None = None) -> str:
    """``message`` with every path under ``root``/``project`` named by id (an entry),
    date (a journal day) or the place's name, and the home folder as ``~``."""
    places: list[tuple[Path, str]] = []
    for place, name in ((root, "the memory store"), (project, "the project")):
        for form in {Path(place).absolute(), Path(place).resolve()}:
            places.append((form, name))
    places.sort(key=lambda p: len(str(p[0])), reverse=True)  # a store inside the project first
    for place, name in places:
        prefix = re.escape(str(place))
        message = re.sub(prefix + rf"/(?:{STOP}+/)?(\d{{4}}-\d{{2}}-\d{{2}})\.md\b", r"\1", message)
        if name == "the memory store":
            message = re.sub(prefix + rf"/({STOP}+?)\.md\b", r"\1", message)
        message = re.sub(prefix + rf"/({STOP}+)", r"\1", message)
        message = re.sub(prefix + r"(?![\w.-])", name, message)
    home_dir = str(home if home is not None else Path.home())
    if len(home_dir) > 1:
        message = re.sub(re.escape(home_dir) + r"(?=/|\b)", "~", message)
    return message
