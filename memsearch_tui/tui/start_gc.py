"""The app's start without the cyclic collector's passes over what lives as long as the app.

Starting the app imports Textual and the engine: ~35,000 objects (modules, classes,
functions, their tables) that live as long as the process, and none of them is garbage
(``gc.collect()`` after the imports finds nothing). CPython's collector still scanned them
again and again: the start to the first frame at 100k entries ran ~160 young collections
and one full one over ~70,000 objects, ~65 ms of CPU under load (a bare Textual app's
start: ~20 ms; issue 37 item 5, benchmarks/README.md, session 18). So:

* ``hold``, as the app's package is imported (``memsearch_tui/tui/__init__.py``: only the
  app's launch imports it): young objects are collected every ``START_THRESHOLD``
  allocations instead of 700 until the first frame;
* ``freeze_imports``, once ``tui/app.py`` is imported, before any app exists: what exists
  then is frozen (``gc.freeze``): the collector skips it from then on, in the start and in
  every full collection after it. Once a process. Not in ``MemsearchApp.__init__``: the app
  object exists there already, and frozen, a process's first app (and all it holds) was
  never collected once dropped (a frozen object keeps its cycle alive);
* ``release``, after the first frame (or when an app ends before it): the thresholds the
  process had are back (Textual makes and drops many objects with each key, as before);
* ``settle``, once the idle chain has made the panes ahead: one full collection, there.
  CPython runs a full collection when the objects that survived the middle generation since
  the last one are a quarter of those the last one kept. With no full collection in the
  start, the first ones come soon after it, and the one the chain's mounts made due ran in
  whatever allocated next: the next key (issue 37 item 5: at 10,000 journal days, 2 then 3
  had a full pass over ~180,000 objects in the Versions key, 96 -> 182 ms idle; bisected to
  a8d5842). Run in the chain, the cost lands where no key waits for it, and the next full
  collection waits for a quarter as many new survivors as the chain left.

What is kept alive by this: the few cycles already garbage when the imports end (~30
objects at the launch). An object frozen is one that existed before any app was built,
and a cycle made during the start is collected by the first young collection after ``release``.
"""

from __future__ import annotations

import gc

START_THRESHOLD = 10_000  # allocations between young collections until the first frame

_frozen = False  # this process froze its imports already
_held: tuple[int, int, int] | None = None  # the thresholds ``hold`` replaced


def hold() -> None:
    """Collect young objects less often until ``release`` (a second call keeps the first's)."""
    global _held
    if _held is None:
        _held = gc.get_threshold()
        young, middle, old = _held
        if young:  # 0: the process turned automatic collection off; it stays off
            gc.set_threshold(max(young, START_THRESHOLD), middle, old)


def freeze_imports() -> None:
    """``tui/app.py`` is imported and no app exists yet: what exists now lives as long as
    the process (once a process)."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.freeze()


def release() -> None:
    """The first frame is drawn (or the app ends before it): the thresholds ``hold`` found."""
    global _held
    if _held is not None:
        gc.set_threshold(*_held)
        _held = None


def settle() -> None:
    """The idle chain made the panes ahead (UI thread, once an app): the full collection
    those mounts made due runs now, not in the next key. Not if the process turned
    automatic collection off."""
    if gc.isenabled() and thresholds()[0]:
        gc.collect()


def thresholds() -> tuple[int, int, int]:
    """The process's own thresholds, held or not (what ``release`` gives back)."""
    return _held if _held is not None else gc.get_threshold()
