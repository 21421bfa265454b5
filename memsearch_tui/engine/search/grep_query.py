"""Asking the literal-search cache which files hold every needle.

Split from :mod:`.grep_index`, which keeps the database up to date: this is the reading
side, a mixin over its connection. The trigram index narrows the files, ``instr`` decides.
Kept free of heavy imports: ``search -s grep`` imports it on the fast path.

The ranking is kept in Python as the rows come (a heap of the best ``k``), not by SQL's
``ORDER BY``: a query matching most of a big cache (``e`` over 10,000 journal days, 435 MB,
~1.4 s) can then hand the best of the rows seen so far to a :class:`Watch` while it goes
on, and stop at once when the watch says the query was superseded (docs/search.md,
"Searching as you type").
"""

from __future__ import annotations

import heapq
import sqlite3
import time
from collections import namedtuple
from contextlib import contextmanager
from contextvars import ContextVar

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the fast path)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

#: SQLite virtual-machine steps between two looks at the watch: ~100 rows, a few ms of scanning
#: (20,000 let a superseded scan of 10,000 journal days run on for 0.2-0.4 s on a loaded machine)
STEPS = 1_000


class Superseded(Exception):
    """The search was stopped by its :class:`Watch` (a newer query took its place)."""


class Watch:
    """What a long literal search reports to, and asks, while it runs.

    ``stop()`` true: give up (raises :class:`Superseded`); ``partial(matches)`` is called
    once, ``after`` seconds into the scan, with the best matches of the rows seen so far
    (the scan then goes on to the full answer). Either may be None.
    """

    def __init__(
        self,
        stop: Callable[[], bool] | None = None,
        partial: Callable[..., None] | None = None,
        after: float = 0.25,
    ) -> None:
        self.stop, self.partial, self.after = stop, partial, after
        self.t0 = time.monotonic()

    def narrowed(self, partial: Callable[[list[Match]], None]) -> Watch:
        """The same stop and clock, reporting the partial answer to ``partial`` instead."""
        inner = Watch(self.stop, partial if self.partial is not None else None, self.after)
        inner.t0 = self.t0
        return inner

    def stopped(self) -> bool:
        return self.stop is not None and self.stop()

    def check(self) -> None:
        if self.stopped():
            raise Superseded()


class Match(namedtuple("Match", "path kind entry_id count")):
    """A file containing every needle: how often the first occurs, and what the file is."""

    __slots__ = ()


_WATCH: ContextVar[Watch | None] = ContextVar("literal_search_watch", default=None)


@contextmanager
def watching(watch: Watch) -> Iterator[None]:
    """Literal searches run in this context (this thread) report to, and ask, ``watch``:
    the app's as-you-type search sets it around ``mem.search.query``, so the layers between
    (the warm searcher, the auto strategy) need not carry it."""
    token = _WATCH.set(watch)
    try:
        yield
    finally:
        _WATCH.reset(token)


def current_watch() -> Watch | None:
    return _WATCH.get()


