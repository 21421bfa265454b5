"""The vector leg of a search: the query's embedding (its forward pass started early, in a
thread of its own, while the keyword leg ranks) and the nearest chunks, from the in-process
mirror (:mod:`.dense_mirror`) or Milvus, filtered by scope, source and category.

A mixin of :class:`.searcher.Searcher`, which owns the settings, the manifest, the vector
store and the lock; moved out of searcher.py as it was (issue 32: rooms with one job each).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

if TYPE_CHECKING:  # heavy or optional modules, imported where they are used
    from memsearch_tui.engine.search.dense_mirror import DenseMirror
    from memsearch_tui.engine.search.embeddings import Encoder
    from memsearch_tui.engine.search.hybrid_leg import _Weighing
    from memsearch_tui.engine.search.manifest import Manifest
    from memsearch_tui.engine.search.milvus_backend import MilvusVectors
    from memsearch_tui.engine.search.settings import SearchSettings

    # a mirror scan done beside the forward pass: (mirror, depth, scopes, category, ranking)
    _Scan = tuple[DenseMirror, int, list[str], str | None, list[tuple[str, float]]]


def cosine_floor(encoder: object) -> float:
    """The cosine a model gives unrelated texts (E5's sit at ~0.7, MiniLM's near 0): 0 unless
    the encoder names one (``cosine_floor``)."""
    return float(getattr(encoder, "cosine_floor", 0.0))


DENSE_CANDIDATES = 200  # depth of the vector ranking: its last score is what a chunk it lacks gets


class VectorLeg:
    """The vector half of a Searcher's ranking (see the module docstring)."""

    if TYPE_CHECKING:  # what the Searcher provides
        s: SearchSettings
        _lock: threading.RLock
        _mirror: DenseMirror | None
        _query_vec: tuple[str, _InThread[tuple[Any, _Scan | None]]] | None
        _vector_queries: int

        @property
        def manifest(self) -> Manifest: ...

        @property
        def vectors(self) -> MilvusVectors: ...

        def _scopes(self, source: str) -> list[str]: ...

        def _weighing(self, query: str) -> _Weighing: ...

    def query_encoder(self) -> Encoder:
        from memsearch_tui.engine.search.embeddings import query_encoder

        self.s.require_vectors()  # a bad [embedding] value: not a silent switch to the default model

        return query_encoder(self.s.model or None, self.s.provider)

    def _milvus_filter(self, category: str | None, source: str) -> str:
        from memsearch_tui.engine.search.milvus_backend import quote  # pymilvus's side: only with a server

        scopes = self._scopes(source)
        expr = f"scope in [{', '.join(quote(x) for x in scopes)}]"
        if category:
            expr += f' and kind == "entry" and entry_id like {quote(_like_prefix(category))}'
        return expr

    def dense_ranking(self, query: str, depth: int, category: str | None, source: str) -> list[tuple[str, float]]:
        """The nearest chunks with their scores: the cosine, less the model's floor (the
        cosine of unrelated texts, :func:`cosine_floor`) when it has one."""
        floor = cosine_floor(self.query_encoder())
        ranked = self._dense_ranking(query, depth, category, source)
        if not floor:
            return ranked
        return [(cid, (sc - floor) / (1.0 - floor)) for cid, sc in ranked]

    def _dense_ranking(self, query: str, depth: int, category: str | None, source: str) -> list[tuple[str, float]]:
        self.s.require_vectors()
        vec, scanned = self._query_vector(query)
        if self.s.use_mirror:
            mirror, scopes = self.mirror(), self._scopes(source)
            if scanned is not None and scanned[:4] == (mirror, depth, scopes, category):
                return scanned[4]  # scanned beside the forward pass, on the mirror still current
            return mirror.search(vec, depth, scopes, category)
        return self.vectors.search(vec, depth, self._milvus_filter(category, source))

    def _encode(self, query: str) -> Any:
        from memsearch_tui.engine.search.embeddings import embed_query

        return embed_query(self.query_encoder(), query)

    def _encode_early(self, query: str, tier: str, k: int, category: str | None, source: str) -> None:
        """Start the query's forward pass in a thread of its own, to be picked up by
        :meth:`dense_ranking`: it runs while the files are checked and the keyword leg
        ranks (numpy releases the GIL in its matrix products), and scans the loaded vector
        mirror right after (:meth:`dense_ranking` keeps that scan if the mirror is still
        current and it asks for the same depth and filters). Not for a Searcher's first
        vector query: that thread would mostly import numpy and load the model, which hold
        the GIL (a one-shot CLI search measured +8 ms of CPU and no gain). Not for a query
        the model cannot read (its hybrid ranking is by keywords; the vectors are asked
        only if the keyword list comes up short). Under the Searcher's lock, as a search's
        ranking is, and every other use of the model waits for a pass under way: one
        Searcher never runs the model in two threads at once."""
        with self._lock:
            self._settle_query_vector()
            if (
                not self._vector_queries
                or self.s.vectors_off
                or (tier == "hybrid" and self._weighing(query).method == "keyword")
            ):
                return
            mirror = self._mirror if self.s.use_mirror else None
            depth = max(k, DENSE_CANDIDATES) if tier == "hybrid" else k
            scopes = self._scopes(source)
            self._query_vec = (
                query,
                _InThread(lambda: self._early(query, mirror, depth, scopes, category), "encode-query"),
            )

    def _early(
        self, query: str, mirror: DenseMirror | None, depth: int, scopes: list[str], category: str | None
    ) -> tuple[Any, _Scan | None]:
        """The query's vector and, with a loaded mirror, its scan (in the forward-pass thread)."""
        vec = self._encode(query)
        if mirror is None:
            return vec, None
        return vec, (mirror, depth, scopes, category, mirror.search(vec, depth, scopes, category))

    def _query_vector(self, query: str) -> tuple[Any, _Scan | None]:
        """The query's vector (and a mirror scan) that :meth:`_encode_early` started, else
        the vector encoded now."""
        self._vector_queries += 1
        pending, self._query_vec = self._query_vec, None
        if pending is not None:
            if pending[0] == query:
                return pending[1].result()
            pending[1].value()  # another query's: let it finish before the model is used again
        return self._encode(query), None

    def _settle_query_vector(self) -> None:
        """Wait for a forward pass under way (its vector stays for :meth:`dense_ranking`)."""
        if self._query_vec is not None:
            self._query_vec[1].value()

    def mirror(self) -> DenseMirror:
        """The in-process vector copy (reloaded when another run changed the vectors)."""
        from memsearch_tui.engine.search.dense_mirror import DenseMirror

        if self._mirror is None or self._mirror.stale(self.manifest):
            self._mirror = DenseMirror(self.manifest)
        return self._mirror


T = TypeVar("T")


class _InThread(Generic[T]):
    """``fn()`` run in a thread of its own while the caller goes on: the vector store's
    opening during a first build (importing pymilvus and starting Milvus Lite take ~1 s of
    one core, which the chunking and the encoder leave free), a query's forward pass during
    the keyword leg. Any attribute waits for the value; an error in ``fn`` is raised by
    :meth:`result` (and attributes), in the caller's thread."""

    def __init__(self, fn: Callable[[], T], name: str) -> None:
        self._value: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(fn,), name=name, daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[[], T]) -> None:
        try:
            self._value = fn()
        except BaseException as exc:  # handed to the caller's thread by result()
            self._error = exc

    def result(self) -> T:
        """The value, once ``fn`` returned; its error, raised here, if it failed."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return cast(T, self._value)

    def value(self) -> T | None:
        """The value, or None after an error (for a caller already raising its own)."""
        self._thread.join()
        return self._value

    def __getattr__(self, name: str) -> Any:
        return getattr(self.result(), name)


def _like_prefix(category: str) -> str:
    return category.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%"
