"""Where the two memories live: the store root and the memsearch project folder."""

from __future__ import annotations

import os
from pathlib import Path

ROOT_ENV = "MEMSEARCH_TUI_MEMORY_ROOT"


def default_memory_root() -> Path:
    """``$MEMSEARCH_TUI_MEMORY_ROOT`` or ``~/memory``."""
    env = os.environ.get(ROOT_ENV)
    return Path(env).expanduser() if env else Path.home() / "memory"


def find_project(start: Path | None = None) -> Path:
    """The git root above ``start`` (memsearch's rule), else ``start`` itself."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return here


def memsearch_dir(project: Path) -> Path:
    """``<project>/.memsearch``, or ``$MEMSEARCH_DIR`` when set (as memsearch does)."""
    env = os.environ.get("MEMSEARCH_DIR")
    if env:
        p = Path(env).expanduser()
        return p if p.is_absolute() else project / p
    return project / ".memsearch"
