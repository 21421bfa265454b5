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

memsearch's ids hold the line numbers, so a forget also deletes the chunk of a turn that
stayed but moved up: memsearch's next ``index`` re-creates it under its new lines, with the
user's embedding model (possibly a paid API we have no business calling). Until then
that turn is out of ``memsearch search``; the result names each such chunk (``moved``) and
says what to run.

When the index is out of reach — on a server (we never write to a Milvus server memsearch
uses), a Milvus Lite data dir another process holds, a collection that is not memsearch's
schema — nothing is deleted, the result says so with the exact command to run, and a
record in the root's state folder keeps saying so in ``doctor`` until a later scrub of the
same project and index has done it. The record is kept per (project, index, collection):
one store serves many projects, each may name its own collection, and a scrub of another
project's collection says nothing about this one's.
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
    moved: tuple[str, ...] = ()  # "2026-11-28 ### 09:20": kept text whose chunk went (lines moved)
    reindex: str = ""  # the command that puts the moved chunks back

    def as_dict(self) -> dict[str, Any]:
        return {
            "deleted": self.deleted,
            "note": self.note,
            "problem": self.problem,
            "fix": self.fix,
            "moved": list(self.moved),
            "reindex": self.reindex,
        }

    @property
    def warning(self) -> str:
        """One line for a face to show at once, or ``""``."""
        if self.problem:
            return f"memsearch's index may still hold the removed text: {self.problem}; run: {self.fix}"
        if self.moved:
            return (
                f"out of `memsearch search` until memsearch indexes again (their lines moved): "
                f"{', '.join(self.moved[:10])}{' …' if len(self.moved) > 10 else ''}; run: {self.reindex}"
            )
        return ""


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
    previous scrub of this project and index could not reach (its record) are included; that
    record is cleared on success and rewritten otherwise (other projects' are left alone).
    Never raises for an index it cannot reach."""
    try:
        settings: NativeIndex | None = native_index(project, home=home)
        why = ""
    except MemsearchError as exc:  # a config memsearch itself could not read: say so, lose nothing
        settings, why = None, f"memsearch's config: {exc.message}"
    key = record_key(project, settings)
    records = load_pending(memory_root)
    mine = [r for r in records if _same(r, key)]
    others = [r for r in records if not _same(r, key)]
    paths = [Path(p) for p in files] + [Path(p) for r in mine for p in r.get("files", [])]
    roots = [Path(p) for p in gone_under] + [Path(p) for r in mine for p in r.get("gone_under", [])]
    if not paths and not roots:
        return IndexScrub(note="nothing to scrub")
    if settings is None:
        return _keep(memory_root, project, key, paths, roots, why, others)
    try:
        result = _scrub(settings, paths, roots)
    except _OutOfReach as exc:
        return _keep(memory_root, project, key, paths, roots, str(exc), others)
    if mine:
        _save(memory_root, others)
    if result.moved:
        fix = fix_command(project, [p.parent for p in paths] + roots)
        return IndexScrub(result.deleted, result.note, moved=result.moved, reindex=fix)
    return result


def record_key(project: Path | None, settings: NativeIndex | None) -> dict[str, str]:
    """Which project's scrub of which index a pending record is (``index`` "" when
    memsearch's config could not be read: any later scrub of that project retries it)."""
    return {
        "project": str(Path(project).resolve()) if project is not None else "",
        "index": "" if settings is None else (str(settings.lite_path) if settings.is_lite else settings.uri),
        "collection": "" if settings is None else settings.collection,
    }


def _same(record: dict[str, Any], key: dict[str, str]) -> bool:
    if "project" not in record:  # a record of the version before keys: any scrub retries it
        return True
    if record.get("project") != key["project"]:
        return False
    return not record.get("index") or (record.get("index"), record.get("collection")) == (
        key["index"],
        key["collection"],
    )


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
        stale: list[str] = []
        moved: list[str] = []
        for p in paths:
            ids, labels = _stale_chunks(client, s, p)
            stale += ids
            moved += labels
        stale += [h for root in roots for h in _gone_chunks(client, s, root)]
        if stale:
            client.delete(collection_name=s.collection, ids=sorted(set(stale)))
            client.flush(s.collection)
        return IndexScrub(deleted=len(set(stale)), moved=tuple(dict.fromkeys(moved)))
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


def _stale_chunks(client: Any, s: NativeIndex, path: Path) -> tuple[list[str], list[str]]:
    """The ids memsearch's next ``index`` of ``path`` deletes, and a label for each of them
    whose text is still in the file under other lines (it comes back only with that index)."""
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
    texts = {c.content_hash for c in keep}
    ids, moved = [], []
    for r in rows:
        digest = chunker.content_hash(str(r["content"]))
        if chunker.MemsearchChunk(int(r["start_line"]), int(r["end_line"]), digest) in keep:
            continue
        ids.append(str(r["chunk_hash"]))
        if digest in texts:
            moved.append(_label(path, str(r["content"])))
    return ids, moved


def _label(path: Path, content: str) -> str:
    """``2026-11-28 ### 09:20``: the file and the chunk's heading (or its first words)."""
    lines = [ln.strip() for ln in content.splitlines() if ln.strip()]
    head = next((ln for ln in reversed(lines) if ln.startswith("#")), lines[0] if lines else "")
    return f"{Path(path).stem} {head[:60]}".strip()


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
    key: dict[str, str],
    paths: list[Path],
    roots: list[Path],
    problem: str,
    others: list[dict[str, Any]],
) -> IndexScrub:
    fix = fix_command(project, [p.parent for p in paths] + roots)
    record = {
        **key,
        "files": sorted({str(p) for p in paths})[:MAX_SOURCES],
        "gone_under": sorted({str(r) for r in roots})[:MAX_SOURCES],
        "problem": problem,
        "fix": fix,
    }
    _save(memory_root, [*others, record])
    return IndexScrub(problem=problem, fix=fix, sources=tuple(record["files"]))


def _save(memory_root: Path | None, records: list[dict[str, Any]]) -> None:
    if memory_root is None or not Path(memory_root).is_dir():
        return
    path = state_file(memory_root, MEMSEARCH_SCRUB)
    if not records:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps({"pending": records}, indent=2, ensure_ascii=False) + "\n")


def load_pending(memory_root: Path | None) -> list[dict[str, Any]]:
    """The records of scrubs that could not reach memsearch's index (one per project,
    index and collection), or ``[]``; a record of the version before keys is one of them."""
    if memory_root is None:
        return []
    try:
        data = load_json(state_file(memory_root, MEMSEARCH_SCRUB))
    except (OSError, ValueError):
        return []
    if isinstance(data, dict) and isinstance(data.get("pending"), list):
        return [r for r in data["pending"] if isinstance(r, dict)]
    return [data] if isinstance(data, dict) and data else []
