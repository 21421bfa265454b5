"""``mem.vectors``: the vector index — build it, inspect it, start over (the Markdown stays)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING

from memsearch_tui.engine.api.serialise import wire
from memsearch_tui.engine.core.errors import MemsearchError, Refused
from memsearch_tui.engine.core.record import record

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory


@record
class IndexReport:
    """What ``vectors index`` did: files seen and changed, chunks made, vectors embedded and
    deleted, and the files skipped with the reason (``skipped``)."""

    files: int
    changed_files: int
    removed_files: int
    new_chunks: int
    removed_chunks: int
    embedded: int
    deleted_vectors: int
    skipped: tuple[str, ...]


@record
class Drift:
    """How far the index is behind the files (``None``: unknown, Milvus not reachable)."""

    unindexed_files: int
    removed_files: int
    pending_vectors: int
    pending_deletes: int
    orphan_chunks: int | None
    missing_vectors: int | None


@record
class VectorStatus:
    """``vectors status``: where the index is, its model, its counts and its drift.
    ``model_error``/``milvus_error``: why a part could not be read (only when one failed)."""

    backend: str
    uri: str
    collection: str
    model: str
    dims: int | None
    state_dir: str
    built: bool
    files: int
    chunks: int
    vectors: int | None
    drift: Drift
    model_error: str = field(default="", metadata=wire(omit_default=True))
    milvus_error: str = field(default="", metadata=wire(omit_default=True))
    collection_dims: int | None = field(default=None, metadata=wire(omit_default=True))
    server_version: str = field(default="", metadata=wire(omit_default=True))
    partition_key: str = field(default="", metadata=wire(omit_default=True))  # a server's: `owner = <this index>`


@record
class VectorsReset:
    """``vectors reset``: the collection dropped (``dropped``: it existed) and where it was."""

    collection: str
    uri: str
    dropped: bool


class Vectors:
    """The vector index of one (memory root, project), as ``mem.vectors``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def index(
        self,
        *,
        force: bool = False,
        progress: Callable[[int, int], None] | None = None,
        phase: Callable[[str], None] | None = None,
    ) -> IndexReport:
        """Index store entries, journals, PROJECT.md and USER.md (incremental; ``force``: all again)."""
        import sqlite3

        with self.mem.warm.lock:
            searcher = self.mem.warm.open(self.mem)
            try:
                rep = searcher.index(force=force, progress=progress, phase=phase)
            except sqlite3.OperationalError as exc:  # the data dir is full or read-only: name it
                where = searcher.s.manifest_path
                raise MemsearchError(f"{where}: {exc}; nothing in the store changed", code="io") from None
        d = rep.as_dict()
        return IndexReport(**{**d, "skipped": tuple(d["skipped"])})

    def status(self) -> VectorStatus:
        """Backend, URI, collection, model, dims, counts and drift; creates nothing."""
        from memsearch_tui.engine.search.status import status

        d = status(self.mem.root, self.mem.project)
        return VectorStatus(**{**d, "drift": Drift(**d["drift"])})

    def reset(self, *, yes: bool) -> VectorsReset:
        """Drop the vector collection and the manifest (without ``yes``: refused)."""
        from memsearch_tui.engine.search.status import reset

        if not yes:
            raise Refused("vectors reset drops the whole vector collection and manifest; add --yes to confirm")
        self.mem.close()  # the warm searcher holds the collection open
        return VectorsReset(**reset(self.mem.root, self.mem.project))
