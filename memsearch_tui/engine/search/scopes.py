"""Who owns an indexed file: the store, or one project (by its resolved path).

Several projects can share one store and one index without evicting each other's
journals. A module of its own so the literal-search path can use it without importing
:mod:`.sources` (and the dataclasses machinery behind it).
"""

from __future__ import annotations

from pathlib import Path

STORE_SCOPE = "store"


def project_scope(project: Path) -> str:
    """The scope that owns a project's journals: its resolved path."""
    return str(Path(project).resolve())
