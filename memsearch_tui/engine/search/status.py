"""The vector index's status, its reset, and the refresh after a curation rewrote files.

``vectors status`` and ``doctor`` read the index without creating anything; ``vectors
reset`` drops the collection and the manifest; a journal forget/redact/restore refreshes
what exists at once (:func:`refresh_after_edit`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.errors import LockTimeout, MemsearchError
from memsearch_tui.engine.core.text import plural
from memsearch_tui.engine.search.indexer import IndexRun, changed_files, index_lock
from memsearch_tui.engine.search.manifest import Manifest
from memsearch_tui.engine.search.searcher import Searcher
from memsearch_tui.engine.search.settings import SearchSettings, load_settings
from memsearch_tui.engine.search.sources import searched_files


def refresh_after_edit(memory_root: Path, project: Path | None) -> dict[str, Any]:
    """Bring the derived indexes up to date after a curation rewrote files (a forgotten
    journal turn must stop being found at once, by keyword and by meaning).

    Only what exists is refreshed: no manifest → nothing (the first search builds it);
    chunks always; vectors only when they were built before (a forget must not start the
    first full embedding run). The grep cache notices changed files by itself. A vector
    index held by another process is reported, not waited for: the manifest already
    dropped the chunks, so no search shows them, and the next index run deletes them.
    """
    from memsearch_tui.engine.search.indexer import vector_identity

    s = load_settings(Path(memory_root), project)
    if not s.manifest_path.exists():
        return {"keyword": "not built", "vectors": "not built"}
    with Searcher(memory_root, project, settings=s) as searcher:
        built = searcher.manifest.get_meta("vectors") == vector_identity(s)
        if not built:
            rep = searcher.refresh_chunks()
            return {"keyword": _changed(rep), "vectors": "not built"}
        try:
            rep = searcher.index()
        except LockTimeout as exc:
            rep = searcher.refresh_chunks()
            return {"keyword": _changed(rep), "vectors": f"deferred: {exc.message}"}
        return {"keyword": _changed(rep), "vectors": f"{rep.embedded} embedded, {rep.deleted_vectors} deleted"}


def _changed(rep: IndexRun) -> str:
    d = rep.as_dict()
    return f"{d['changed_files']} changed, {plural(d['removed_files'], 'removed file')}"


def status(memory_root: Path, project: Path | None, *, check_milvus: bool = True) -> dict[str, Any]:
    """Backend, where it is, the model, and drift between files, manifest and Milvus.

    Read-only: with no index built yet it creates nothing (no state folder, no manifest,
    no Milvus Lite data dir) and reports every file as unindexed.
    """
    s = load_settings(Path(memory_root), project)
    if not s.manifest_path.exists():
        return _status_unbuilt(s, check_milvus=check_milvus)
    m = Manifest(s.manifest_path)
    try:
        changed, gone = changed_files(s, m, recheck=False)
        counts = m.counts()
        out: dict[str, Any] = {
            "backend": s.backend,
            "uri": s.uri,
            "collection": s.collection,
            "model": s.model_label,
            "dims": None,
            "state_dir": str(s.state_dir),
            "built": True,
            "files": counts["files"],
            "chunks": counts["chunks"],
            "vectors": None,
            "drift": {
                "unindexed_files": len(changed),
                "removed_files": len(gone),
                "pending_vectors": counts["pending_vectors"],
                "pending_deletes": counts["pending_deletes"],
                "orphan_chunks": None,
                "missing_vectors": None,
            },
        }
        from memsearch_tui.engine.search.embeddings import model_dim, resolve_model

        try:
            out["dims"] = model_dim(resolve_model(s.model or None, s.provider))
        except (MemsearchError, OSError, ValueError, KeyError) as exc:
            out["model_error"] = str(exc)
        if s.vectors_off:
            out["milvus_error"] = s.vectors_off
        elif check_milvus:
            try:
                from memsearch_tui.engine.search.milvus_backend import MilvusVectors

                v = MilvusVectors(*s.milvus_args(), lock_wait=0.5)
                try:
                    out["vectors"] = v.count()
                    out["collection_dims"] = v.dim()
                    _name_server(out, v)
                finally:
                    v.close()
                out["drift"]["orphan_chunks"] = max(0, out["vectors"] - counts["embedded"])
                out["drift"]["missing_vectors"] = max(0, counts["embedded"] - out["vectors"])
            except LockTimeout as exc:
                out["milvus_error"] = exc.message
            except MemsearchError as exc:
                out["milvus_error"] = exc.message
        return out
    finally:
        m.close()


def _status_unbuilt(s: SearchSettings, *, check_milvus: bool) -> dict[str, Any]:
    """``status`` before the first ``vectors index``: nothing to open, nothing to create."""
    from memsearch_tui.engine.search.embeddings import model_dim, resolve_model

    out: dict[str, Any] = {
        "backend": s.backend,
        "uri": s.uri,
        "collection": s.collection,
        "model": s.model_label,
        "dims": None,
        "state_dir": str(s.state_dir),
        "files": 0,
        "chunks": 0,
        "vectors": 0 if s.is_lite else None,
        "built": False,
        "drift": {
            "unindexed_files": len(searched_files(s.memory_root, s.project, None, "all")),
            "removed_files": 0,
            "pending_vectors": 0,
            "pending_deletes": 0,
            "orphan_chunks": 0,
            "missing_vectors": 0,
        },
    }
    try:
        out["dims"] = model_dim(resolve_model(s.model or None, s.provider))
    except (MemsearchError, OSError, ValueError, KeyError) as exc:
        out["model_error"] = str(exc)
    if s.vectors_off:
        out["milvus_error"] = s.vectors_off
    elif check_milvus and not s.is_lite:
        try:
            from memsearch_tui.engine.search.milvus_backend import MilvusVectors

            v = MilvusVectors(*s.milvus_args(), lock_wait=0.5)
            try:
                out["vectors"] = v.count()
                _name_server(out, v)
            finally:
                v.close()
        except MemsearchError as exc:
            out["milvus_error"] = exc.message
    return out


def _name_server(out: dict[str, Any], v: Any) -> None:
    """The server's version and this index's partition key (``owner = <id>``) on a server."""
    from memsearch_tui.engine.search.milvus_backend import OWNER

    if v.is_lite:
        return
    out["server_version"] = v.server_version()
    if v.keyed:
        out["partition_key"] = f"{OWNER} = {v.owner() or '(none yet)'}"


def reset(memory_root: Path, project: Path | None) -> dict[str, Any]:
    """Drop the collection and forget the manifest; the next index rebuilds everything."""
    s = load_settings(Path(memory_root), project)
    from memsearch_tui.engine.search.milvus_backend import MilvusVectors

    with index_lock(s):
        v = MilvusVectors(*s.milvus_args())
        try:
            existed = v.exists()
            v.drop()
        finally:
            v.close()
        m = Manifest(s.manifest_path)
        try:
            m.wipe()
        finally:
            m.close()
        from memsearch_tui.engine.search.model_auto import forget

        forget(s.state_dir)  # an unset model is chosen again from what the memory holds now
    return {"collection": s.collection, "uri": s.uri, "dropped": existed}
