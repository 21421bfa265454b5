"""Hook upkeep: keep the vector index in step with the files, cheaply.

Called by ``memsearch-tui --run-due`` after every agent turn, so the common case —
nothing changed — must cost a few stats and one SQLite read: no torch, no Milvus. Store
operations (add, update, archive, trash, restore, split) change files, which is exactly
what the stat comparison sees, so they need not call anything: the next upkeep picks
them up. When the TUI holds the Milvus Lite data dir, the keyword index is still
updated, the vector work stays queued in the manifest, and the result is ``locked``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.errors import LockTimeout, MemsearchError
from memsearch_tui.engine.core.text import plural, verb

if TYPE_CHECKING:  # the hook path imports this module: the search stack only for the type checker
    from memsearch_tui.engine.search.embeddings import Encoder
    from memsearch_tui.engine.search.settings import SearchSettings


def _row(result: str, reason: str) -> dict[str, Any]:
    return {"platform": "store", "task": "vectors", "result": result, "reason": reason}


def pending_work(memory_root: Path, project: Path) -> tuple[dict[str, Any] | None, Path | None]:
    """(a final row when there is nothing to do, else None; the search state dir).

    The hook's cheap question — a stat of every file and one SQLite read, no model, no
    Milvus — asked before it hands the real work to a background runner.
    """
    from memsearch_tui.engine.search.indexer import changed_files
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.settings import load_settings

    try:  # the model is not asked: no index yet costs no sample of the memory's language
        s = load_settings(Path(memory_root), Path(project) if project else None, auto_model=False)
        first = _nothing_to_index(s, memory_root, project)
        if first is not None:
            return first, s.state_dir
        m = Manifest(s.manifest_path)
        try:
            changed, gone = changed_files(s, m, recheck=False)
            pending, deletes = m.count_pending()
        finally:
            m.close()
        if not changed and not gone and (s.vectors_off or (not pending and not deletes)):
            # vectors switched off by a bad config value: chunks waiting for them are not
            # work a runner could do, so the hook does not start one on every call
            return _row("none", "index up to date" + (f"; vectors off: {s.vectors_off}" if s.vectors_off else "")), (
                s.state_dir
            )
        return None, s.state_dir
    except MemsearchError as exc:
        return _row("error", exc.message), None
    except OSError as exc:
        return _row("error", f"{getattr(exc, 'filename', '') or ''}: {exc.strerror or exc}"), None


def _nothing_to_index(s: SearchSettings, memory_root: Path, project: Path) -> dict[str, Any] | None:
    has_journals = s.project is not None and (Path(s.project) / ".memsearch").is_dir()
    if not Path(memory_root).is_dir() and not has_journals:
        return _row("skip", f"no memory at {memory_root} and no .memsearch in {project}")
    if not s.manifest_path.exists():
        return _row("skip", "vector index not built yet (run `memsearch-tui vectors index`)")
    return None


def upkeep(memory_root: Path, project: Path) -> dict[str, Any]:
    """One task row: replaced | none | skip | locked | error."""
    from memsearch_tui.engine.search.indexer import changed_files, index_lock, sync_chunks, sync_vectors
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.settings import load_settings

    try:
        where = (Path(memory_root), Path(project) if project else None)
        first = _nothing_to_index(load_settings(*where, auto_model=False), memory_root, project)
        if first is not None:
            return first
        s = load_settings(*where)  # an index exists: the model it is kept with
        m = Manifest(s.manifest_path)
        try:
            changed, gone = changed_files(s, m)
            pending, deletes = m.count_pending()
            if not changed and not gone and (s.vectors_off or (not pending and not deletes)):
                return _row("none", "index up to date")
            with index_lock(s, timeout=2.0):
                rep = sync_chunks(s, m)
                if s.vectors_off:  # the keyword index still follows the files
                    from memsearch_tui.engine.search.keyword_index import KeywordIndex

                    KeywordIndex(m)
                    if not rep.changed and not rep.removed:  # only rows kept racy, read again unchanged
                        return _row("none", "index up to date")
                    return _row(
                        "replaced",
                        f"{rep.changed} changed, {plural(rep.removed, 'removed file')}; vectors off: {s.vectors_off}",
                    )
                from memsearch_tui.engine.search.milvus_backend import MilvusVectors

                try:
                    v = MilvusVectors(*s.milvus_args(), lock_wait=2.0)
                except LockTimeout as exc:
                    left, _ = m.count_pending()
                    return _row(
                        "locked",
                        f"{rep.changed} changed, {plural(rep.removed, 'removed file')}; "
                        f"{plural(left, 'chunk')} {verb(left, 'waits', 'wait')} for vectors: {exc.message}",
                    )
                try:
                    from memsearch_tui.engine.search.embeddings import index_encoder, query_encoder

                    def enc(n: int) -> Encoder:
                        return (
                            query_encoder(s.model or None, s.provider)
                            if n <= 64
                            else index_encoder(s.model or None, s.index_precision, s.provider)
                        )

                    embedded, deleted = sync_vectors(s, m, v, enc)
                finally:
                    v.close()
                from memsearch_tui.engine.search.keyword_index import KeywordIndex

                KeywordIndex(m)  # rebuilds its cache if these changes left it too far behind
            if not (rep.changed or rep.removed or embedded or deleted):
                # only rows kept racy (``indexer.RACY``: read too soon after a write), read
                # again and found unchanged: the index was up to date, so nothing was replaced
                return _row("none", "index up to date")
            return _row(
                "replaced",
                f"{rep.changed} changed, {plural(rep.removed, 'removed file')}; {embedded} embedded, "
                f"{plural(deleted, 'deleted vector')}",
            )
        finally:
            m.close()
    except LockTimeout as exc:
        return _row("locked", exc.message)
    except MemsearchError as exc:
        return _row("error", exc.message)
    except OSError as exc:
        return _row("error", f"{getattr(exc, 'filename', '') or ''}: {exc.strerror or exc}")
