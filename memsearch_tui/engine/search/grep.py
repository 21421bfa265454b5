"""The ``grep`` strategy: a literal, case-insensitive match against the files themselves.

No model and no ranking beyond "most occurrences first": exact and always up to date. The
text is matched lower-cased, so Chinese substrings match anywhere. A phrase that occurs
nowhere falls back to files containing every word of it.

:func:`grep_search` asks the :mod:`.grep_index` cache (brought up to date first), which is
faster than ``grep -ri``; :func:`grep` scans the files themselves and is what runs where
that cache cannot be kept (a memory root that does not exist or cannot be written), and
over the journals alone when the root holds no store (no ``INDEX.md``: nothing of it is
searched, and no cache is written into someone else's folder).
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from pathlib import Path

from memsearch_tui.engine.core.contained import READ_LIMIT
from memsearch_tui.engine.core.paths import INDEX
from memsearch_tui.engine.core.safe_io import read_bounded
from memsearch_tui.engine.search import strategy as strat
from memsearch_tui.engine.search.grep_query import Superseded, Watch, current_watch
from memsearch_tui.engine.search.results import SearchRun, title_of, turn_of
from memsearch_tui.engine.search.scopes import STORE_SCOPE, project_scope

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (this path races grep)
if TYPE_CHECKING:
    from collections.abc import Callable

    from memsearch_tui.engine.search.change_scan import ChangeScan
    from memsearch_tui.engine.search.grep_index import GrepIndex
    from memsearch_tui.engine.search.grep_query import Match
    from memsearch_tui.engine.search.hit import SearchHit
    from memsearch_tui.engine.search.results import HitValues
    from memsearch_tui.engine.search.sources import SourceFile

_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
#: the note on a partial answer (:class:`.grep_query.Watch`): the best of the files seen so far
SO_FAR = "first {n} hits, from the files searched in {s:.2f} s: still searching…"
#: files below which a literal search answers in full only, no first part: its scan and update
#: take ~0.1 s, and a first part drawn just before the whole list would be a flicker
PARTIAL_FILES = 1_000
#: the note on the cache's answer drawn while the update checks the files for changes
CHECKING = "{n} hits from the search cache; checking the files for changes…"


def literal_search(
    memory_root: Path,
    project: Path | None,
    query: str,
    k: int = 10,
    category: str | None = None,
    source: str = "all",
    scan: ChangeScan | None = None,
) -> SearchRun:
    """``search --strategy grep``: checked request in, :class:`SearchRun` out.

    Needs neither the search manifest nor a model. The CLI's fast path, which cannot
    afford the hit record's ``dataclasses``, calls :func:`literal_values` instead.
    """
    from memsearch_tui.engine.search.hit import SearchHit  # the record: dataclasses, off the fast path

    query, rows, files, ms = literal_values(memory_root, project, query, k, category, source, scan)
    return SearchRun(query, "grep", "grep", "--strategy grep", [SearchHit(*v) for v in rows], files, ms)


def literal_values(
    memory_root: Path,
    project: Path | None,
    query: str,
    k: int = 10,
    category: str | None = None,
    source: str = "all",
    scan: ChangeScan | None = None,
) -> tuple[str, list[HitValues], int, float]:
    """:func:`literal_search` as (checked query, each hit's values in :class:`.hit.SearchHit`'s
    field order, files searched, milliseconds taken)."""
    t0 = time.perf_counter()
    query, category = strat.checked(query, "grep", k, source, category)
    rows, files = grep_search(memory_root, project, query, k, category, source, scan)
    return query, rows, files, (time.perf_counter() - t0) * 1000


def grep_search(
    memory_root: Path,
    project: Path | None,
    query: str,
    k: int,
    category: str | None = None,
    source: str = "all",
    scan: ChangeScan | None = None,
) -> tuple[list[HitValues], int]:
    """(hits' values, number of files searched) for a literal query over both memories.

    The query runs on the cache as it stands while the change scan walks the store; only
    if the update then changes a row does it run again.
    """
    from memsearch_tui.engine.core.sqlite_errors import busy
    from memsearch_tui.engine.search.change_scan import ChangeScan
    from memsearch_tui.engine.search.grep_index import GrepIndex

    root = Path(memory_root)
    proj = project if source != "store" else None
    scopes = ([STORE_SCOPE] if source != "journal" else []) + ([project_scope(proj)] if proj is not None else [])
    try:
        if not (root / INDEX).is_file():  # no store: its folder is neither walked nor written
            raise OSError("no memory store to keep the cache in")
        scan = scan or ChangeScan(root)
        index = GrepIndex(root)
    except (OSError, sqlite3.Error):
        return _scan_files(root, project, query, k, category, source)
    watch = current_watch()
    first = None
    try:
        seen = index.version()  # before the read: another writer's commit after it moves this
        total = index.count(scopes, source, category)
        slow = watch is not None and watch.partial is not None and total >= PARTIAL_FILES
        first = _Partial(watch, root, query, total) if slow and watch is not None else None
        told = _told(watch, first)
        found, needles = _best(index, query, k, scopes, source, category, told)
        if watch is not None:
            watch.check()  # superseded: not worth the update's look at the files
        waited = first.while_updating(found, needles) if first is not None else None
        try:
            changed = index.update(proj, scan, _lock_wait(total))
        finally:
            if waited is not None:
                waited()
        if changed or index.version() != seen:  # this update, or another writer's, changed rows since the read
            found, needles = _best(index, query, k, scopes, source, category, told)
            total = index.count(scopes, source, category)
    except sqlite3.Error as exc:
        if watch is not None and watch.stopped():
            raise Superseded() from None
        if not busy(exc):  # locked by another search or process: the cache is kept, this call scans
            index.discard()
        return _scan_files(root, project, query, k, category, source)
    finally:
        index.close()
        if first is not None:
            first.close()
    if first is not None and first.failed is not None:
        raise first.failed
    return _hits_of(root, found, needles), total


def _lock_wait(total: int) -> float:
    """Seconds to wait for another writer's lock before scanning the files instead.

    A cache that held a few files (fewer than :data:`PARTIAL_FILES`, not none) is updated in
    ~0.1 s, and scanning them costs as little: a writer holding the lock for longer is
    stalled, not building, so wait only :data:`.grep_index.FEW_FILES_BUSY_S`. An empty cache
    (another search's first build, whose size is unknown) or a large one waits the whole
    :data:`.grep_index.BUSY_S`: the other's commit is then far cheaper than a scan of the files.
    """
    from memsearch_tui.engine.search import grep_index

    if 0 < total < PARTIAL_FILES:
        return min(grep_index.FEW_FILES_BUSY_S, grep_index.BUSY_S)
    return grep_index.BUSY_S


def _hits_of(root: Path, found: list[Match], needles: list[str]) -> list[HitValues]:
    """Each match as a hit's values, at its first matching line (its file read again)."""
    real = os.path.realpath(root) + os.sep
    hits = []
    for m in found:
        text = _read(m.path)
        if text is not None:
            shown = str(root / m.path[len(real) :]) if m.path.startswith(real) else m.path  # the caller's spelling
            hits.append(_hit(m.entry_id or shown, shown, m.kind, text, needles, m.count))
    return hits


def _told(watch: Watch | None, first: _Partial | None) -> Callable[[list[str]], Watch] | None:
    """What each needle list's scan reports to: the first part's watch, or one that only
    says stop (a small memory: no first part)."""
    if first is not None:
        return first.for_needles
    if watch is None:
        return None
    stop_only = Watch(watch.stop)
    return lambda needles: stop_only


class _Partial:
    """The first part of a literal search, handed to ``watch.partial`` once, as a
    :class:`SearchRun` whose note says what it is: the best of the files scanned so far
    (:meth:`for_needles`, from the scan), or the cache's whole answer while the files are
    checked for changes (:meth:`while_updating`: 0.5-1 s at 10,000 journal days). Never
    after the full answer (:meth:`close`)."""

    def __init__(self, watch: Watch, root: Path, query: str, total: int) -> None:
        import threading

        self.watch, self.root, self.query, self.total = watch, root, query, total
        self.lock = threading.Lock()
        self.sent = self.closed = False
        self.failed: Exception | None = None  # what ``partial`` raised in the timer's thread

    def send(self, found: list[Match], needles: list[str], note: str, keep: bool = False) -> None:
        """``keep``: an error is kept in :attr:`failed` (the search raises it) rather than
        raised in this thread (a timer's: it would only be printed, and the search go on)."""
        from memsearch_tui.engine.search.hit import SearchHit  # the record: only a partial answer needs it

        with self.lock:
            if self.sent or self.closed:
                return
            self.sent = True
            try:
                hits = [SearchHit(*v) for v in _hits_of(self.root, found, needles)]
                ms = (time.monotonic() - self.watch.t0) * 1000
                said = note.format(n=len(hits), s=ms / 1000)
                run = SearchRun(self.query, "grep", "grep", "--strategy grep", hits, self.total, ms, [said])
                self.watch.partial(run)  # type: ignore[misc]
            except Exception as exc:
                if not keep:
                    raise
                self.failed = exc

    def for_needles(self, needles: list[str]) -> Watch:
        return self.watch.narrowed(lambda found: self.send(found, needles, SO_FAR))

    def while_updating(self, found: list[Match], needles: list[str]) -> Callable[[], None]:
        """Send the cache's answer if the update is still running ``after`` s in; returns
        what ends that wait."""
        import threading

        wait = self.watch.after - (time.monotonic() - self.watch.t0)
        timer = threading.Timer(max(wait, 0.0), self.send, (found, needles, CHECKING, True))
        timer.daemon = True
        timer.start()
        return timer.cancel

    def close(self) -> None:
        with self.lock:  # a partial being sent now is drawn before the full answer
            self.closed = True


def _scan_files(
    root: Path, project: Path | None, query: str, k: int, category: str | None, source: str
) -> tuple[list[HitValues], int]:
    """Where no cache can be kept: list the files and scan them."""
    from memsearch_tui.engine.search.sources import searched_files

    files = searched_files(root, project, category, source)
    return _grep_values(files, query, k), len(files)


def _best(
    index: GrepIndex,
    query: str,
    k: int,
    scopes: list[str],
    source: str,
    category: str | None,
    watch: Callable[[list[str]], Watch] | None = None,
) -> tuple[list[Match], list[str]]:
    """Matches of the phrase, or else of all its words; with the needles that matched."""
    found: list[Match] = []
    needles: list[str] = []
    for needles in _needles(query):
        found = index.matches(needles, k, scopes, source, category, None if watch is None else watch(needles))
        if found:
            break
    return found, needles


def _needles(query: str) -> list[list[str]]:
    """What to look for, in order of preference: the phrase, then all of its words."""
    q = query.strip()
    return [[q], q.split()] if len(q.split()) > 1 else [[q]]


def _read(path: str) -> str | None:
    try:  # a FIFO named *.md must not block the search
        return read_bounded(path, READ_LIMIT).decode("utf-8", "replace")
    except OSError:
        return None


def grep(files: list[SourceFile], query: str, k: int) -> list[SearchHit]:
    """Scan ``files`` themselves (no cache): the auto strategy's literal tier."""
    from memsearch_tui.engine.search.hit import SearchHit  # the record: dataclasses, off the fast path

    return [SearchHit(*v) for v in _grep_values(files, query, k)]


def _grep_values(files: list[SourceFile], query: str, k: int) -> list[HitValues]:
    """:func:`grep`'s hits as values: the fallback of :func:`grep_search`."""
    q = query.strip()
    if not q:
        return []
    needles = [q]
    found = _scan(files, needles)
    if not found and len(q.split()) > 1:
        needles = q.split()
        found = _scan(files, needles)
    found.sort(key=lambda t: (-t[0], t[1].file))
    # only the hits shown are decoded and located: at 10k files most matches are not
    return [
        _hit(f.entry_id or f.file, f.file, f.kind, data.decode("utf-8", "replace"), needles, n)
        for n, f, data in found[:k]
    ]


def _scan(files: list[SourceFile], needles: list[str]) -> list[tuple[int, SourceFile, bytes]]:
    """(occurrences of the first needle, file, bytes) of every file containing all needles."""
    if all(n.isascii() for n in needles):
        pats = [re.compile(re.escape(n.encode()), re.I) for n in needles]
        first, rest = pats[0], pats[1:]

        def count(data: bytes) -> int:
            n = len(first.findall(data))
            return n if n and all(p.search(data) for p in rest) else 0
    else:
        lowered = [n.lower() for n in needles]

        def count(data: bytes) -> int:
            text = data.decode("utf-8", "replace").lower()
            n = text.count(lowered[0])
            return n if n and all(x in text for x in lowered[1:]) else 0

    out: list[tuple[int, SourceFile, bytes]] = []
    for f in files:
        try:
            data = read_bounded(f.file, READ_LIMIT)
        except OSError:
            continue
        n = count(data)
        if n:
            out.append((n, f, data))
    return out


def _hit(hit_id: str, path: str, kind: str, text: str, needles: list[str], n: int) -> HitValues:
    """A hit at the first matching line, with the heading above it (its values, in
    :class:`.hit.SearchHit`'s field order)."""
    lines = text.split("\n")
    first = needles[0].lower()
    heading, line_no, snippet = "", 1, ""
    for i, line in enumerate(lines):
        m = _HEADING.match(line)
        if m:
            heading = line.strip()
        if first in line.lower():
            line_no, snippet = i + 1, line.strip()
            break
    from memsearch_tui.engine.search.snippet_mask import masked_line  # the secret rules load once a hit is shown

    masked = masked_line(text, line_no)
    snippet = snippet if masked is None else masked.strip()
    source = "store" if kind == "entry" else "journal"
    title, turn = title_of(kind, path, text), turn_of(kind, heading)
    return (hit_id, path, source, kind, title, heading, (line_no, line_no), _clip(snippet, first), float(n), turn, "")


def _clip(line: str, needle: str, width: int = 200) -> str:
    if len(line) <= width:
        return line
    at = max(0, line.lower().find(needle) - width // 3)
    return ("…" if at else "") + line[at : at + width] + "…"


def snippet_of(text: str, query_terms: list[str], width: int = 200) -> str:
    """The most relevant window of a chunk: around the first query term found, one line."""
    body = [ln.strip() for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith(("<!--", "#"))]
    flat = " ".join(body) or " ".join(ln.strip() for ln in text.split("\n") if ln.strip())
    low = flat.lower()
    at = -1
    for t in query_terms:
        at = low.find(t.lower())
        if at >= 0:
            break
    if len(flat) <= width:
        return flat
    start = max(0, at - width // 3) if at >= 0 else 0
    return ("…" if start else "") + flat[start : start + width] + "…"


__all__ = ["grep", "snippet_of", "Path"]
