"""The search API: a long-lived :class:`Searcher` (model and Milvus kept warm) and helpers.

The TUI keeps one Searcher per memory root and calls it from a worker thread; the CLI
makes one per command; ``search --batch`` makes one for many queries. The keyword paths
(``grep``, ``index``) never import torch or pymilvus.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.search import typos, windowed
from memsearch_tui.engine.search.auto_strategy import AutoStrategy
from memsearch_tui.engine.search.grep import literal_search
from memsearch_tui.engine.search.indexer import (
    IndexRun,
    encoder_for,
    index_lock,
    sync_chunks,
    sync_vectors,
)
from memsearch_tui.engine.search.keyword_index import cache_path
from memsearch_tui.engine.search.manifest import Manifest
from memsearch_tui.engine.search.ranking import Ranking
from memsearch_tui.engine.search.results import SearchRun
from memsearch_tui.engine.search.settings import SearchSettings, load_settings
from memsearch_tui.engine.search.sources import (
    SourceFile,
    all_files,
    changed_entries,
    searched_of,
)
from memsearch_tui.engine.search.vector_leg import _InThread

if TYPE_CHECKING:  # heavy or optional modules, imported where they are used
    from memsearch_tui.engine.search.dense_mirror import DenseMirror
    from memsearch_tui.engine.search.embeddings import Encoder
    from memsearch_tui.engine.search.keyword_index import KeywordIndex, Stemmer
    from memsearch_tui.engine.search.milvus_backend import MilvusVectors
    from memsearch_tui.engine.search.vector_leg import _Scan

OPENING_INDEX = "opening the vector index…"  # index(force=True) drops the collection first
READING_FILES = "reading the files…"  # index(): stat every file, re-chunk the changed ones


class Searcher(Ranking, AutoStrategy):
    """Search one memory root (+ project journals) with any strategy; reuse it across queries."""

    def __init__(
        self,
        memory_root: Path,
        project: Path | None,
        *,
        settings: SearchSettings | None = None,
        config: dict[str, Any] | None = None,
        max_staleness: float = 2.0,
        stop: threading.Event | None = None,
    ) -> None:
        """``max_staleness``: seconds a freshness check stays good (a warm Searcher typing
        queries does not re-stat 100k files per keystroke; the first search always checks,
        and :meth:`invalidate` forces the next one to). ``stop``: once set, a vector build
        (:meth:`index`, a meaning search's) ends at its next batch (:mod:`.stopping`)."""
        self.s = settings or load_settings(Path(memory_root), Path(project) if project else None, config)
        self.max_staleness = max_staleness
        self.stopping = stop if stop is not None else threading.Event()
        self._checked_at: float | None = None
        self._listing: dict[tuple[str | None, str], tuple[float, list[SourceFile]]] = {}
        self._all: tuple[float, list[SourceFile]] | None = None  # every searched file, when listed
        self._written: tuple[set[str], list[SourceFile]] | None = None  # see note_changed
        self._manifest: Manifest | None = None
        self._vectors: MilvusVectors | None = None
        self._mirror: DenseMirror | None = None
        self._kw_index: KeywordIndex | None = None
        self._keyword_queries = 0
        self._stemmer: Stemmer | None = None
        self._lock = threading.RLock()
        # Invalidations queued for the next holder of _lock: the TUI calls invalidate on its
        # UI thread, and a vector build holds _lock for minutes (the app froze, trial #3).
        self._news_lock = threading.Lock()  # held only to bump or swap the two below
        self._generation = 0  # bumped by invalidate; _seen is the one the listing reflects
        self._seen = 0
        self._noted: list[tuple[set[str], list[SourceFile]]] = []  # note_changed's, in order
        self._query_vec: tuple[str, _InThread[tuple[Any, _Scan | None]]] | None = None  # a forward pass under way
        self._vector_queries = 0
        self._facts: dict[str, tuple[str, str | None]] = {}  # chunk id → (script, speaker)
        #: (done, total) of the texts a meaning search is embedding before it answers, None
        #: when it is not counting (a UI shows it: the wait is the build, not the model)
        self.embedding: tuple[int, int] | None = None
        #: a vector build (:func:`.indexer.sync_vectors`) is under way: a face that quits
        #: may say it waits for the build to stop (the app, once its screen is gone)
        self.building = False

    # -- resources ------------------------------------------------------------------------
    @property
    def manifest(self) -> Manifest:
        if self._manifest is None:
            self._manifest = Manifest(self.s.manifest_path)
        return self._manifest

    @property
    def vectors(self) -> MilvusVectors:
        if self._vectors is None:
            self._vectors = self._open_vectors()
        return self._vectors

    def _encoder_for(self, n: int) -> Encoder:
        return encoder_for(self.s, n)

    def close(self) -> None:
        """Release Milvus (and Lite's data-dir lock) and the manifest."""
        self._settle_query_vector()
        with self._lock:
            if self._vectors is not None:
                self._vectors.close()
                self._vectors = None
            self._mirror = None
            self._kw_index = None
            self._facts = {}
            if self._manifest is not None:
                self._manifest.close()
                self._manifest = None

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- indexing -------------------------------------------------------------------------
    def refresh_chunks(self, *, force: bool = False) -> IndexRun:
        with self._lock, index_lock(self.s):
            self._catch_up()
            listed = self._all
            if listed is None or (self._checked_at is not None and listed[0] <= self._checked_at):
                listed = self._all = (time.monotonic(), all_files(self.s.memory_root, self.s.project))
            rep = sync_chunks(self.s, self.manifest, force=force, files=listed[1])  # listed since the last check
            self._checked_at = time.monotonic()
            self._written = None
            return rep

    def listed(self) -> int:
        """How many files a search covers (the listing is kept for the next freshness check)."""
        with self._lock:
            self._catch_up()
            return len(self._all_files())

    def trust_chunks(self) -> None:
        """Another thread of this process has just synced the manifest and now holds the
        index lock to embed (a build at app open): the next search skips its freshness check
        instead of waiting for that lock (the keyword hits while the vectors come)."""
        with self._lock:
            self._catch_up()
            self._checked_at, self._written = time.monotonic(), None

    def invalidate(self) -> None:
        """Files changed (e.g. the TUI just wrote an entry): the next search re-checks.

        Never waits for a search or a build (the TUI calls it on its UI thread): it only
        bumps a generation that the next holder of ``_lock`` catches up with, so a change
        seen during a build is synced by the next search, not lost."""
        with self._news_lock:
            self._generation += 1

    def _forget(self) -> None:
        """Drop the listing and the freshness check (``_lock`` held)."""
        self._checked_at = None
        self._listing = {}
        self._all = None
        self._written = None

    def _stale(self) -> bool:
        return self._generation != self._seen or bool(self._noted)

    def _catch_up(self) -> None:
        """Apply the invalidations and noted writes queued since (``_lock`` held)."""
        with self._news_lock:
            generation, noted, self._noted = self._generation, self._noted, []
        if generation != self._seen:
            self._seen = generation
            self._forget()  # a full re-check covers every noted write too
            return
        for keys, fresh in noted:
            self._patch(keys, fresh)

    def _patch(self, keys: set[str], fresh: list[SourceFile]) -> None:
        """Patch the listing with written files alone (``_lock`` held; see note_changed)."""
        if self._checked_at is None or self._all is None:
            self._forget()
            return
        at, listed = self._all
        self._all = (at, [f for f in listed if f.key not in keys] + fresh)
        self._listing = {}
        written = self._written or (set(), [])
        self._written = (written[0] | keys, [*written[1], *fresh])

    def note_changed(self, paths: Iterable[Path]) -> None:
        """Files this process just wrote (an API write's transaction): the listing is patched
        with those paths alone (no walk, not even of their categories), and the next search
        syncs only those files, instead of re-statting the whole store (which made a busy
        MCP server's searches slow under writes). A path outside the store's categories:
        :meth:`invalidate`. Queued like :meth:`invalidate`: it never waits for a build."""
        got = changed_entries(self.s.memory_root, paths)
        if got is None:
            self.invalidate()
            return
        with self._news_lock:
            self._noted.append(got)

    def _refresh_if_stale(self) -> None:
        with self._lock:
            self._catch_up()
        if self._checked_at is None or time.monotonic() - self._checked_at > self.max_staleness:
            self.refresh_chunks()
        elif self._written is not None:
            with self._lock, index_lock(self.s):
                written, self._written = self._written, None
                if written is not None:  # (another thread may have synced or invalidated meanwhile)
                    latest = {f.key: f for f in written[1]}  # a file written twice: its last listing
                    sync_chunks(self.s, self.manifest, files=list(latest.values()), only=written[0])

    def _all_files(self) -> list[SourceFile]:
        """Every searched file, listed once per freshness window (a search and the sync
        after it share one walk of the store)."""
        listed = self._all
        now = time.monotonic()
        if listed is None or now - listed[0] > self.max_staleness:
            listed = self._all = (now, all_files(self.s.memory_root, self.s.project))
        return listed[1]

    def index(
        self,
        *,
        force: bool = False,
        progress: Callable[[int, int], None] | None = None,
        phase: Callable[[str], None] | None = None,
        first: Callable[[Collection[str]], Collection[str]] | None = None,
        vectors_after: bool = False,
    ) -> IndexRun:
        """Bring chunks and vectors up to date (``force``: re-chunk and re-embed all;
        ``first``: the texts to embed before the rest, :func:`.indexer.sync_vectors`).
        ``vectors_after``: a first build opens the vector store once its texts are embedded,
        not beside them (the build at open, whose meaning answer comes from the embedded
        texts: Milvus Lite's start, pure Python holding the GIL, ~15 % of that build's CPU,
        stays off the forward pass that answer waits for; issue 36 item 6b).

        ``phase(label)`` names each step as it starts (``OPENING_INDEX`` when forced,
        ``READING_FILES``, then :func:`.indexer.sync_vectors`'s model loading and embedding)
        for a progress display. With the vectors disabled by a bad config value the keyword
        index is still brought up to date, then InvalidInput says why no vector was written."""
        if self.s.vectors_off:
            rep = self.refresh_chunks(force=force)
            with self._lock:
                self.keyword_index()
            raise InvalidInput(
                f"{self.s.vectors_off}; the keyword index is up to date "
                f"({rep.changed} changed, {rep.removed} removed files), no vectors written"
            )
        with self._lock, index_lock(self.s):
            self._catch_up()  # a change queued from here on is synced by the next search
            self._settle_query_vector()  # the model is not used by two threads at once
            opening = None
            if force:
                if phase:
                    phase(OPENING_INDEX)
                self.vectors.drop()
                self.manifest.forget_vectors()
                self.manifest.commit()
            elif self._vectors is None and self.manifest.get_meta("vectors") is None and not vectors_after:
                opening = _InThread(self._open_vectors, "open-vectors")  # a first build: open Milvus meanwhile
            try:
                if phase:
                    phase(READING_FILES)
                rep = sync_chunks(self.s, self.manifest, force=force, stop=self.stopping.is_set)
                self._checked_at = time.monotonic()
                if self._vectors_due():  # a no-op run never opens Milvus nor loads a model
                    later = opening if opening is not None else _Later(self) if vectors_after else None
                    vectors = cast("MilvusVectors", later) if later is not None else self.vectors
                    self.building = True
                    rep.embedded, rep.deleted_vectors = sync_vectors(
                        self.s,
                        self.manifest,
                        vectors,
                        self._encoder_for,
                        progress=progress,
                        phase=phase,
                        first=first,
                        stop=self.stopping.is_set,
                    )
            finally:
                self.building = False
                if opening is not None:
                    self._vectors = opening.result() if sys.exc_info()[0] is None else opening.value()
            if rep.changed or rep.removed or force or not cache_path(self.manifest).exists():
                self.keyword_index()  # builds its cache now, so the first hybrid search need not
            return rep

    def _open_vectors(self) -> MilvusVectors:
        from memsearch_tui.engine.search.milvus_backend import MilvusVectors

        return MilvusVectors(*self.s.milvus_args())

    def _vectors_due(self) -> bool:
        from memsearch_tui.engine.search.indexer import vector_identity

        pending, deletes = self.manifest.count_pending()
        return bool(pending or deletes or self.manifest.get_meta("vectors") != vector_identity(self.s))

    # -- searching ------------------------------------------------------------------------
    def search(
        self,
        query: str,
        strategy: str = "auto",
        k: int = 10,
        category: str | None = None,
        source: str = "all",
        *,
        explain: bool = False,
        since: str | None = None,
        until: str | None = None,
    ) -> SearchRun:
        """:meth:`_search`; when the index in the data dir cannot be opened or written (a full
        or read-only disk), a literal scan of the files answers instead, saying why.
        A time window (the question's time words, or ``since``/``until``) ranks by
        :mod:`.windowed`."""
        import sqlite3

        try:
            # [s11-search] typos: engine/search/typos.py re-runs a misspelled query corrected
            def run(q: str, n: int) -> SearchRun:
                again = lambda fixed: self._search(fixed, strategy, n, category, source, explain=explain)  # noqa: E731
                return typos.searched(lambda: self.manifest.db, q, again, self._lock)

            # [s11-search] time window: call site of engine/search/windowed.py
            timed = windowed.search(
                run,
                lambda: self._files_cached(category, source),
                query,
                strategy,
                k,
                since=since,
                until=until,
                explain=explain,
            )
            if timed is not None:
                return timed
            return run(query, k)
        except (OSError, sqlite3.OperationalError) as exc:
            if strategy == "grep":
                raise
            res = literal_search(self.s.memory_root, self.s.project, query, k, category, source)
            why = f"the search index in {self.s.manifest_path.parent} cannot be written ({exc}): literal scan instead"
            return res._replace(requested=strategy, reason=why)

    def _sync_vectors(self) -> None:
        """Embed what is pending before a meaning search. A first build (no vector store open
        yet) opens Milvus in a thread beside the embedding, as :meth:`index` does: importing
        pymilvus and starting Milvus Lite took ~1 s before the first text was embedded."""
        if self._vectors_due():
            self._settle_query_vector()
            with index_lock(self.s):
                opening = _InThread(self._open_vectors, "open-vectors") if self._vectors is None else None
                try:
                    vectors = cast("MilvusVectors", opening) if opening is not None else self.vectors
                    self.building = True
                    sync_vectors(
                        self.s,
                        self.manifest,
                        vectors,
                        self._encoder_for,
                        progress=self._counted,
                        stop=self.stopping.is_set,
                    )
                finally:
                    self.embedding, self.building = None, False
                    if opening is not None:
                        self._vectors = opening.result() if sys.exc_info()[0] is None else opening.value()

    def _counted(self, done: int, total: int) -> None:
        self.embedding = (done, total)

    def _files_cached(self, category: str | None, source: str) -> list[SourceFile]:
        """The searched files; a warm Searcher lists them again only after max_staleness."""
        key = (category, source)
        if self._stale():  # (a search's worker: waiting here for a build is fine)
            with self._lock:
                self._catch_up()
        hit = self._listing.get(key)
        now = time.monotonic()
        if hit is not None and now - hit[0] <= self.max_staleness:
            return hit[1]
        files = self._files(category, source)
        self._listing[key] = (now, files)
        return files

    def _files(self, category: str | None, source: str) -> list[SourceFile]:
        return searched_of(self._all_files(), category, source)


class _Later:
    """The searcher's vector store, opened at its first use (``index(vectors_after=True)``);
    a flush before then (a build stopped while embedding) has nothing to flush and opens nothing."""

    def __init__(self, searcher: Searcher) -> None:
        self._searcher = searcher

    def flush(self) -> None:
        if self._searcher._vectors is not None:
            self._searcher._vectors.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._searcher.vectors, name)


def search(
    memory_root: Path,
    project: Path | None,
    query: str,
    strategy: str = "auto",
    k: int = 10,
    category: str | None = None,
    source: str = "all",
) -> SearchRun:
    """One-shot search (opens and closes everything); the TUI should keep a Searcher."""
    with Searcher(memory_root, project) as s:
        return s.search(query, strategy=strategy, k=k, category=category, source=source)
