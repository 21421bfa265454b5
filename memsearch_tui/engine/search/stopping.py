"""A vector build asked to stop (the app exiting): what it committed stays, the rest waits.

Quitting the app during a build waited for the whole build (minutes on a big memory): the
Search pane's exit closed the warm searcher, whose lock the build held to its end. A face
that is ending now sets its stop flag (:meth:`..api.search.Search.stop_building`), and
:func:`.indexer.sync_vectors` asks it between two batches (each text batch through the
model, each batch of rows written) and raises :class:`BuildStopped`. Every batch is
committed as a whole (own-text vectors; rows inserted, then marked embedded), so the next
index run finds the rest still pending and embeds only that: a row written but not yet
marked is written again with a delete first (no chunk twice). A module of its own, so the
faces' import of :mod:`..api.search` loads no indexer.

Inside one encode call, the bulk encoders ask too (:func:`check`, between two token blocks
and two layers of a forward pass, or two parts of E5's): a quit waited for the batch in
flight (up to 256 texts, 8-15 s at 10,000 journal days), and smaller calls, to ask between
them, cost 10-16 % of every index's throughput. The call then raises and returns nothing:
the indexer keeps what earlier calls embedded, and that batch's texts stay pending.
"""

from __future__ import annotations

from collections.abc import Callable

from memsearch_tui.engine.core.errors import MemsearchError

STOPPED = "the vector build stopped (the app is closing); the next index run resumes it"


class BuildStopped(MemsearchError):
    """The build stopped between two batches at its face's request; nothing is half-written."""

    code = "stopped"

    def __init__(self, message: str = STOPPED) -> None:
        super().__init__(message)


def check(stop: Callable[[], bool] | None) -> None:
    """Raise :class:`BuildStopped` once ``stop()`` is true (None: never): one call of a
    flag's ``is_set``, cheap enough for every layer of a forward pass."""
    if stop is not None and stop():
        raise BuildStopped
