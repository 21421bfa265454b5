"""Search over both memories: grep, keyword index, vectors (Milvus + embeddings), hybrid.

Public API (imports stay light: torch and pymilvus load only when a vector path runs)::

    from memsearch_tui.engine.search import Searcher, search, upkeep, status, reset

- ``search(memory_root, project, query, strategy="auto", k=10, category=None, source="all")``
  → :class:`SearchResult` (strategy that ran, why, hits with id/path/heading/lines/score/snippet).
- ``Searcher(memory_root, project)``: keeps the model and Milvus warm (the TUI's worker).
- ``upkeep(memory_root, project)`` → task row for ``--run-due`` (cheap when nothing changed).
"""

from __future__ import annotations

from .results import Hit, SearchResult
from .searcher import Searcher, reset, search, status
from .upkeep import upkeep

__all__ = ["Hit", "SearchResult", "Searcher", "search", "status", "reset", "upkeep"]
