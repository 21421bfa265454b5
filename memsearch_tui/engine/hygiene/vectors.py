"""The vectors the search index already holds for store entries, read without the model.

Hygiene never embeds: it opens the index's manifest as an immutable file
(``immutable=1``: SQLite creates no ``-wal`` or ``-shm`` beside it, which ``mode=ro`` on a
WAL database does; what an index run still holds in its WAL is not seen) and takes, for each entry whose file is unchanged since it was
indexed (same size and mtime, or a row kept racy at that size: ``indexer.RACY``), the mean
of its chunks' vectors. An entry changed since, or no index at all, simply has no vector;
duplicates then rest on keyword overlap.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import NDArray

_ROWS = (
    "SELECT c.entry_id, c.vec, f.mtime_ns, f.size, f.path, {stamps} FROM chunks c JOIN files f ON c.path = f.path "
    "{join}WHERE c.kind = 'entry' AND c.embedded = 1 AND c.vec IS NOT NULL"
)
#: the (ctime, inode) the index recorded (session 18); an older manifest has no such table
_STAMPED = {"stamps": "t.ctime_ns, t.ino", "join": "LEFT JOIN file_stamps t ON t.path = f.path "}
_UNSTAMPED = {"stamps": "NULL, NULL", "join": ""}


def entry_vectors(root: Path, project: Path) -> tuple[dict[str, NDArray[Any]], str]:
    """({entry id: unit vector}, "" or why there are none) from the index of ``root``."""
    import numpy as np  # heavy: only when an index is there to read

    from memsearch_tui.engine.search.indexer import RACY, stamps_of
    from memsearch_tui.engine.search.settings import load_settings

    try:
        path = load_settings(root, project, auto_model=False).manifest_path
    except Exception as exc:  # a broken search config: no vectors, said in the report
        return {}, f"search settings unreadable ({type(exc).__name__}); duplicates by keyword overlap only"
    if not path.is_file():
        return {}, "no search index: duplicates by keyword overlap only (run `memsearch-tui vectors index` for vectors)"
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True, timeout=2.0)
    except sqlite3.Error as exc:
        return {}, f"{path}: cannot open the index read-only ({exc}); duplicates by keyword overlap only"
    sums: dict[str, Any] = {}
    fresh: dict[str, bool] = {}
    try:
        has = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'file_stamps'").fetchone()
        for entry_id, blob, mtime_ns, size, fpath, ctime_ns, ino in db.execute(
            _ROWS.format(**(_STAMPED if has else _UNSTAMPED))
        ):
            ok = fresh.get(fpath)
            if ok is None:
                try:
                    st = os.stat(fpath)
                    # a row kept racy (read within a clock tick of its write) holds the text
                    # as read then: counted as indexed, as ``vectors status`` counts it; a
                    # recorded ctime and inode must match too (``cp -p`` keeps size and mtime)
                    ok = mtime_ns in (st.st_mtime_ns, RACY) and st.st_size == size
                    ok = ok and (ctime_ns is None or (ctime_ns, ino) == stamps_of(st))
                except OSError:
                    ok = False
                fresh[fpath] = ok
            if ok:
                vec = np.frombuffer(blob, dtype=np.float32)
                sums[entry_id] = vec if entry_id not in sums else sums[entry_id] + vec
    except sqlite3.Error as exc:
        return {}, f"{path}: index unreadable ({exc}); duplicates by keyword overlap only"
    finally:
        db.close()
    out = {}
    for entry_id, vec in sums.items():
        norm = float(np.linalg.norm(vec))
        if norm > 0:
            out[entry_id] = vec / norm
    stale = sum(not ok for ok in fresh.values())
    note = f"{stale} entries changed since indexing: compared by keywords only" if stale else ""
    return out, note
