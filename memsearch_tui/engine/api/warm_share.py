"""One warm index per project on one machine: the faces share it (issue 37 item 6).

Milvus Lite lets one process hold a data dir, and every face loaded the model and the
vector mirror itself: the hook's upkeep waited behind an open app, and a second face paid
the first meaning search's load again. Now a long-lived face (``Memory(share=True)``: the
app, the MCP server) becomes the project's **owner** on its first indexed search, unless a
live face already is: it serves searches and upkeep over a unix socket
(:mod:`..search.owner`). Every other face asks the owner first and, with no usable owner
(none, a dead one, a foreign socket, a late or malformed answer), searches in-process as
before; a sharing face then takes the dead owner's place. The hook hands its upkeep to the
owner (:func:`..upkeep.hook`) and never waits for the pass.

Read-your-writes: a face that wrote since its last question (or asks after its own
staleness window) has the owner re-check the files before it answers.

The first meaning search (issue 36 item 6): :meth:`WarmShare.prepare` (the app, as it
opens) builds the index in a thread (chunks first, then the vectors), and while the vectors
are embedded a search is answered at once, from a second searcher that does not wait for
the build's locks (by meaning over the vectors embedded so far when it wants meaning and
some are: :mod:`..search.provisional`; else by keywords), with the note
:data:`MEANING_COMING`; the asker searches again once :meth:`WarmShare.wait_built` returns.
Once every text is embedded (:meth:`WarmShare.wait_all_texts`) that answer is the final
one, without the note: the build opens Milvus Lite and fills it after that, off the
answer's path (issue 36 item 6b).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memsearch_tui.engine.api.memory import Memory
    from memsearch_tui.engine.search.owner import Owner
    from memsearch_tui.engine.search.provisional import ProvisionalSearcher
    from memsearch_tui.engine.search.results import SearchRun
    from memsearch_tui.engine.search.searcher import Searcher


MEANING_COMING = "meaning results coming: the vector index is being built"
BUILDING_REASON = "keyword hits first: the vector index is being built"
_MEANING = ("auto", "hybrid", "vector")  # strategies that may want the vectors
PREPARE_FILES = 2_000  # a build at open only for memories up to this many files (~20 journal days: ~50)
SERVED_IDLE = 20.0  # seconds after another face's last search before an idle owner frees Milvus
PREPARE_CHUNKS = 400  # and vectors only for up to this many chunks to embed (a second or two of CPU)
WANT_DEPTH = 10  # chunks of a meaning question's keyword ranking embedded first (with their neighbours)


class WarmShare:
    """The sharing half of :class:`.search.Warm` (which owns the lock and the searcher)."""

    if TYPE_CHECKING:
        lock: threading.Lock
        searcher: Searcher | None

        def open(self, mem: Memory, serving: bool = False) -> Searcher: ...

        def staleness(self) -> float: ...

    def _init_share(self, share: bool) -> None:
        self.share = share
        self.owner: Owner | None = None
        self.served_by: int | None = None  # the owner's pid that answered the last query (None: this process)
        self.dirty = False  # this face wrote since it last asked: the owner re-checks the files
        self._asked_at: float | None = None
        self._mem: Memory | None = None
        self._where: tuple[Path, str] | None = None
        self.built = threading.Event()  # no background build under way
        self.built.set()
        self._chunks_ready = threading.Event()  # the build's chunk step is done: keywords answer
        self._first_vectors = threading.Event()  # the build committed its first vectors (or ended)
        self._first_vectors.set()
        self._all_texts = threading.Event()  # the build embedded its last text (or ended)
        self._all_texts.set()
        self._want: set[str] = set()  # own-text keys a question asked for, not embedded yet
        self._want_lock = threading.Lock()
        self._wanted_in = threading.Event()  # none wanted now (or the build ended)
        self._wanted_in.set()
        self._side: ProvisionalSearcher | None = None  # the searcher used while the build embeds
        self._side_lock = threading.Lock()
        self._become_lock = threading.Lock()
        self._opened_to_serve = False  # the searcher was opened for other faces only
        self._served_at = 0.0
        self._idle_timer: threading.Timer | None = None  # frees Milvus after the last served search
        self.stopping = threading.Event()  # the face is ending: its builds stop at their next batch

    def where(self, mem: Memory) -> tuple[Path, str]:
        """(the index's state dir, the project's owner key): no settings read, no search import."""
        if self._where is None:
            from memsearch_tui.engine.search.owner_wire import owner_key
            from memsearch_tui.engine.search.settings import state_dir_for

            self._where = (state_dir_for(mem.root), owner_key(mem.project))
        return self._where

    def ask_owner(self, mem: Memory, args: dict[str, Any]) -> SearchRun | None:
        """The owner's answer to this search, or None: search in-process (this face owns the
        index, just became its owner, or no owner answered usably)."""
        self.served_by = None
        if self.owner is not None or (self.share and self._become(mem)):
            return None
        from memsearch_tui.engine.search import owner_wire as wire

        state_dir, key = self.where(mem)
        now = time.monotonic()
        stale = self._asked_at is None or now - self._asked_at > self.staleness()
        got = wire.ask_search(state_dir, key, mem.root, mem.project, args, self.dirty or stale)
        if got is None:
            return None
        self.dirty, self._asked_at = False, now
        run, self.served_by = got
        return run

    def _become(self, mem: Memory) -> bool:
        """Own the project's index when no live face does (a dead owner's socket replaced)."""
        from memsearch_tui.engine.search.owner import Owner

        with self._become_lock:  # two threads of one face (a search, the build at open) own it once
            if self.owner is None:
                self._mem = mem
                state_dir, key = self.where(mem)
                identity = (mem.root, mem.project)
                self.owner = Owner.become(state_dir, key, identity, self._serve_search, self._serve_upkeep)
            return self.owner is not None

    def _serve_search(self, args: dict[str, Any], invalidate: bool) -> SearchRun:
        """Another face's search, on this face's warm searcher (under its lock). If the
        searcher was closed (an idle app), it is freed again :data:`SERVED_IDLE` seconds after
        the last such search: else one CLI or MCP question kept Milvus Lite's lock for the
        app's whole life (`vectors index` / `status` in a terminal "locked")."""
        assert self._mem is not None  # set by _become before the owner serves
        building = self.while_building(self._mem, args)  # the app's build at open: keywords now
        if building is not None:
            return building
        with self.lock:
            if self.searcher is None:
                self._opened_to_serve = True
            searcher = self.open(self._mem, serving=True)
            if invalidate:
                searcher.invalidate()
            run = searcher.search(**args)
            self._served_at = time.monotonic()
            if self._opened_to_serve and self._idle_timer is None:
                self._arm_idle_timer(SERVED_IDLE)
        return run

    def _arm_idle_timer(self, delay: float) -> None:
        """One timer at a time (hold ``lock``): a burst of served searches starts no thread each."""
        self._idle_timer = threading.Timer(delay, self._free_if_idle)
        self._idle_timer.daemon = True
        self._idle_timer.start()

    def _free_if_idle(self) -> None:
        """The timer after a served search: free Milvus when no search came since, else wait
        out the rest of the idle time from the last one."""
        with self.lock:
            self._idle_timer = None
            if not self._opened_to_serve:
                return
            left = self._served_at + SERVED_IDLE - time.monotonic()
            if left > 0:
                self._arm_idle_timer(left)
                return
            self._opened_to_serve = False
            self._free()

    def _serve_upkeep(self) -> None:
        """The hook's pass: chunks, vectors and the keyword cache brought up to date here,
        where Milvus and the model already are."""
        assert self._mem is not None
        with self.lock:
            was_open = self.searcher is not None
            self.open(self._mem, serving=True).index()
            if not was_open:
                self._free()

    def _free(self) -> None:
        """After a pass on an idle face (hold ``lock``): Milvus Lite's lock is freed again, so
        `vectors index` / `status` in a terminal work and no idle gRPC channel is kept (the
        encoders stay cached: the next search reopens only Milvus)."""
        if self.searcher is not None:
            self.searcher.close()
            self.searcher = None

    def prepare(self, mem: Memory) -> None:
        """Bring the index up to date in a thread now, so the first meaning search finds its
        vectors (the app, as it opens). Another face owning the index is asked to do it."""
        if not self.built.is_set():
            return
        self._mem = mem
        if self.owner is None and self.share:
            self._become(mem)
        if self.owner is None:
            from memsearch_tui.engine.search.owner_wire import notify_upkeep

            if notify_upkeep(*self.where(mem)) is not None:
                return
        self.built.clear()
        self._chunks_ready.clear()
        self._first_vectors.clear()
        self._all_texts.clear()
        threading.Thread(target=self._build, args=(mem,), name="index-build", daemon=True).start()

    def _build(self, mem: Memory) -> None:
        try:
            if self.stopping.is_set() or more_files_than(mem, PREPARE_FILES):
                return  # a big memory is indexed when asked (`vectors index`, a search), not at every open
            with self.lock:  # held throughout: no search slips in between and builds it itself
                was_open = self.searcher is not None
                try:
                    searcher = self.open(mem)
                    searcher.refresh_chunks()
                    self._chunks_ready.set()
                    if sum(searcher.manifest.count_pending()) <= PREPARE_CHUNKS:
                        searcher.index(progress=self._embedded, first=self._wanted_next, vectors_after=True)
                finally:
                    if not was_open:
                        self._free()
        except Exception:  # the next search meets the same problem and reports it
            pass
        finally:
            self._chunks_ready.clear()
            with self._side_lock:
                if self._side is not None:
                    self._side.close()
                    self._side = None
            self._first_vectors.set()
            self._all_texts.set()
            self.built.set()
            with self._want_lock:  # after ``built``: a question asking later finds it set
                self._want.clear()
                self._wanted_in.set()

    def _embedded(self, done: int, total: int) -> None:
        """The build's progress: its first texts are embedded and committed (``done`` > 0),
        its last ones (``done`` = ``total``): every chunk's final vector can be composed now,
        before the vector store is filled (:meth:`while_building` says whether it was)."""
        if done:
            self._first_vectors.set()
        if done and done >= total:
            self._all_texts.set()

    def _wanted_next(self, embedded: Collection[str]) -> Collection[str]:
        """The build's question after each batch (``embedded``: its keys, committed): the
        own-text keys to embed next, those a meaning question asked for (:meth:`_want_for`)."""
        with self._want_lock:
            self._want.difference_update(embedded)
            if not self._want:
                self._wanted_in.set()
            return set(self._want)

    def _want_for(self, side: ProvisionalSearcher, args: dict[str, Any]) -> None:
        """Ask the build to embed next the texts this meaning question needs: the
        :data:`WANT_DEPTH` chunks its keyword leg ranks highest and their neighbours (each
        chunk's vector mixes its neighbours' in), so its answer once they are in is the one
        the finished index gives for those chunks (issue 36 item 6)."""
        rows = side.keyword_ranking(args["query"], WANT_DEPTH, args.get("category"), args.get("source") or "all")
        ids = [row.id for row, _ in rows]
        if not ids:
            return
        db = side.manifest.db
        keys: set[str] = set()
        for own, ctx in db.execute(
            f"SELECT own_key, ctx_keys FROM chunks WHERE id IN ({','.join('?' * len(ids))})", ids
        ):
            keys.add(own)
            keys.update(ctx.split())
        keys.difference_update(side.manifest.text_vectors(keys))
        with self._want_lock:
            if keys and not self.built.is_set():
                self._want |= keys
                self._wanted_in.clear()

    def wait_first_vectors(self, timeout: float = 300.0) -> bool:
        """Until the background build has committed its first vectors and the texts the
        last meaning question asked for (:meth:`_want_for`), or ended; False when
        ``timeout`` passed first."""
        end = time.monotonic() + timeout
        return self._first_vectors.wait(timeout) and self._wanted_in.wait(max(0.0, end - time.monotonic()))

    def wait_all_texts(self, timeout: float = 300.0) -> bool:
        """Until the background build has embedded its last text, or ended: a meaning search
        then gets the final answer (:meth:`while_building`), while the build still opens and
        fills the vector store; False when ``timeout`` passed first."""
        return self._all_texts.wait(timeout)

    def wait_built(self, timeout: float = 300.0) -> bool:
        """Until a background build (:meth:`prepare`) ends; False when ``timeout`` passed first."""
        return self.built.wait(timeout)

    def while_building(self, mem: Memory, args: dict[str, Any]) -> SearchRun | None:
        """An answer at once while the build embeds (it holds the searcher's lock and the
        index lock for that time): a question that wants meaning is ranked by meaning over
        the chunks embedded so far (:mod:`..search.provisional`, saying how many), else by
        keywords, with :data:`MEANING_COMING` either way; None when no build holds the
        searcher (search as usual)."""
        if args["strategy"] == "grep" or self.built.is_set():
            return None
        while not self._chunks_ready.wait(0.05):  # the chunk step: a moment
            if self.built.is_set():
                return None
        if self.lock.acquire(blocking=False):  # free: the build is not embedding now
            self.lock.release()
            return None
        from memsearch_tui.engine.search.provisional import PARTIAL_NOTE, ProvisionalSearcher

        wanted = args["strategy"]
        with self._side_lock:
            if self._side is None:
                self._side = ProvisionalSearcher(mem.root, mem.project)
            self._side.trust_chunks()
            if wanted in _MEANING:
                self._want_for(self._side, args)
            if wanted in _MEANING and self._side.by_meaning():  # over the vectors embedded so far
                run, final = self._side.search_final(**args)
                if final:  # every chunk under the vector the build is storing: the answer after it
                    return run
                got, total = self._side.coverage()
                said = (
                    [PARTIAL_NOTE.format(got=got, total=total)]
                    if {"vector", "hybrid"} & set(run.strategy.split("+"))
                    else []
                )
                return run._replace(notes=[*run.notes, *said, MEANING_COMING])
            run = self._side.search(**{**args, "strategy": "index" if wanted in _MEANING else wanted})
        if wanted not in _MEANING:
            return run
        # the side search ran as ``index``: its reason ("--strategy index") is not what was asked
        return run._replace(requested=wanted, reason=BUILDING_REASON, notes=[*run.notes, MEANING_COMING])

    def stop_building(self) -> bool:
        """The face is ending (the app quits): a vector build under way here (the build at
        open, ``v``, a meaning search's, an upkeep served to the hook) stops at its next
        batch, everything embedded so far committed, and frees the lock a release waits
        for; so does any later one (:mod:`..search.stopping`). Returns at once: whether a
        vector build was under way (a release then waits for it to stop)."""
        self.stopping.set()
        searcher = self.searcher
        return searcher is not None and searcher.building

    def stop_owning(self) -> None:
        if self.owner is not None:
            self.owner.close()
            self.owner = None


def more_files_than(mem: Memory, limit: int) -> bool:
    """Does a search cover more than ``limit`` files? The walk stops at the one past
    ``limit``: at 100k entries the searcher's full listing (each file's stat kept for its
    freshness check) took ~100 MB at the app's open only to learn the memory was big."""
    from itertools import islice

    from memsearch_tui.engine.search.sources import iter_files

    return sum(1 for _ in islice(iter_files(mem.root, mem.project), limit + 1)) > limit
