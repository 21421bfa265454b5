"""Give the heap the server freed back to the system, now and then (glibc only).

Measured under ``benchmarks/soak.py`` at a constant store size: the server's Python objects
stay flat (``gc`` counts, ``sys.getallocatedblocks``) while its RSS crept up ~3 MB a minute;
the growth was glibc keeping freed memory in its arenas (free bytes 16 → 21 MB in four
minutes: a search's and a write's short-lived buffers, scattered between live ones, across
the worker threads' arenas). ``malloc_trim(0)`` returns every whole free page of every arena
to the system (as Dask's workers do); it runs every :data:`EVERY` seconds on a daemon
thread, taking the allocator's locks for a few milliseconds. Elsewhere (macOS, musl)
nothing happens.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
import threading
import time
from collections.abc import Callable

EVERY = 30.0  # seconds between trims


def trimmer() -> Callable[[], int] | None:
    """glibc's ``malloc_trim(0)`` (1 when memory was released), or None without glibc."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None  # musl and others: no malloc_trim
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: int(trim(0))


def start(every: float = EVERY) -> threading.Thread | None:
    """Trim every ``every`` seconds on a daemon thread (None: nothing to call here)."""
    trim = trimmer()
    if trim is None:
        return None

    def loop() -> None:
        while True:
            time.sleep(every)
            trim()

    thread = threading.Thread(target=loop, name="memsearch-trim", daemon=True)
    thread.start()
    return thread
