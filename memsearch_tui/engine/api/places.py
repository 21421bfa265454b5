"""Where a face's memories are by default: the store root, the project (git root of cwd), and
the data folder this tool keeps its derived copies in (indexes, vectors, caches)."""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.memsearch.project import default_memory_root, find_project

__all__ = ["data_home", "default_memory_root", "find_project"]


def data_home() -> Path:
    """The data folder (``MEMSEARCH_TUI_DATA_DIR`` or the platform's user data dir)."""
    from memsearch_tui.engine.search.settings import data_home as _data_home

    return _data_home()
