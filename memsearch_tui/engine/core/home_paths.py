"""Paths as a person reads them: from ``~`` when under the home folder.

The engine's messages name files by their full path (one reason, exact for a script's
``--json``). A face shows them to a person from ``~``: short, the same on every machine,
and without the account's name. The CLI and the app both format through these two, so a
reason reads the same in ``proposals list`` as in the Maintenance pane.
"""

from __future__ import annotations

import os
import re
from pathlib import Path


def _home() -> str:
    return str(Path(os.environ.get("HOME") or Path.home()))


def home_relative(path: Path | str) -> str:
    """``~/memory`` for a path under the home folder: short, and the same on every machine."""
    p = Path(path)
    try:
        rel = p.relative_to(_home())
    except ValueError:
        return str(p)
    return "~" if str(rel) == "." else f"~/{rel.as_posix()}"


def home_relative_in(text: str) -> str:
    """``text`` with every path under the home folder written from ``~`` (an engine message
    naming files): the home folder itself too, but not ``/home/ann2`` for ``/home/ann``, nor
    ``/mnt/home/ann`` (another path that holds it)."""
    home = _home().rstrip(os.sep)
    if not home:  # HOME=/ : every path is "under" it; nothing to shorten
        return text
    return re.sub(r"(?<![\w./~-])" + re.escape(home) + r"(?![\w-]|\.[\w-])", "~", text)
