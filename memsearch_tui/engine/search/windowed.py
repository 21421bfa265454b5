"""A search with a time window: the days a question names (or ``--since``/``--until``)
rank as a signal of their own, beside the content words.

:mod:`.timewindow` reads the window and the question's other words; here the content is
searched with those words alone (``depth`` candidates, not ``k``: the right day may not be
the best-worded one), then the hits dated in the window come first, in the content's
order (newest first for "the last time" / "最近一次"), then the others. A window the
content does not reach (no candidate dated in it: "what did I do yesterday?") puts the
window's own days and entries first, newest first; a window where nothing at all is dated
leaves the question to the plain search, as typed (a conversation from 2023 asked about
"last week" in 2026 keeps its words). ``--since``/``--until`` filter: only
dated hits in the window are kept.

A hit's dates: a journal day's from its file name (``YYYY-MM-DD.md``); a store entry's
``created`` and ``updated`` from its frontmatter (a hit in the window when either is);
PROJECT.md and USER.md have none. Content words cannot drown the window: a better-worded
hit from another week never ranks above one dated in it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING

from memsearch_tui.engine.search import timewindow
from memsearch_tui.engine.search.hit import SearchHit
from memsearch_tui.engine.search.results import SearchRun, title_of
from memsearch_tui.engine.search.sources import SourceFile
from memsearch_tui.engine.search.timewindow import Window

if TYPE_CHECKING:
    from memsearch_tui.engine.search.explain import QueryExplain

DEPTH = 50  # content candidates looked at for the window
HEAD = 4096  # bytes of an entry read for its frontmatter dates
SCAN_MAX = 5000  # entry files whose dates a window the content does not reach may read
LATEST_SHARE = 0.5  # "the last time": hits scoring at least this share of the best are dated first
SNIPPET = 160

_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})[^/\\]*\.md$")
_STAMP = re.compile(r"^(?:created|updated):\s*['\"]?(\d{4})-(\d{2})-(\d{2})", re.M)
_DATES: dict[str, tuple[tuple[int, int, int], tuple[date, ...]]] = {}
DATES_MAX = 100_000
_WORDS = re.compile(r"\w")


def _day(y: str, m: str, d: str) -> date | None:
    try:
        return date(int(y), int(m), int(d))
    except ValueError:
        return None


def journal_day(path: str) -> date | None:
    """The day of a journal file from its name (``memory/2026-11-29.md``)."""
    m = _DAY.search(path)
    return _day(*m.groups()) if m else None


def entry_dates(path: str) -> tuple[date, ...]:
    """An entry's ``created`` and ``updated`` days (its first 4 KB), remembered while its
    stat stays the same; () when it has neither or cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return ()
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    known = _DATES.get(path)
    if known is not None and known[0] == stamp:
        return known[1]
    try:
        with open(path, "rb") as fh:
            head = fh.read(HEAD).decode("utf-8", "replace")
    except OSError:
        return ()
    end = head.find("\n---", 3) if head.startswith("---") else -1
    found = [_day(*m.groups()) for m in _STAMP.finditer(head, 0, end)] if end > 0 else []
    days = tuple(sorted({d for d in found if d is not None}))
    if len(_DATES) >= DATES_MAX:
        _DATES.clear()
    _DATES[path] = (stamp, days)
    return days


def dates_of(kind: str, path: str) -> tuple[date, ...]:
    """The days a hit (or file) of ``kind`` is dated by."""
    if kind == "journal":
        d = journal_day(path)
        return (d,) if d else ()
    if kind == "entry":
        return entry_dates(path)
    return ()


def window_for(
    query: str, strategy: str, since: str | None, until: str | None, today: date
) -> tuple[Window | None, str, bool]:
    """(window, the query to search the content with, whether the window filters).

    ``--since``/``--until`` filter and leave the query as it is; otherwise time words in
    a question (not in a literal ``grep``, which looks for exactly what it is given) name
    a window that ranks, and are taken out of the query. ValueError: a bad bound."""
    explicit = timewindow.explicit(since, until, today)
    if explicit is not None:
        return explicit, query, True
    if strategy == "grep":
        return None, query, False
    reading = timewindow.read(query, today)
    return reading.window, reading.rest, False


def search(
    run: Callable[[str, int], SearchRun],
    files: Callable[[], Sequence[SourceFile]],
    query: str,
    strategy: str,
    k: int,
    *,
    since: str | None = None,
    until: str | None = None,
    explain: bool = False,
) -> SearchRun | None:
    """The search with a window, or None when there is none (the caller searches as usual).

    ``run(query, depth)`` searches the content; ``files()`` lists the searched files (for
    a window the content does not reach). InvalidInput: a bad ``since``/``until``."""
    from memsearch_tui.engine.core import clock
    from memsearch_tui.engine.core.errors import InvalidInput

    today = clock.local_today()  # the day the person lives in, as journals are named
    try:
        window, rest, filtering = window_for(query, strategy, since, until, today)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    if window is None:
        return None
    if _WORDS.search(rest):
        content = run(rest, max(k, DEPTH))
    else:
        content = SearchRun(rest, "window", strategy, "the question names only a time", [], len(files()))
    res = ranked(content, window, k, filtering=filtering, files=files, explain=explain)
    if res is None:  # nothing is dated in the window: the question as typed, time words and all
        plain = run(query, k)
        return plain._replace(reason=f"{plain.reason}; time window {window.describe()}: nothing dated in it")
    return res._replace(query=query)


