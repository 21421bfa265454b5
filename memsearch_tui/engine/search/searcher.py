"""The search API: a long-lived :class:`Searcher` (model and Milvus kept warm) and helpers.

The TUI keeps one Searcher per memory root and calls it from a worker thread; the CLI
makes one per command; ``search --batch`` makes one for many queries. The keyword paths
(``grep``, ``index``) never import torch or pymilvus.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from memsearch_tui.engine.core.errors import InvalidInput, LockTimeout, MemsearchError
from memsearch_tui.engine.search import languages, speakers
from memsearch_tui.engine.search import strategy as strat
from memsearch_tui.engine.search.explaining import _SCRIPT_NAMES, Explaining, _boost_note
from memsearch_tui.engine.search.fusion import convex, rrf
from memsearch_tui.engine.search.grep import grep, literal_search, snippet_of
from memsearch_tui.engine.search.indexer import (
    IndexRun,
    index_lock,
    scopes_of,
    sync_chunks,
    sync_vectors,
)
from memsearch_tui.engine.search.keyword_index import cache_path
from memsearch_tui.engine.search.manifest import ChunkRow, Manifest
from memsearch_tui.engine.search.results import Hit, SearchRun, title_of, turn_of
from memsearch_tui.engine.search.scopes import STORE_SCOPE
from memsearch_tui.engine.search.settings import SearchSettings, load_settings
from memsearch_tui.engine.search.snippet_mask import chunk_text
from memsearch_tui.engine.search.sources import (
    SourceFile,
    all_files,
    changed_entries,
    searched_of,
)
from memsearch_tui.engine.search.tokenize import query_tokens

if TYPE_CHECKING:  # heavy or optional modules, imported where they are used
    from memsearch_tui.engine.search.dense_mirror import DenseMirror
    from memsearch_tui.engine.search.embeddings import Encoder
    from memsearch_tui.engine.search.explain import Weights
    from memsearch_tui.engine.search.keyword_index import KeywordIndex, Stemmer
    from memsearch_tui.engine.search.milvus_backend import MilvusVectors

    # a mirror scan done beside the forward pass: (mirror, depth, scopes, category, ranking)
    _Scan = tuple[DenseMirror, int, list[str], str | None, list[tuple[str, float]]]

CANDIDATES = 50  # depth of the keyword ranking before fusion
DENSE_CANDIDATES = 200  # depth of the vector ranking: its last score is what a chunk it lacks gets
RRF_K = 60.0
SMALL_BATCH = 64  # pending chunks embedded with the torch-free encoder at query time
FACTS_MAX = 1_000_000  # chunks whose script and speaker a long-lived Searcher remembers
OPENING_INDEX = "opening the vector index…"  # index(force=True) drops the collection first
READING_FILES = "reading the files…"  # index(): stat every file, re-chunk the changed ones


class Searcher(Explaining):
    """Search one memory root (+ project journals) with any strategy; reuse it across queries."""

    def __init__(
        self,
        memory_root: Path,
        project: Path | None,
        *,
        settings: SearchSettings | None = None,
        config: dict[str, Any] | None = None,
        max_staleness: float = 2.0,
    ) -> None:
        """``max_staleness``: seconds a freshness check stays good (a warm Searcher typing
        queries does not re-stat 100k files per keystroke; the first search always checks,
        and :meth:`invalidate` forces the next one to)."""
        self.s = settings or load_settings(Path(memory_root), Path(project) if project else None, config)
        self.max_staleness = max_staleness
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
        self._query_vec: tuple[str, _InThread[tuple[Any, _Scan | None]]] | None = None  # a forward pass under way
        self._vector_queries = 0
        self._facts: dict[str, tuple[str, str | None]] = {}  # chunk id → (script, speaker)

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

    def query_encoder(self) -> Encoder:
        from memsearch_tui.engine.search.embeddings import query_encoder

        self.s.require_vectors()  # a bad [embedding] value: not a silent switch to the default model

        return query_encoder(self.s.model or None, self.s.provider)

    def _encoder_for(self, n: int) -> Encoder:
        from memsearch_tui.engine.search.embeddings import index_encoder, query_encoder

        return (
            query_encoder(self.s.model or None, self.s.provider)
            if n <= SMALL_BATCH
            else index_encoder(self.s.model or None, self.s.index_precision, self.s.provider)
        )

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
            listed = self._all
            if listed is None or (self._checked_at is not None and listed[0] <= self._checked_at):
                listed = self._all = (time.monotonic(), all_files(self.s.memory_root, self.s.project))
            rep = sync_chunks(self.s, self.manifest, force=force, files=listed[1])  # listed since the last check
            self._checked_at = time.monotonic()
            self._written = None
            return rep

    def invalidate(self) -> None:
        """Files changed (e.g. the TUI just wrote an entry): the next search re-checks."""
        with self._lock:  # never between note_changed's read and write of the listing
            self._checked_at = None
            self._listing = {}
            self._all = None
            self._written = None

    def note_changed(self, paths: Iterable[Path]) -> None:
        """Files this process just wrote (an API write's transaction): the listing is patched
        with those paths alone (no walk, not even of their categories), and the next search
        syncs only those files, instead of re-statting the whole store (which made a busy
        MCP server's searches slow under writes). A path outside the store's categories:
        :meth:`invalidate`."""
        got = changed_entries(self.s.memory_root, paths)
        with self._lock:
            if got is None or self._checked_at is None or self._all is None:
                self.invalidate()
                return
            keys, fresh = got
            at, listed = self._all
            self._all = (at, [f for f in listed if f.key not in keys] + fresh)
            self._listing = {}
            written = self._written or (set(), [])
            self._written = (written[0] | keys, [*written[1], *fresh])

    def _refresh_if_stale(self) -> None:
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
    ) -> IndexRun:
        """Bring chunks and vectors up to date (``force``: re-chunk and re-embed all).

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
            self._settle_query_vector()  # the model is not used by two threads at once
            opening = None
            if force:
                if phase:
                    phase(OPENING_INDEX)
                self.vectors.drop()
                self.manifest.forget_vectors()
                self.manifest.commit()
            elif self._vectors is None and self.manifest.get_meta("vectors") is None:
                opening = _InThread(self._open_vectors, "open-vectors")  # a first build: open Milvus meanwhile
            try:
                if phase:
                    phase(READING_FILES)
                rep = sync_chunks(self.s, self.manifest, force=force)
                self._checked_at = time.monotonic()
                if self._vectors_due():  # a no-op run never opens Milvus nor loads a model
                    vectors = cast("MilvusVectors", opening) if opening is not None else self.vectors
                    rep.embedded, rep.deleted_vectors = sync_vectors(
                        self.s, self.manifest, vectors, self._encoder_for, progress=progress, phase=phase
                    )
            finally:
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
    ) -> SearchRun:
        """:meth:`_search`; when the index in the data dir cannot be opened or written (a full
        or read-only disk), a literal scan of the files answers instead, saying why."""
        import sqlite3

        try:
            return self._search(query, strategy, k, category, source, explain=explain)
        except (OSError, sqlite3.OperationalError) as exc:
            if strategy == "grep":
                raise
            res = literal_search(self.s.memory_root, self.s.project, query, k, category, source)
            why = f"the search index in {self.s.manifest_path.parent} cannot be written ({exc}): literal scan instead"
            return res._replace(requested=strategy, reason=why)

    def _search(
        self,
        query: str,
        strategy: str = "auto",
        k: int = 10,
        category: str | None = None,
        source: str = "all",
        *,
        explain: bool = False,
    ) -> SearchRun:
        """Run one query; ``strategy`` is auto|grep|index|vector|hybrid.

        ``auto`` starts at the tier the number of files picks and falls through to the
        next one (:func:`.strategy.next_tier`) while a question has fewer than ``k``
        hits; ``strategy`` then names every tier that ran (``grep+index``). ``explain``
        fills each hit's :class:`.explain.HitExplain` and the result's :class:`.explain.QueryExplain`.
        """
        if strategy == "grep":
            res = literal_search(self.s.memory_root, self.s.project, query, k, category, source)
            return self._explained(res, "grep") if explain else res
        t0 = time.perf_counter()
        query, category = strat.checked(query, strategy, k, source, category)
        if strategy in ("vector", "hybrid"):
            self._encode_early(query, strategy, k, category, source)
        files = self._files_cached(category, source)
        if strategy != "auto":
            used, why = self._explicit(strategy)
            with self._lock:
                only = self._tier(used, query, k, category, source, files, explain)
            ms = (time.perf_counter() - t0) * 1000
            res = SearchRun(query, used, strategy, why, only, len(files), ms, self._unread_note(used, query))
            return self._explained(res, used) if explain else res
        tier: str | None
        tier, reason = strat.choose(len(files))
        if tier == "hybrid" and self.s.vectors_off:
            tier, reason = "index", f"{reason}; {self.s.vectors_off}: keyword index instead"
        if tier == "hybrid":
            self._encode_early(query, tier, k, category, source)
        ran: list[str] = []
        hits: list[Hit] = []
        notes: list[str] = []
        ran_out = False  # the vectors were locked: do not fall through to them again
        with self._lock:
            while tier is not None:
                try:
                    found = self._tier(tier, query, k, category, source, files, explain)
                except LockTimeout as exc:
                    notes.append(exc.message)
                    if ran:  # a fall-through that cannot run: keep what the earlier tiers found
                        reason += f"; vectors unavailable, stayed with {'+'.join(ran)}"
                        break
                    tier, reason = "index", reason + "; vectors unavailable, fell back to the keyword index"
                    ran_out = True
                    continue
                except (MemsearchError, ImportError, OSError) as exc:
                    if not ran:
                        raise
                    notes.append(f"{tier}: {exc}")
                    reason += f"; {tier} unavailable, stayed with {'+'.join(ran)}"
                    break
                ran.append(tier)
                hits = _merged(hits, found, k)
                nxt = strat.next_tier(tier, query, len(hits), k)
                if nxt is not None and (nxt in ran or ran_out):
                    nxt = None
                if nxt == "hybrid" and self.s.vectors_off:
                    reason += f"; {self.s.vectors_off}: stayed with {'+'.join(ran)}"
                    nxt = None
                if nxt is not None:
                    reason += f"; {strat.why_next(tier, query, len(hits), k, nxt)}"
                tier = nxt
        ms = (time.perf_counter() - t0) * 1000
        res = SearchRun(query, "+".join(ran), "auto", reason, hits, len(files), ms, notes)
        return self._explained(res, ran[-1] if ran else "grep") if explain else res

    # -- languages and explaining ---------------------------------------------------------
    def model_languages(self) -> frozenset[str] | None:
        """What the configured embedding model reads (None: not declared, trusted)."""
        from memsearch_tui.engine.search.embeddings import resolve_model

        try:
            return languages.model_languages(resolve_model(self.s.model or None, self.s.provider))
        except (MemsearchError, OSError):
            return None

    def weights_for(self, query: str) -> Weights:
        """The fusion weights for ``query``: the configured ones, or keyword alone when the
        model cannot read the query's script (its vectors of it are noise)."""
        return self._weighing(query).public()

    def _weighing(self, query: str) -> _Weighing:
        """:meth:`weights_for` as the ranking reads it (no :mod:`.explain` dataclass)."""
        w = self.s.keyword_weight
        langs = self.model_languages()
        script = languages.script_of(query)
        if not languages.reads(langs, script):
            return _Weighing(
                "keyword",
                0.0,
                1.0,
                f"the embedding model reads {languages.describe(langs)}; the query is in "
                f"{_SCRIPT_NAMES[script]}: keyword ranking alone (vector guesses only after its last hit)",
            )
        if self.s.fusion == "rrf":
            return _Weighing("rrf", 1.0, 1.0, f"[tui.search] fusion = rrf (k = {RRF_K:g})")
        return _Weighing("convex", round(1.0 - w, 3), w, f"[tui.search] keyword_weight = {w:g}")

    def _explicit(self, strategy: str) -> tuple[str, str]:
        """(tier to run, reason) for a ``--strategy`` the user named. With the vectors
        disabled by a bad config value, ``hybrid`` runs the keyword index (saying why: a
        ranking is more use than an error) and ``vector`` is refused."""
        reason = f"--strategy {strategy}"
        if not self.s.vectors_off or strategy not in ("vector", "hybrid"):
            return strategy, reason
        if strategy == "vector":
            raise InvalidInput(f"{self.s.vectors_off}; `--strategy index` or `grep` still work")
        return "index", f"{reason}; {self.s.vectors_off}: fell back to the keyword index"

    def _tier(
        self,
        tier: str,
        query: str,
        k: int,
        category: str | None,
        source: str,
        files: list[SourceFile],
        explain: bool = False,
    ) -> list[Hit]:
        """The hits of one strategy (``grep`` scans ``files``; the others use the index)."""
        if tier == "grep":
            return grep(files, query, k)
        self._refresh_if_stale()
        if tier in ("vector", "hybrid"):
            self._sync_vectors()
        return self._ranked(tier, query, k, category, source, explain)

    def _sync_vectors(self) -> None:
        if self._vectors_due():
            self._settle_query_vector()
            with index_lock(self.s):
                sync_vectors(self.s, self.manifest, self.vectors, self._encoder_for)

    def _files_cached(self, category: str | None, source: str) -> list[SourceFile]:
        """The searched files; a warm Searcher lists them again only after max_staleness."""
        key = (category, source)
        hit = self._listing.get(key)
        now = time.monotonic()
        if hit is not None and now - hit[0] <= self.max_staleness:
            return hit[1]
        files = self._files(category, source)
        self._listing[key] = (now, files)
        return files

    def _files(self, category: str | None, source: str) -> list[SourceFile]:
        return searched_of(self._all_files(), category, source)

    def _where(self, category: str | None, source: str) -> tuple[str, list[str | int]]:
        """SQL filter over chunks ``c`` for scope, source and category."""
        scopes = self._scopes(source)
        parts = [f"c.scope IN ({','.join('?' * len(scopes))})"]
        args: list[str | int] = list(scopes)
        if category:
            parts.append("c.kind = 'entry' AND substr(c.entry_id, 1, ?) = ?")
            args += [len(category) + 1, category + "/"]
        return " AND ".join(parts), args

    def _milvus_filter(self, category: str | None, source: str) -> str:
        from memsearch_tui.engine.search.milvus_backend import quote  # pymilvus's side: only with a server

        scopes = self._scopes(source)
        expr = f"scope in [{', '.join(quote(x) for x in scopes)}]"
        if category:
            expr += f' and kind == "entry" and entry_id like {quote(_like_prefix(category))}'
        return expr

    def keyword_ranking(
        self, query: str, depth: int, category: str | None, source: str, *, resident: bool | None = None
    ) -> list[tuple[ChunkRow, float]]:
        """BM25 ranking: the resident index (:mod:`.keyword_index`) once warm, else FTS5.

        Both give FTS5's scores. ``resident=None`` decides by use: hybrid searches and a
        Searcher's second keyword query on load (or build) the resident index; a one-shot
        keyword search stays on FTS5, which needs neither numpy nor the index's load.
        ``MEMSEARCH_TUI_KEYWORD=fts5`` (or ``resident``) forces one side, for comparisons.
        """
        forced = os.environ.get("MEMSEARCH_TUI_KEYWORD", "")
        if forced in ("fts5", "resident"):
            resident = forced == "resident"
        elif resident is None:
            resident = self._kw_index is not None or self._keyword_queries > 0
        self._keyword_queries += 1
        if resident:
            ranked = self.keyword_index().rank(query_tokens(query), depth, self._scopes(source), category)
            if ranked is not None:
                rows = self.manifest.chunks_by_rid([rid for rid, _ in ranked])
                return [(rows[rid], score) for rid, score in ranked if rid in rows]
        where, args = self._where(category, source)
        return self.manifest.keyword(query, depth, where, args)

    def keyword_index(self) -> KeywordIndex:
        """The resident BM25 index, brought up to date with the manifest's change log."""
        from memsearch_tui.engine.search.keyword_index import KeywordIndex

        if self._kw_index is None:
            self._kw_index = KeywordIndex(self.manifest)
        else:
            self._kw_index.catch_up(self.manifest)
        return self._kw_index

    def dense_ranking(self, query: str, depth: int, category: str | None, source: str) -> list[tuple[str, float]]:
        self.s.require_vectors()
        vec, scanned = self._query_vector(query)
        if self.s.use_mirror:
            mirror, scopes = self.mirror(), self._scopes(source)
            if scanned is not None and scanned[:4] == (mirror, depth, scopes, category):
                return scanned[4]  # scanned beside the forward pass, on the mirror still current
            return mirror.search(vec, depth, scopes, category)
        return self.vectors.search(vec, depth, self._milvus_filter(category, source))

    def _encode(self, query: str) -> Any:
        return self.query_encoder().encode([query])[0]

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

    def fuse(
        self,
        dense: list[tuple[str, float]],
        keyword: list[tuple[str, float]],
        weights: Weights | _Weighing,
        blind: Callable[[str], bool] | None = None,
        depth: int = CANDIDATES,
    ) -> list[tuple[str, float]]:
        """One ranking from the dense and keyword ones, weighed as :meth:`weights_for` said.

        ``blind(chunk id)``: the model cannot read that chunk, so the keyword leg alone
        scores it (:mod:`.fusion`). ``depth``: how many each leg was asked for (a shorter
        keyword list is complete: what it lacks holds no query term). Keyword weights
        alone (the model cannot read the query): the keyword ranking, and where it is
        complete, the vector ranking's other chunks after it (:func:`_filled`) — a
        question whose words occur nowhere still gets the model's best guesses, not nothing."""
        if weights.method == "keyword":
            return _filled(convex([keyword], [1.0]), dense if len(keyword) < depth else [])
        if weights.method == "rrf":
            return rrf([[c for c, _ in dense], [c for c, _ in keyword]], k=RRF_K, blind=[blind, None])
        complete = [False, len(keyword) < depth]
        return convex([dense, keyword], [weights.dense, weights.keyword], blind=[blind, None], complete=complete)

    def blind_to(self, texts: Mapping[str, str], ids: Iterable[str] = ()) -> Callable[[str], bool] | None:
        """``chunk id → True`` where the model cannot read that chunk (None: reads all), for
        the chunks of ``texts`` and ``ids`` (whose texts come from the manifest)."""
        return self._blind(self.chunk_facts([*texts, *ids], texts))

    def _blind(self, facts: Mapping[str, tuple[str, str | None]]) -> Callable[[str], bool] | None:
        langs = self.model_languages()
        if langs is None:
            return None
        readable = {script: languages.reads(langs, script) for script in {script for script, _ in facts.values()}}
        unread = {cid for cid, (script, _) in facts.items() if not readable[script]}
        return unread.__contains__ if unread else None

    def chunk_facts(self, ids: Iterable[str], texts: Mapping[str, str]) -> dict[str, tuple[str, str | None]]:
        """Each chunk's (script, speaker) — what the fusion's language check and speaker
        boost read of its text — worked out once per chunk (a warm Searcher's candidates
        recur). Kept across index changes: a chunk id is a digest of its file and its text,
        so an id names one text for good (forgetting them all at every write made every
        search under a stream of writes re-read ~50 candidates' scripts). A text not in
        ``texts`` is read from the manifest; a chunk the manifest lacks reads as ("none", None)."""
        if len(self._facts) > FACTS_MAX:
            self._facts = {}
        known = self._facts
        ids = list(dict.fromkeys(ids))
        todo = [cid for cid in ids if cid not in known]
        if todo:
            have = {cid: texts[cid] for cid in todo if cid in texts}
            have.update(self.manifest.texts_by_id([cid for cid in todo if cid not in have]))
            for cid in todo:
                text = have.get(cid)
                known[cid] = (languages.script_of(text), speakers.speaker_of(text)) if text else ("none", None)
        return {cid: known[cid] for cid in ids}

    def mirror(self) -> DenseMirror:
        """The in-process vector copy (reloaded when another run changed the vectors)."""
        from memsearch_tui.engine.search.dense_mirror import DenseMirror

        if self._mirror is None or self._mirror.stale(self.manifest):
            self._mirror = DenseMirror(self.manifest)
        return self._mirror

    def _scopes(self, source: str) -> list[str]:
        scopes = scopes_of(self.s) if source != "store" else [STORE_SCOPE]
        if source == "journal":
            scopes = [x for x in scopes if x != STORE_SCOPE] or ["<none>"]
        return scopes

    def _ranked(
        self, ran: str, query: str, k: int, category: str | None, source: str, explain: bool = False
    ) -> list[Hit]:
        if ran == "index":
            kw_rows = self.keyword_ranking(query, max(k, CANDIDATES), category, source)
            by_id = {row.id: row for row, _ in kw_rows}
            texts = {cid: row.text for cid, row in by_id.items()}
            facts = self.chunk_facts(texts, texts)
            ranked, named = speakers.boost(query, [(row.id, sc) for row, sc in kw_rows], lambda c: facts[c][1])
            at = {row.id: (i, sc) for i, (row, sc) in enumerate(kw_rows, 1)}
            terms = _snippet_terms(query)
            hits = [_hit(by_id[cid], score, query, terms) for cid, score in ranked[:k]]
            if explain:
                from memsearch_tui.engine.search.explain import HitExplain, Leg, Weights

                w = Weights("keyword", 0.0, 1.0, "keyword index (BM25) only")
                hits = [
                    h._replace(
                        explain=HitExplain(
                            "index",
                            i,
                            h.score,
                            Leg(*at[h.chunk_id]),
                            None,
                            w,
                            self.matched(query, texts[h.chunk_id]),
                            _boost_note(h.chunk_id, named, texts),
                        )
                    )
                    for i, h in enumerate(hits, 1)
                ]
            return hits
        weights = self._weighing(query)
        depth = max(k, CANDIDATES)
        kw: list[tuple[ChunkRow, float]] = []
        if ran == "hybrid":
            kw = self.keyword_ranking(query, depth, category, source)
        dense: list[tuple[str, float]] = []
        # A query the model cannot read is ranked by keywords; its vectors only fill the
        # places the keyword index left empty (it found fewer than it was asked for).
        if ran == "vector" or weights.method != "keyword" or len(kw) < depth:
            dense = self.dense_ranking(query, max(k, DENSE_CANDIDATES) if ran == "hybrid" else k, category, source)
        if ran == "vector":
            rows = self.manifest.chunks_by_id([cid for cid, _ in dense])
            terms = _snippet_terms(query)
            out = [_hit(rows[cid], score, query, terms) for cid, score in dense if cid in rows]
            if explain:
                from memsearch_tui.engine.search.explain import HitExplain, Leg, Weights

                w = Weights("vector", 1.0, 0.0, "vector ranking only")
                out = [
                    h._replace(
                        explain=HitExplain(
                            "vector", i, h.score, None, Leg(i, h.score), w, self.matched(query, rows[h.chunk_id].text)
                        )
                    )
                    for i, h in enumerate(out, 1)
                ]
            return out
        rows = {row.id: row for row, _ in kw}
        keyword = [(row.id, score) for row, score in kw]
        fused, weighing, blind, named = self._fused(
            query, dense, keyword, {cid: row.text for cid, row in rows.items()}, depth
        )
        rows.update(self.manifest.chunks_by_id([cid for cid, _ in fused[:k] if cid not in rows]))  # hits only
        texts = {cid: row.text for cid, row in rows.items()}
        terms = _snippet_terms(query)
        hits = [_hit(rows[cid], score, query, terms) for cid, score in fused[:k] if cid in rows]
        if explain:
            hits = self._explain_fused(hits, query, dense, keyword, weighing.public(), blind, texts, named)
        return hits

    def fused_ranking(
        self,
        query: str,
        dense: list[tuple[str, float]],
        keyword: list[tuple[str, float]],
        texts: Mapping[str, str],
        depth: int = CANDIDATES,
    ) -> tuple[list[tuple[str, float]], Weights, Callable[[str], bool] | None, frozenset[str]]:
        """The hybrid ranking of two legs' candidates (``texts``: chunk texts at hand; the
        others' are read from the manifest, once per chunk: :meth:`chunk_facts`): fused
        with the weights the query's language allows, then the speaker boost
        (:mod:`.speakers`). Also returns what explains it: the weights, the chunks the
        model cannot read, the speakers boosted."""
        fused, weighing, blind, named = self._fused(query, dense, keyword, texts, depth)
        return fused, weighing.public(), blind, named

    def _fused(
        self,
        query: str,
        dense: list[tuple[str, float]],
        keyword: list[tuple[str, float]],
        texts: Mapping[str, str],
        depth: int,
    ) -> tuple[list[tuple[str, float]], _Weighing, Callable[[str], bool] | None, frozenset[str]]:
        """:meth:`fused_ranking` with the weights as :meth:`_weighing` gives them."""
        weighing = self._weighing(query)
        ids = [cid for cid, _ in dense] + [cid for cid, _ in keyword]
        facts = self.chunk_facts(ids, texts)
        blind = self._blind(facts)
        fused = self.fuse(dense, keyword, weighing, blind, depth)
        spoken = {cid: speaker for cid, (_, speaker) in facts.items()}  # .get: no Python frame per chunk
        fused, named = speakers.boost(query, fused, spoken.get)
        return fused, weighing, blind, named


def _filled(ranked: list[tuple[str, float]], dense: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """``ranked`` then the chunks of ``dense`` it lacks, in dense order, each scored below
    ``ranked``'s last: half of that score (1 for an empty ranking) × its cosine / the best cosine."""
    if not dense:
        return ranked
    have = {cid for cid, _ in ranked}
    top = max((sc for _, sc in dense), default=0.0)
    base = 0.5 * (ranked[-1][1] if ranked else 1.0)
    rest = [(cid, base * max(sc, 0.0) / top if top > 0 else 0.0) for cid, sc in dense if cid not in have]
    return ranked + rest


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


class _Weighing:
    """:class:`.explain.Weights` as the ranking reads them on every search. The explain
    module (four dataclasses: ~2.5 % of a one-shot hybrid search's CPU to create) is
    imported only to explain; :meth:`public` gives the dataclass."""

    __slots__ = ("method", "dense", "keyword", "why")

    def __init__(self, method: str, dense: float, keyword: float, why: str) -> None:
        self.method, self.dense, self.keyword, self.why = method, dense, keyword, why

    def public(self) -> Weights:
        from memsearch_tui.engine.search.explain import Weights

        return Weights(self.method, self.dense, self.keyword, self.why)


def _like_prefix(category: str) -> str:
    return category.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%"


def _merged(first: list[Hit], more: list[Hit], k: int) -> list[Hit]:
    """``first`` then the hits of ``more`` that point at lines not already shown, up to ``k``."""
    out = list(first)
    for h in more:
        if len(out) >= k:
            break
        if not any(o.path == h.path and o.start <= h.end and h.start <= o.end for o in out):
            out.append(h)
    return out[:k]


def _entry_title(path: str) -> str:
    """The frontmatter title of an entry file (its first 4 KB), for a hit's ``title``.

    Remembered per path while the file's stat (mtime, size, inode) stays the same, the
    signals the index itself trusts: a warm search's hits recur, and a stat is ~10× cheaper
    than opening and reading the file (8 hits: ~0.5 ms of a warm search's critical path)."""
    try:
        st = os.stat(path)
    except OSError:
        return title_of("entry", path, "")
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    known = _TITLES.get(path)
    if known is not None and known[0] == stamp:
        return known[1]
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return title_of("entry", path, "")
    title = title_of("entry", path, head)
    if len(_TITLES) >= TITLES_MAX:
        _TITLES.clear()
    _TITLES[path] = (stamp, title)
    return title


TITLES_MAX = 100_000  # entry titles remembered (per process; a path's stat must still match)
_TITLES: dict[str, tuple[tuple[int, int, int], str]] = {}


def _snippet_terms(query: str) -> list[str]:
    """What a hit's snippet is centred on (worked out once per search, not once per hit)."""
    return query_tokens(query) + query.split()


def _hit(row: ChunkRow, score: float, query: str, terms: list[str] | None = None) -> Hit:
    return Hit(
        id=row.entry_id or row.path,
        path=row.path,
        source="store" if row.kind == "entry" else "journal",
        kind=row.kind,
        heading=row.heading,
        start=row.start,
        end=row.end,
        score=round(float(score), 6),
        snippet=snippet_of(
            chunk_text(row.path, row.start, row.end, row.text), _snippet_terms(query) if terms is None else terms
        ),
        chunk_id=row.id,
        title=_entry_title(row.path) if row.kind == "entry" else title_of(row.kind, row.path, ""),
        turn=turn_of(row.kind, row.heading),
    )


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
