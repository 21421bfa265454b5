"""Forgotten, redacted and purged text leaves memsearch's own index too.

memsearch keeps its chunks in a Milvus collection (``store.py``: primary key
``chunk_hash``, with ``content``, ``source``, ``start_line``, ``end_line``). Until someone
re-runs ``memsearch index``, ``memsearch search`` would still return a redacted secret and
``memsearch expand`` of a forgotten chunk would show whatever now stands on its lines. So
after every forget, redact and purge, :func:`scrub` deletes exactly the chunks that
memsearch's next ``index`` would delete — for a changed file, the chunks whose
``(start_line, end_line, content_hash)`` no longer come out of chunking it with memsearch's
chunker and settings (``core._index_file``: ``old_ids - new_ids``); for a file that is gone,
all chunks of that source (``delete_by_source``). Nothing else: no insert, no re-embedding,
and the collection is never created or dropped (absent: nothing to do).

When the index is out of reach — on a server (we never write to a Milvus server memsearch
uses), a Milvus Lite data dir another process holds, a collection that is not memsearch's
schema — nothing is deleted, the result says so with the exact command to run, and a
record in the root's state folder keeps saying so in ``doctor`` until a later scrub (or
that command) has done it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core.atomic import atomic_write_text
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.locking import flock_held
from memsearch_tui.engine.core.safe_io import load_json
from memsearch_tui.engine.core.state_files import MEMSEARCH_SCRUB, state_file
from memsearch_tui.engine.memsearch import chunker
from memsearch_tui.engine.memsearch.native_config import NativeIndex, native_index

SCHEMA = frozenset({"chunk_hash", "content", "source", "start_line", "end_line"})
LOCK_WAIT_S = 2.0
MAX_SOURCES = 200  # a pending record names at most this many files


@dataclass(frozen=True)
class IndexScrub:
    """What a scrub did: chunks deleted, or why it could not (``problem``, ``fix``)."""

    deleted: int = 0
    note: str = ""  # why there was nothing to do (no index, no collection)
    problem: str = ""
    fix: str = ""
    sources: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {"deleted": self.deleted, "note": self.note, "problem": self.problem, "fix": self.fix}

    @property
    def warning(self) -> str:
        """One line for a face to show at once, or ``""``."""
        if not self.problem:
            return ""
        return f"memsearch's index may still hold the removed text: {self.problem}; run: {self.fix}"


class _OutOfReach(Exception):
    pass


def scrub(
    memory_root: Path | None,
    project: Path | None,
    files: Iterable[Path] = (),
    *,
    gone_under: Iterable[Path] = (),
    home: Path | None = None,
) -> IndexScrub:
    """Delete the chunks memsearch's next ``index`` would delete for ``files`` (changed or
    deleted) and for every indexed source under ``gone_under`` whose file is gone. Files a
    previous scrub could not reach (its record) are included; the record is cleared on
    success and rewritten otherwise. Never raises for an index it cannot reach."""
    pending = load_pending(memory_root)
    paths = [Path(p) for p in files] + [Path(p) for p in pending.get("files", [])]
    roots = [Path(p) for p in gone_under] + [Path(p) for p in pending.get("gone_under", [])]
    if not paths and not roots:
        return IndexScrub(note="nothing to scrub")
    try:
        settings = native_index(project, home=home)
    except MemsearchError as exc:  # a config memsearch itself could not read: say so, lose nothing
        return _keep(memory_root, project, paths, roots, f"memsearch's config: {exc.message}")
    try:
        result = _scrub(settings, paths, roots)
    except _OutOfReach as exc:
        return _keep(memory_root, project, paths, roots, str(exc))
    if pending:
        clear_pending(memory_root)
    return result


def _scrub(s: NativeIndex, paths: list[Path], roots: list[Path]) -> IndexScrub:
    if not s.is_lite:
        raise _OutOfReach(f"memsearch's index is on a Milvus server ({s.uri}); memsearch-tui does not write there")
    if not s.lite_path.exists():
        return IndexScrub(note=f"no memsearch index at {s.lite_path}")
    deadline = time.monotonic() + LOCK_WAIT_S
    while flock_held(s.lite_path / "LOCK"):
        if time.monotonic() >= deadline:
            raise _OutOfReach(f"memsearch's Milvus Lite data dir {s.lite_path} is held by another process")
        time.sleep(0.1)
    client = _open(s)
    try:
        if not client.has_collection(s.collection):
            return IndexScrub(note=f"no collection {s.collection!r} in {s.lite_path}")
        fields = {str(f.get("name")) for f in client.describe_collection(s.collection).get("fields", [])}
        if not SCHEMA.issubset(fields):
            raise _OutOfReach(f"collection {s.collection!r} in {s.lite_path} is not memsearch's schema; left as it is")
        client.load_collection(s.collection)
        stale = [h for p in paths for h in _stale_chunks(client, s, p)]
        stale += [h for root in roots for h in _gone_chunks(client, s, root)]
        if stale:
            client.delete(collection_name=s.collection, ids=sorted(set(stale)))
            client.flush(s.collection)
        return IndexScrub(deleted=len(set(stale)))
    except _OutOfReach:
        raise
    except Exception as exc:  # pymilvus raises many types; the edit itself stands
        raise _OutOfReach(f"memsearch's index at {s.lite_path}: {type(exc).__name__}: {exc}") from None
    finally:
        _close(client, s)


def _open(s: NativeIndex) -> Any:
    import logging

    for name in ("pymilvus", "grpc"):  # their errors reach the user as one sentence, never a traceback
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        from pymilvus import MilvusClient

        return MilvusClient(uri=str(s.lite_path))
    except Exception as exc:
        raise _OutOfReach(f"cannot open memsearch's index at {s.lite_path}: {exc}") from None


def _close(client: Any, s: NativeIndex) -> None:
    """Close, and stop the embedded server so its LOCK is free for memsearch (as it does)."""
    try:
        client.close()
        from milvus_lite.server_manager import server_manager_instance

        server_manager_instance.release_server(str(s.lite_path))
    except Exception:  # best effort: the process exits soon anyway
        pass


def source_names(path: Path) -> list[str]:
    """How memsearch may have named ``path`` as a source: under a resolved root it walked."""
    path = Path(path).absolute()
    return sorted({str(path), str(path.parent.resolve() / path.name)})


def _stale_chunks(client: Any, s: NativeIndex, path: Path) -> list[str]:
    names = source_names(path)
    rows = client.query(
        collection_name=s.collection,
        filter=f"source in {json.dumps(names, ensure_ascii=False)}",
        output_fields=["chunk_hash", "content", "start_line", "end_line"],
    )
    try:
        keep = chunker.chunk_ids(
            chunker.decode(path.read_bytes()), max_chunk_size=s.max_chunk_size, overlap_lines=s.overlap_lines
        )
    except FileNotFoundError:
        keep = set()
    return [
        str(r["chunk_hash"])
        for r in rows
        if chunker.MemsearchChunk(int(r["start_line"]), int(r["end_line"]), chunker.content_hash(str(r["content"])))
        not in keep
    ]


def _gone_chunks(client: Any, s: NativeIndex, root: Path) -> list[str]:
    prefix = str(Path(root).resolve()) + "/"
    escaped = prefix.replace("\\", "\\\\").replace('"', '\\"')
    rows = client.query(
        collection_name=s.collection,
        filter=f'source like "{escaped}%"',
        output_fields=["chunk_hash", "source"],
    )
    return [
        str(r["chunk_hash"]) for r in rows if str(r["source"]).startswith(prefix) and not Path(r["source"]).exists()
    ]


# -- the record of a scrub that could not reach the index ------------------------------------
def fix_command(project: Path | None, folders: Iterable[Path]) -> str:
    """The command that has memsearch delete the stale chunks itself."""
    names = sorted({str(f) for f in folders}) or ["."]
    where = f"cd {project} && " if project is not None else ""
    return f"{where}memsearch index {' '.join(names)}"


def _keep(
    memory_root: Path | None,
    project: Path | None,
    paths: list[Path],
    roots: list[Path],
    problem: str,
) -> IndexScrub:
    fix = fix_command(project, [p.parent for p in paths] + roots)
    record = {
        "files": sorted({str(p) for p in paths})[:MAX_SOURCES],
        "gone_under": sorted({str(r) for r in roots})[:MAX_SOURCES],
        "problem": problem,
        "fix": fix,
    }
    if memory_root is not None and Path(memory_root).is_dir():
        path = state_file(memory_root, MEMSEARCH_SCRUB)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return IndexScrub(problem=problem, fix=fix, sources=tuple(record["files"]))


def load_pending(memory_root: Path | None) -> dict[str, Any]:
    """The record of a scrub that could not reach memsearch's index, or ``{}``."""
    if memory_root is None:
        return {}
    try:
        data = load_json(state_file(memory_root, MEMSEARCH_SCRUB))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def clear_pending(memory_root: Path | None) -> None:
    if memory_root is not None:
        state_file(memory_root, MEMSEARCH_SCRUB).unlink(missing_ok=True)
