"""As you type, a search whose query was typed on is stopped, not run to the end and
dropped (issue 37 item 5: at 1M chunks each literal scan took seconds, and every letter's
worker ran its own to the end, one after another).

The literal search's lock, held here, keeps the first search waiting at a known point
while more letters are typed (no timing); the literal scan is the real one, recorded.
"""

from __future__ import annotations

from memsearch_tui.engine.search.grep_query import GrepQueries
from tests.helpers import settle, until


def test_a_superseded_typed_search_is_stopped_and_never_drawn(drive, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    scans: list[tuple[tuple[str, ...], str]] = []  # (needles, "answered" | the exception's name)
    real = GrepQueries.matches

    def recorded(self, needles, *args, **kw):  # type: ignore[no-untyped-def]
        try:
            found = real(self, needles, *args, **kw)
        except Exception as exc:
            scans.append((tuple(needles), type(exc).__name__))
            raise
        scans.append((tuple(needles), "answered"))
        return found

    monkeypatch.setattr(GrepQueries, "matches", recorded)
    drawn: list[str] = []

    async def flow(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("6")
        await settle(pilot, app)
        pane = app.query_one("#pane-search")
        show = pane._show
        monkeypatch.setattr(
            pane, "_show", lambda result, *a, **kw: (drawn.append(result.query), show(result, *a, **kw))
        )
        searching = lambda: [w for w in pane.workers if w.name == "search" and w.is_running]  # noqa: E731
        warm = app.ctx.mem.search.warm
        lock = getattr(warm, "literal_lock", warm.lock)  # what the typed search waits on (5dbfd6c: the searcher's)
        lock.acquire()
        try:
            await pilot.press(*"kubectl")
            # the last letter's pause ended (its timer fired): "kubectl"'s search waits
            await until(pilot, lambda: pane._type_timer is None and searching(), "kubectl's search, waiting")
            waiting = searching()
            await pilot.press(*" rollback")
            await until(pilot, lambda: all(w.is_cancelled for w in waiting), "the searches typed on, cancelled")
        finally:
            lock.release()
        await settle(pilot, app)
        assert pane.query_one("#search-input").value == "kubectl rollback"

    drive(flow)
    assert "kubectl" not in drawn and drawn and set(drawn) == {"kubectl rollback"}
    assert (("kubectl",), "Superseded") in scans  # each query typed on was stopped, not run and dropped
    assert {n for n, how in scans if how == "answered"} <= {("kubectl rollback",), ("kubectl", "rollback")}
