"""``mem.search``: search both memories (literal, keyword index, vectors, hybrid), one result type.

``Memory`` keeps one warm :class:`Searcher` (model, Milvus, keyword index) between queries;
the literal search (:func:`literal`) has a path of its own that loads none of it, for the
CLI's ``search -s grep`` that races ``grep -ri``. Every path returns the API's
``SearchResult`` holding the ranking's own hit records (:class:`SearchHit`, from
``engine.search.hit``; the literal fast path writes the same record's JSON), so ``search
--json``, the MCP ``search`` tool and the app see the same fields.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any, TypeAlias

from memsearch_tui.engine.api import limits
from memsearch_tui.engine.api.types import SearchResult
from memsearch_tui.engine.api.warm_share import WarmShare
from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.search.grep_query import Superseded as Superseded  # ``query`` raises it on ``stop``
from memsearch_tui.engine.search.stopping import BuildStopped as BuildStopped  # after ``stop_building``

if TYPE_CHECKING:
    from pathlib import Path

    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.search.results import SearchRun as EngineResult
    from memsearch_tui.engine.search.searcher import Searcher

# A query as the background refresh re-runs it: (query, strategy, k, category, source).
_Query = tuple[str, str, int, "str | None", str]

Json: TypeAlias = str | int | float | bool | None | list["Json"] | dict[str, "Json"]


@record
class BatchError:
    code: str
    message: str


@record
class BatchRow:
    """One line of ``search --batch``: the query's ``id`` (as given, else its line number),
    its result (``ok``) or why it failed (``error``); the stream goes on either way."""

    id: Json
    ok: bool
    data: SearchResult | None
    error: BatchError | None


#: seconds into a literal search before its first part is handed to ``query``'s ``partial``:
#: after the as-you-type pause (``TYPE_DELAY``, 0.12 s), the first hits are drawn within 0.3 s of the key
PARTIAL_AFTER = 0.08
BEHIND_STALENESS = 60.0  # seconds a freshness check holds when refresh-behind keeps it current
QUIET = 0.5  # seconds without a query before the background re-check runs


class Search:
    """Queries over one (memory root, project), as ``mem.search``."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem
        self.warm: Warm = mem.warm

    def query(
        self,
        query: str,
        k: int = 10,
        strategy: str = "auto",
        source: str = "all",
        category: str | None = None,
        explain: bool = False,
        since: str | None = None,
        until: str | None = None,
        stop: Callable[[], bool] | None = None,
        partial: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Search both memories; the result says which strategy ran and why (``explain``:
        each hit's legs, weights and matched terms, under ``SearchHit.explain``).
        ``since``/``until`` (YYYY-MM-DD, YYYY-MM or "last week") keep only hits dated in
        that window; time words in the question rank their window first (docs/search.md).

        The literal search (``grep``) over a big memory takes seconds: ``stop`` is asked as
        it scans (true: it ends at once, raising :class:`Superseded`), and ``partial``
        gets, :data:`PARTIAL_AFTER` s in, the best hits of the files scanned so far, with
        a note saying so; the full answer is returned as ever (the app as you type)."""
        if stop is not None or partial is not None:
            from memsearch_tui.engine.search.grep_query import Watch, watching

            told = None if partial is None else lambda run: partial(self._result(run, source))
            with watching(Watch(stop, told, PARTIAL_AFTER)):
                if strategy == "grep" and since is None and until is None:  # a window: the searcher's
                    return self._literal(query, k, source, category, explain)
                return self.query(query, k, strategy, source, category, explain, since, until)
        limits.text("query", query, limits.QUERY)
        for name, bound in (("since", since), ("until", until)):
            if bound is not None:
                limits.text(name, bound, limits.REF)
        args: dict[str, Any] = {"query": query, "strategy": strategy, "k": k, "category": category}
        args |= {"source": source, "explain": explain, "since": since, "until": until}
        from memsearch_tui.engine.api.literal import nothing_here

        res = nothing_here(self.mem.root, self.mem.project, query, strategy, source)
        if res is not None:
            return self._result(res, source)
        # the literal search keeps its own index, checked every time: never the owner's
        res = self.warm.ask_owner(self.mem, args) if strategy != "grep" else None
        if res is None:  # a build under way (prepare) answers with keywords, meaning to come
            res = self.warm.while_building(self.mem, args)
        if res is None:
            with self.warm.lock:
                res = self.warm.open(self.mem).search(**args)
            if strategy != "grep":
                self.warm.schedule((query, strategy, k, category, source))
        return self._result(res, source)

    def _literal(self, query: str, k: int, source: str, category: str | None, explain: bool) -> SearchResult:
        """The literal search as the warm searcher runs it (grep has no time window, no
        spelling fix, no owner), without opening that searcher or waiting for its lock (the
        model choice it makes as it opens read 400 files: 2-3 s at 1M). One literal search
        at a time, so a superseded one's cache update ends before the next one's begins."""
        from memsearch_tui.engine.search.explaining import literal_run_explained
        from memsearch_tui.engine.search.grep import literal_search

        limits.text("query", query, limits.QUERY)
        with self.warm.literal_lock:
            res = literal_search(self.mem.root, self.mem.project, query, k, category, source)
        return self._result(literal_run_explained(res) if explain else res, source)

    def _result(self, res: EngineResult, source: str) -> SearchResult:
        missing = [h.id for h in res.hits if h.source == "store" and not h.title]
        return result(res, self.mem.entries.titles(missing), self.mem.root, source)

    def release(self) -> None:
        """Close the warm searcher (Milvus, and Milvus Lite's file lock; the model): a face
        idle for a while frees them, and the next query opens them again. An owner of the
        shared index (:mod:`.warm_share`) goes on serving: it reopens them when asked."""
        self.warm.release()

    def prepare(self) -> None:
        """Build the index in the background now (the app as it opens): the first meaning
        search then finds its vectors; a search while they are embedded gets the keyword
        hits at once, with the note :data:`.warm_share.MEANING_COMING`."""
        self.warm.prepare(self.mem)

    def wait_built(self, timeout: float = 300.0) -> bool:
        """Until the background build ends (then search again for the meaning hits)."""
        return self.warm.wait_built(timeout)

    def embedding(self) -> tuple[int, int] | None:
        """(done, total) of the texts a meaning search in this face is embedding before it
        answers (a memory too big for the build at open, or a build stopped mid-way); None
        while it is not counting (the model loading) or no such search runs."""
        searcher = self.warm.searcher
        return None if searcher is None else searcher.embedding

    def wait_meaning(self, timeout: float = 300.0) -> bool:
        """Until the background build has embedded its first texts, or ended: a search then
        ranks by meaning over the chunks embedded so far (issue 36 item 6)."""
        return self.warm.wait_first_vectors(timeout)

    def wait_all_meaning(self, timeout: float = 300.0) -> bool:
        """Until the background build has embedded every text, or ended: a search then gets
        the final meaning answer, without :data:`.warm_share.MEANING_COMING`, while the build
        still fills the vector store (issue 36 item 6b)."""
        return self.warm.wait_all_texts(timeout)

    def stop_sharing(self) -> None:
        """Stop serving this face's warm index to the other faces (the app as it exits):
        the next face to search takes it over. A build under way stops too (:meth:`stop_building`)."""
        self.warm.stop_building()
        self.warm.stop_owning()

    def stop_building(self) -> bool:
        """The face is ending: a vector build under way ends at its next batch (a second at
        most, its work so far kept; the next index run resumes it), raising
        :class:`BuildStopped` in its thread, and so does any later one; returns at once,
        saying whether a vector build was under way (:meth:`release` waits for its stop).
        Quitting the app called :meth:`release` alone, which waited for the whole build."""
        return self.warm.stop_building()

    def batch(
        self,
        lines: IO[str],
        *,
        strategy: str = "auto",
        k: int = 10,
        category: str | None = None,
        source: str = "all",
        since: str | None = None,
        until: str | None = None,
        explain: bool = False,
    ) -> Iterator[BatchRow]:
        """``search --batch``: one row per query line, the model and Milvus opened once;
        the arguments apply to every line that does not name its own (``since``, ``until`` …)."""
        from memsearch_tui.engine.search.batch import run_batch

        bound = {"query": limits.QUERY, "since": limits.REF, "until": limits.REF}
        with self.warm.lock:
            searcher = self.warm.open(self.mem)
            for row in run_batch(
                searcher,
                lines,
                strategy=strategy,
                k=k,
                category=category,
                source=source,
                since=since,
                until=until,
                explain=explain,
                render=result,
                check=lambda name, value: limits.text(name, value, bound[name]),
            ):
                error = row["error"]
                yield BatchRow(row["id"], row["ok"], row["data"], error and BatchError(**error))


def result(
    res: EngineResult, titles: dict[str, str] | None = None, root: Path | None = None, source: str = "all"
) -> SearchResult:
    """The engine's search result as the API's: the same hit records (:class:`SearchHit`,
    made by the ranking), each titled (:func:`.literal.titled`); with ``root``, a note when
    it holds no store (:func:`.literal.no_store`)."""
    from memsearch_tui.engine.api.literal import no_store, result_fields, titled

    notes = (*res.notes, *(no_store(root, source) if root is not None else ()))
    fields = {**result_fields(res), "notes": notes, "explain": res.explain}
    return SearchResult(**fields, hits=tuple(titled(h, titles) for h in res.hits))


class Warm(WarmShare):
    """What stays loaded between calls: the Searcher (model, Milvus, keyword index); with
    ``share``, this face may own the project's warm index for the others (:mod:`.warm_share`).

    With ``refresh_behind`` (the MCP server) the Searcher trusts its last freshness check
    for ``BEHIND_STALENESS`` seconds, and once queries pause (``QUIET``) the last one runs
    again in the background with the check forced: the files are re-checked off the
    critical path, so the next query (usually seconds later) is warm instead of paying a
    re-stat of every file. A change made by another process is seen from the query after
    the next one at the latest (or after ``BEHIND_STALENESS``); writes through this API
    invalidate at once.
    """

    def __init__(self, refresh_behind: bool = False, share: bool = False) -> None:
        self._init_share(share)
        self.searcher: Searcher | None = None
        self.lock = threading.Lock()
        self.literal_lock = threading.Lock()  # the as-you-type literal search (``Search._literal``)
        self.refresh_behind = refresh_behind
        self._thread: threading.Thread | None = None
        self._pending: _Query | None = None
        self._last = 0.0

    def open(self, mem: Memory, serving: bool = False) -> Searcher:
        """The warm Searcher, opened on first use (the search stack loads then). Hold ``lock``.
        This face's own use (not ``serving`` another face) keeps it open until its release."""
        if not serving:
            self._opened_to_serve = False
        if self.searcher is None:
            from memsearch_tui.engine.search.searcher import Searcher

            self.searcher = Searcher(mem.root, mem.project, max_staleness=self.staleness(), stop=self.stopping)
        return self.searcher

    def staleness(self) -> float:
        return BEHIND_STALENESS if self.refresh_behind else 2.0

    def schedule(self, args: _Query) -> None:
        """After ``QUIET`` seconds without a query, re-run the last one with a forced re-check.

        Waiting for a quiet moment keeps a burst of queries from queueing behind a re-check.
        """
        if not self.refresh_behind:
            return
        self._pending, self._last = args, time.monotonic()
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._refresh, name="memsearch-refresh", daemon=True)
            self._thread.start()

    def _refresh(self) -> None:
        while (idle := time.monotonic() - self._last) < QUIET:
            time.sleep(QUIET - idle)
        if self._pending is None:  # schedule() sets it before starting this thread
            return
        query, strategy, k, category, source = self._pending
        with self.lock:
            if self.searcher is None:
                return
            try:
                self.searcher.invalidate()
                self.searcher.search(query, strategy=strategy, k=k, category=category, source=source)
            except (MemsearchError, OSError):
                pass  # the next foreground query checks again and reports any real problem

    def wait(self, timeout: float = 60.0) -> None:
        """Let a running background refresh finish (tests, close)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def close(self) -> None:
        """Release, and stop serving other faces (the next face may own the index)."""
        self.stop_owning()
        self.release()

    def release(self) -> None:
        self.wait()
        with self.lock:
            if self.searcher is not None:
                self.searcher.close()
                self.searcher = None
