"""Search over both memories: grep, keyword index, vectors (Milvus + embeddings), hybrid.

Public API (imports stay light: torch and pymilvus load only when a vector path runs)::

    from memsearch_tui.engine.search import Searcher, search, upkeep, status, reset

- ``search(memory_root, project, query, strategy="auto", k=10, category=None, source="all")``
  → :class:`SearchRun` (strategy that ran, why, its :class:`SearchHit` records: id, path, lines, snippet…).
- ``Searcher(memory_root, project)``: keeps the model and Milvus warm (the TUI's worker).
- ``upkeep(memory_root, project)`` → task row for ``--run-due`` (cheap when nothing changed).

Names resolve on first use (PEP 562), so importing one submodule — the CLI's literal
search path imports only :mod:`.grep` — does not pay for the searcher and its manifest.
"""

from __future__ import annotations

import importlib

# Eager: the submodule of the same name would otherwise shadow the function once imported.
from memsearch_tui.engine.search.upkeep import upkeep

_WHERE = {
    "SearchHit": ".hit",
    "SearchRun": ".results",
    "Searcher": ".searcher",
    "search": ".searcher",
    "status": ".status",
    "reset": ".status",
}

__all__ = [*_WHERE, "upkeep"]


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value