def ranked(
    content: SearchRun,
    window: Window,
    k: int,
    *,
    filtering: bool,
    files: Callable[[], Sequence[SourceFile]],
    explain: bool = False,
) -> SearchRun | None:
    """``content``'s hits re-ranked by ``window`` (see the module docstring), cut to ``k``;
    ``reason`` says the window and how many hits it holds, ``explain`` marks each hit.
    None when it ranks (does not filter) and nothing, hit or file, is dated in it, or
    every candidate is (it would only have taken the time words out of the question)."""
    dated = [(h, dates_of(h.kind, h.path)) for h in content.hits]
    inside = [(h, max(ds)) for h, ds in dated if any(window.covers(d) for d in ds)]
    outside = [h for h, ds in dated if not any(window.covers(d) for d in ds)]
    if window.latest and inside:
        best = max(h.score for h, _ in inside)
        near = [(h, d) for h, d in inside if h.score >= LATEST_SHARE * best]
        inside = sorted(near, key=lambda x: x[1], reverse=True) + [x for x in inside if x not in near]
    days = {h.path: d for h, d in inside}
    hits = [h for h, _ in inside]
    shown = {h.path for h in hits}
    filled = 0
    if not hits and not filtering:
        extra = _window_files(files(), window, k, shown)
        hits, filled = [h for h, _ in extra], len(extra)
        days.update((h.path, d) for h, d in extra)
    n_inside = len(hits)
    if not filtering and (not n_inside or (not filled and not outside and not window.latest)):
        return None  # nothing dated in it, or every candidate: the window tells them apart not at all
    if not filtering:
        hits += outside
    hits = hits[:k]
    if explain:
        hits = [_marked(h, i, days.get(h.path) if i <= n_inside else None, window) for i, h in enumerate(hits, 1)]
    why = f"time window {window.describe()}: {min(n_inside, k)} of {len(hits)} hits in it"
    if filled:
        why += " (the content found none there: the window's own days and entries, newest first)"
    return content._replace(hits=hits, reason=f"{content.reason}; {why}", explain=_query_explain(content, window))


def _query_explain(content: SearchRun, window: Window) -> QueryExplain | None:
    if content.explain is None:
        return None
    from dataclasses import replace

    return replace(content.explain, window=window.describe())


def _marked(h: SearchHit, rank: int, day: date | None, window: Window) -> SearchHit:
    """``h`` with its explain record saying whether the window put it where it is."""
    from dataclasses import replace

    from memsearch_tui.engine.search.explain import HitExplain

    note = f"in the time window ({day.isoformat()})" if day else "outside the time window"
    e = h.explain or HitExplain("window", rank, h.score)
    return replace(h, explain=replace(e, rank=rank, boost="; ".join(x for x in (e.boost, note) if x)))


def _window_files(files: Sequence[SourceFile], window: Window, k: int, shown: set[str]) -> list[tuple[SearchHit, date]]:
    """The window's own journal days and entries, newest first (at most ``k``)."""
    found: list[tuple[date, SourceFile]] = []
    entries = 0
    for f in files:
        if f.file in shown or f.kind not in ("journal", "entry"):
            continue
        if f.kind == "entry":
            entries += 1
            if entries > SCAN_MAX:
                continue
        days = [d for d in dates_of(f.kind, f.file) if window.covers(d)]
        if days:
            found.append((max(days), f))
    found.sort(key=lambda x: (x[0], x[1].file), reverse=True)
    return [(h, d) for d, f in found[:k] if (h := _file_hit(f)) is not None]


def _file_hit(f: SourceFile) -> SearchHit | None:
    """A whole file as a hit: its first lines, and the first line of text as the snippet."""
    try:
        with open(f.file, "rb") as fh:
            head = fh.read(HEAD).decode("utf-8", "replace")
    except OSError:
        return None
    lines = head.splitlines()
    body = lines
    if head.startswith("---"):
        end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == "---"), 0)
        body = lines[end + 1 :]
    snippet = next((ln.strip() for ln in body if ln.strip() and not ln.startswith("#")), "")[:SNIPPET]
    return SearchHit(
        id=f.entry_id or f.file,
        path=f.file,
        source="store" if f.kind == "entry" else "journal",
        kind=f.kind,
        heading="",
        lines=(1, max(len(lines), 1)),
        score=0.0,
        snippet=snippet,
        title=title_of(f.kind, f.file, head),
    )