class GrepQueries:
    """The searching half of :class:`.grep_index.GrepIndex` (its ``db`` is the cache)."""

    db: sqlite3.Connection

    def count(self, scopes: list[str], source: str, category: str | None) -> int:
        where, args = _filter(scopes, source, category)
        n: int = self.db.execute(f"SELECT count(*) FROM files f WHERE {where}", args).fetchone()[0]
        return n

    def matches(
        self,
        needles: list[str],
        k: int,
        scopes: list[str],
        source: str,
        category: str | None,
        watch: Watch | None = None,
    ) -> list[Match]:
        """Files containing every needle (case-insensitively), most occurrences first
        (then by path).

        The trigram index narrows the files first (see :meth:`_candidates`); ``instr`` on
        the text decides, so the index only has to be a superset. ``watch``: see
        :class:`Watch` (raises :class:`Superseded` when it says stop).
        """
        lowered = [n.lower() for n in needles]
        where, args = _filter(scopes, source, category)
        where += " AND instr(f.low, ?) > 0" * len(lowered)
        args += lowered
        rank = "(length(f.low) - length(replace(f.low, ?, ''))) / ? AS n"
        expr = self._candidates(max(lowered, key=len))
        if expr == "":
            return []
        if expr is None:
            rows = "files f NOT INDEXED"  # one pass over the table beats look-ups by scope
        else:
            rows = "grams CROSS JOIN files f ON f.rowid = grams.rowid"  # the index drives
            where, args = "grams MATCH ? AND " + where, [expr, *args]
        sql = f"SELECT f.path, f.kind, f.entry_id, {rank} FROM {rows} WHERE {where}"
        return _ranked(self.db, sql, [lowered[0], len(lowered[0]), *args], k, watch)

    def _candidates(self, needle: str) -> str | None:
        """An FTS5 query every row containing ``needle`` satisfies; "" if no row can; None:
        scan the table instead (a one-character needle).

        Three or more characters: all of the needle's trigrams. Two: any trigram that starts
        with them (stored texts end in a newline, so one always follows), looked up in the
        index's vocabulary.
        """
        if len(needle) >= 3:
            return " AND ".join(_quoted(g) for g in sorted({needle[i : i + 3] for i in range(len(needle) - 2)}))
        if len(needle) != 2 or "\n" in needle:
            return None
        terms = self.db.execute(
            "SELECT term FROM grams_vocab WHERE term >= ? AND term <= ?", (needle, needle + "\U0010ffff")
        ).fetchall()
        return " OR ".join(_quoted(t) for (t,) in terms)


def _ranked(db: sqlite3.Connection, sql: str, args: list[object], k: int, watch: Watch | None) -> list[Match]:
    """The best ``k`` rows of ``sql`` by (most occurrences, path), kept in a heap as they
    come: ``ORDER BY n DESC, path LIMIT k``'s answer, with the watch looked at meanwhile."""
    best: list[tuple[int, _Rev, tuple[str, str, str, int]]] = []  # the worst kept on top
    due = watch is not None and watch.partial is not None
    failed: list[BaseException] = []  # what ``partial`` raised inside SQLite's progress handler

    def look() -> int:
        nonlocal due
        if watch is None:
            return 0
        if watch.stopped():
            return 1  # SQLite stops the statement: OperationalError "interrupted"
        if due and time.monotonic() - watch.t0 >= watch.after:
            due = False
            try:
                watch.partial(_sorted(best))  # type: ignore[misc]
            except BaseException as exc:  # raised as itself below, not as a damaged cache's error
                failed.append(exc)
                return 1
        return 0

    if watch is not None:
        watch.check()
        db.set_progress_handler(look, STEPS)
    try:
        for row in db.execute(sql, args):
            item = (row[3], _Rev(row[0]), row)
            if len(best) < k:
                heapq.heappush(best, item)
            elif item > best[0]:
                heapq.heapreplace(best, item)
            look()
    except sqlite3.OperationalError:
        if failed:
            raise failed[0] from None
        if watch is not None and watch.stopped():
            raise Superseded() from None
        raise
    finally:
        if watch is not None:
            db.set_progress_handler(None, 0)
    if watch is not None:
        watch.check()
    return _sorted(best)


class _Rev(str):
    """A path that sorts backwards: in the heap of the best, the later path is the worse."""

    __slots__ = ()

    def __lt__(self, other: str) -> bool:
        return str.__gt__(self, other)

    def __gt__(self, other: str) -> bool:
        return str.__lt__(self, other)


def _sorted(best: list[tuple[int, _Rev, tuple[str, str, str, int]]]) -> list[Match]:
    return [Match(*row) for _, _, row in sorted(best, reverse=True)]


def _quoted(text: str) -> str:
    """``text`` as one FTS5 string (a trigram is one token of it)."""
    return '"' + text.replace('"', '""') + '"'


def _filter(scopes: list[str], source: str, category: str | None) -> tuple[str, list[str | int]]:
    """SQL condition on files ``f`` for scope, source and category."""
    where = f"f.scope IN ({','.join('?' * len(scopes))})"
    args: list[str | int] = list(scopes)
    if source == "journal":
        where += " AND f.kind != 'entry'"
    if category:
        where += " AND f.kind = 'entry' AND substr(f.entry_id, 1, ?) = ?"
        args += [len(category) + 1, category + "/"]
    return where, args
