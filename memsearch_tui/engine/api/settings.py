"""``[tui.mcp] writes``: how much an agent may change, read from the user's own config only.

The setting lives in ``~/.memsearch/config.toml`` next to the other ``[tui]`` settings. A
project's ``.memsearch.toml`` comes with the repository and is never consulted for it:
otherwise a cloned repo could switch an agent's writes from review to direct.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memsearch_tui.engine.api.types import WRITE_MODES
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.memsearch.config import home_config_path, read_toml

DEFAULT_WRITES = "review"


def mcp_writes(home: Path | None = None) -> str:
    """``direct`` | ``review`` (default) | ``read-only`` from the home config file."""
    path = home_config_path(home)
    data = read_toml(path) or {}
    raw_tui = data.get("tui")
    tui: dict[str, Any] = raw_tui if isinstance(raw_tui, dict) else {}
    raw_mcp = tui.get("mcp")
    mcp: dict[str, Any] = raw_mcp if isinstance(raw_mcp, dict) else {}
    value: str = mcp.get("writes", DEFAULT_WRITES)
    if value not in WRITE_MODES:
        raise InvalidInput(f"{path}: [tui.mcp] writes = {value!r}: expected one of {', '.join(WRITE_MODES)}")
    return value
