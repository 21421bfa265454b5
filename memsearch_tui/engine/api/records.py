"""Engine dataclasses the API hands to a face as they are, not converted.

Each is already a typed dataclass the engine fills (a parsed journal day with its anchors
and every line kept, a trash item, a trashed file's preview, a maintenance task's status,
a transcript, a category's counts by status, the memsearch config, a Notes history item,
a search hit's explanation):
the app draws them field by field, so a face names them from here, never from the engine
package that defines them. The app imports them for annotations only (``TYPE_CHECKING``):
this module loads those engine modules. A field a face prints as ``--json`` or an MCP
result comes from :mod:`.types` (frozen, serialised by :func:`.serialise.to_json`).
"""

from __future__ import annotations

from memsearch_tui.engine.curator.trash_preview import TrashPreview
from memsearch_tui.engine.maintenance.run import TaskStatus
from memsearch_tui.engine.memsearch.config import Config
from memsearch_tui.engine.memsearch.journal import Anchor, Day, Session, Turn
from memsearch_tui.engine.memsearch.transcript import Transcript
from memsearch_tui.engine.review.history import NoteHistoryItem
from memsearch_tui.engine.search.explain import HitExplain, Leg, QueryExplain, Weights
from memsearch_tui.engine.store.overview import CategoryStats
from memsearch_tui.engine.store.trash_index import TrashItem

__all__ = [
    "Anchor",
    "CategoryStats",
    "Config",
    "Day",
    "HitExplain",
    "Leg",
    "NoteHistoryItem",
    "QueryExplain",
    "Session",
    "TaskStatus",
    "Transcript",
    "TrashItem",
    "TrashPreview",
    "Turn",
    "Weights",
]
