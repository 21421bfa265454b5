"""After a purge: the search copies of the purged text go too.

The curator's ``purge`` deletes the files, scrubs the operation log and the catalog, and
leaves a marker (``PURGE_PENDING`` in the root's state folder), because it sits beside
this package and cannot call it. :func:`scrub_search` — called right after a purge by the
CLI, the TUI and the hook's upkeep, and by any search that finds the marker — drops the
purged rows from the literal search's text cache and the search manifest (and their
vectors from Milvus), deletes the keyword-ranking cache (rebuilt on the next search), and
scrubs each SQLite file so the rows' bytes are not left in free pages, FTS5 segments or
the WAL.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.sqlite_scrub import scrub
from memsearch_tui.engine.core.state_files import PURGE_PENDING, STATE_DIR

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the hook's path)
if TYPE_CHECKING:
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.milvus_backend import MilvusVectors
    from memsearch_tui.engine.search.settings import SearchSettings


def marker(memory_root: Path) -> Path:
    return Path(memory_root) / STATE_DIR / PURGE_PENDING


def scrub_search(memory_root: Path, project: Path | None) -> list[str]:
    """Remove purged text from every search copy; returns what could not be scrubbed."""
    from memsearch_tui.engine.search.grep_index import DB_NAME, GrepIndex

    problems: list[str] = []
    root = Path(memory_root)
    grep_db = root / STATE_DIR / DB_NAME
    try:
        if grep_db.is_file():
            gi = GrepIndex(root)
            try:
                gi.update(project)
            finally:
                gi.close()
            problems.append(scrub(grep_db))
        problems += _scrub_manifest(root, project)
    except (OSError, sqlite3.Error) as exc:  # a full or read-only disk: the marker stays, retried later
        problems.append(f"search copies: {exc}; deferred (the next search or hook retries)")
    problems = [p for p in problems if p]
    if not problems:
        marker(root).unlink(missing_ok=True)
    return problems


def _scrub_manifest(root: Path, project: Path | None) -> list[str]:
    from memsearch_tui.engine.search.indexer import index_lock, sync_chunks
    from memsearch_tui.engine.search.keyword_index import cache_path
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.settings import load_settings

    s = load_settings(root, project)
    if not s.manifest_path.exists():
        return []
    m = Manifest(s.manifest_path)
    cache = cache_path(m)
    problem = ""
    try:
        with index_lock(s):
            sync_chunks(s, m)  # rows of files that are gone leave; their vector ids are queued
            deletes = m.pending_deletes()
            # Even with nothing queued (a hook's vector upkeep may have deleted them first,
            # leaving Lite's tombstoned rows on disk), a collection that was written is redone.
            if deletes or m.get_meta("vectors") is not None:
                _delete_vectors(s, m, deletes)
                m.clear_deletes(deletes)
            m.commit()
    except MemsearchError as exc:  # Milvus busy (the app holds Lite): the marker stays, the hook retries
        problem = f"vectors: {exc.message}"
    finally:
        m.close()
    if cache.exists():
        os.unlink(cache)  # derived from the manifest; the next search rebuilds it
    return [problem, scrub(s.manifest_path)]


def _delete_vectors(s: SearchSettings, m: Manifest, ids: list[str]) -> None:
    """Delete the purged chunks' rows (path, entry id and heading are stored with them).

    A Milvus server compacts on request. Milvus Lite only marks deleted rows (its data
    files keep them until enough files pile up to merge), so there the collection is
    rewritten from the manifest, which keeps a copy of every vector it wrote: no model
    is loaded and nothing is re-embedded."""
    from memsearch_tui.engine.search.milvus_backend import MilvusVectors  # only when there is something to delete

    v = MilvusVectors(*s.milvus_args())
    try:
        if not v.exists():
            return
        if v.is_lite:
            _rewrite(v, m)
            return
        if ids:
            v.delete(ids)
        v.flush()
        compact = getattr(v.client, "compact", None)
        if compact is not None:
            compact(s.collection)
    finally:
        v.close()


def _rewrite(v: MilvusVectors, m: Manifest) -> None:
    """Drop the collection and insert the manifest's kept vectors again."""
    import numpy as np

    from memsearch_tui.engine.search.indexer import BATCH, _row
    from memsearch_tui.engine.search.manifest import _CHUNK_COLS, ChunkRow

    rows = m.db.execute(f"SELECT {_CHUNK_COLS}, vec FROM chunks WHERE embedded=1 AND vec IS NOT NULL").fetchall()
    m.db.execute("UPDATE chunks SET embedded=0 WHERE embedded=1 AND vec IS NULL")  # re-embedded later
    v.drop()
    if rows:
        v.ensure(len(rows[0][-1]) // 4)
        for i in range(0, len(rows), BATCH):
            part = rows[i : i + BATCH]
            v.insert([_row(ChunkRow(*r[:-1]), np.frombuffer(r[-1], dtype=np.float32)) for r in part])
        v.flush()
    m.bump_generation()


def finish_purge(memory_root: Path, project: Path | None) -> list[str]:
    """Scrub the search copies if a purge left its marker (ours, and memsearch's own index:
    chunks of files now gone under the root); what could not be scrubbed."""
    from memsearch_tui.engine.memsearch.index_scrub import scrub

    if not marker(memory_root).exists():
        return []
    theirs = scrub(memory_root, project, gone_under=[Path(memory_root)])
    return [*scrub_search(Path(memory_root), project), *([theirs.warning] if theirs.warning else [])]
