"""Where a face's memories are by default: the store root, the project (git root of cwd), and
the data folder this tool keeps its derived copies in (indexes, vectors, caches)."""

from __future__ import annotations

from pathlib import Path

from memsearch_tui.engine.memsearch.project import default_memory_root, find_project

__all__ = ["data_home", "default_memory_root", "find_project", "keep_unsaved"]


def data_home() -> Path:
    """The data folder (``MEMSEARCH_TUI_DATA_DIR`` or the platform's user data dir)."""
    from memsearch_tui.engine.search.settings import data_home as _data_home

    return _data_home()


def keep_unsaved(data: bytes, name: str) -> Path:
    """Keep an edit that could not be saved in ``<data>/unsaved/`` (private, named by when and
    ``name``); its path, for the message that says where (``engine/store/editor.py``)."""
    from memsearch_tui.engine.store.editor import keep_unsaved as _keep

    return _keep(data, name)
