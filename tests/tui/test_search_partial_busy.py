"""Pilot: the first part of an as-you-type search ("first N hits … still searching…")
does not end the pane's busy signs; the full list does (polish, session 17).

Both went through one handler, so the loading overlay of a search asked with Enter ended
as soon as the typed search that took its place drew its first part. The memory is
counted as big (``PARTIAL_FILES`` 0) and SQLite looks at the watch at every step; the
Enter search waits on the warm searcher's lock, held here (no timing)."""

from __future__ import annotations

from memsearch_tui.engine.search import grep_query
from tests.helpers import settle, until


def test_the_first_part_keeps_the_busy_sign_until_the_full_list(drive, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(grep_query, "STEPS", 1)
    monkeypatch.setattr("memsearch_tui.engine.api.search.PARTIAL_AFTER", 0.0)
    monkeypatch.setattr("memsearch_tui.engine.search.grep.PARTIAL_FILES", 0)  # this memory counts as big
    seen: list[tuple[bool, bool]] = []  # (a first part, the hits still loading after it)

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("6")
        await settle(pilot, app)
        pane = app.query_one("#pane-search")
        hits = app.query_one("#search-hits")
        real = pane._searched

        def searched(asked, result=None, *a, **kw):  # type: ignore[no-untyped-def]
            real(asked, result, *a, **kw)
            first = result is not None and any("still searching" in n for n in result.notes)
            seen.append((first, hits.loading))

        monkeypatch.setattr(pane, "_searched", searched)
        lock = app.ctx.mem.search.warm.lock
        lock.acquire()
        try:
            await pilot.press(*"Postgre")
            await settle(pilot, app)
            seen.clear()
            await pilot.press("enter")  # by meaning: waits on the lock, the hits loading
            await until(pilot, lambda: hits.loading, "the Enter search's busy sign")
            await pilot.press("s")  # typed on: the literal search takes its place
            await until(pilot, lambda: any(not first for first, _ in seen), "the typed search's full list")
        finally:
            lock.release()
        await settle(pilot, app)
        assert not hits.loading

    drive(flow)
    assert (True, True) in seen, seen  # a first part was drawn, the busy sign still on
    assert (True, False) not in seen, seen
    assert seen[-1] == (False, False), seen
