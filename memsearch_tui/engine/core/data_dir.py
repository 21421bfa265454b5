"""The user's data folder for this tool: ``MEMSEARCH_TUI_DATA_DIR`` or the platform's.

Here, not in ``engine/search`` where the index first needed it: the store's editor keeps
an edit it could not save here too (``store/editor.py``), and the store sits below search.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "MEMSEARCH_TUI_DATA_DIR"


def data_home() -> Path:
    """``$MEMSEARCH_TUI_DATA_DIR``, else the platform's user data folder
    (``~/.local/share/memsearch-tui`` on Linux), which survives a reboot as /tmp may not."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("memsearch-tui", appauthor=False))
