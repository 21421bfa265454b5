"""The app's start without the cyclic collector's passes over what lives as long as the app.

By the time the app is built, its imports have made ~35,000 objects (modules, classes,
functions, Textual's and the engine's tables) that live as long as the process, and none of
them is garbage (``gc.collect()`` there finds nothing). CPython's collector still scanned
them: the start to the first frame at 100k entries ran ~95 young collections and one full
one over ~70,000 objects, ~48 ms of CPU under load against ~5 ms for a bare Textual app's
(issue 37 item 5, benchmarks/README.md, session 18).

So the app, as it is built (``MemsearchApp.__init__``):

* ``hold``: freezes what exists then (``gc.freeze``: the collector skips those objects from
  then on, in the start and in every full collection after it; the first app of a process
  only, so a process that makes many apps, the tests, freezes once), and collects young
  objects every ``START_THRESHOLD`` allocations instead of 700 until its first frame;
* ``release``: after the first frame, the thresholds the process had are back (Textual makes
  and drops many objects with each key, as before).

Nothing is kept alive by this: an object frozen is one that existed before the app, and a
cycle made during the start is collected by the first young collection after ``release``.
"""

from __future__ import annotations

import gc

START_THRESHOLD = 10_000  # allocations between young collections until the first frame

_frozen = False  # this process froze its imports already
_held: tuple[int, int, int] | None = None  # the thresholds ``hold`` replaced


def hold() -> None:
    """The app is being built: freeze what exists (once a process), collect less often."""
    global _frozen, _held
    if not _frozen:
        _frozen = True
        gc.freeze()
    if _held is None:  # a second app built before the first one's first frame keeps the first's
        _held = gc.get_threshold()
        young, middle, old = _held
        if young:  # 0: the process turned automatic collection off; it stays off
            gc.set_threshold(max(young, START_THRESHOLD), middle, old)


def release() -> None:
    """The first frame is drawn (or the app ends before it): the thresholds ``hold`` found."""
    global _held
    if _held is not None:
        gc.set_threshold(*_held)
        _held = None
