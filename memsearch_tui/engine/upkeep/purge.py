"""Purge and everything after it: the one call every face uses to purge the trash.

``curator.trash.purge`` deletes the files and scrubs the operation log and the catalog;
the search copies (text cache, manifest, keyword cache, vectors) are in a package beside
the curator, so they are scrubbed here, right after. If that cannot finish (Milvus busy),
the marker the purge left makes the next hook upkeep try again.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memsearch_tui.engine.curator import trash
from memsearch_tui.engine.search.purge import marker, scrub_search
from memsearch_tui.engine.store.store import Store
from memsearch_tui.engine.store.trash_index import TrashItem


def purge(
    store: Store,
    items: list[TrashItem],
    *,
    yes: bool,
    project: Path | None = None,
    expected: Mapping[str, bytes] | None = None,
) -> dict[str, Any]:
    """``trash purge``: the files, the log's copies and every derived copy. ``expected``:
    item key → its file's bytes as the user saw them (``curator.trash.purge``)."""
    result = trash.purge(store, items, yes=yes, expected=expected)
    result["not_scrubbed"] = [*result.get("not_scrubbed", []), *finish_purge(store.root, project)]
    return result


def finish_purge(memory_root: Path, project: Path | None) -> list[str]:
    """Scrub the search copies if a purge left its marker (ours, and memsearch's own index:
    chunks of files now gone under the root); what could not be scrubbed."""
    from memsearch_tui.engine.memsearch.index_scrub import scrub

    if not marker(memory_root).exists():
        return []
    theirs = scrub(memory_root, project, gone_under=[Path(memory_root)])
    return [*scrub_search(Path(memory_root), project), *([theirs.warning] if theirs.warning else [])]
