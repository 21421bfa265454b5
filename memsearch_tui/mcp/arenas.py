"""Cap glibc's malloc arenas in the MCP server (Linux/glibc only; a no-op elsewhere).

The server runs every tool call in a worker thread. glibc gives each new thread its own
malloc arena (up to 8 per core), and each arena keeps the memory its thread freed, so a
long-running server's RSS creeps in native memory while its Python objects stay flat
(issue 38 item 4, ``benchmarks/README.md``). ``mallopt(M_ARENA_MAX, 2)`` before any
worker thread exists makes all threads share two arenas. It is what
``MALLOC_ARENA_MAX=2`` does, set in-process so no launcher has to; a value the user set
in that variable is kept.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

M_ARENA_MAX = -8  # glibc's malloc.h
ARENAS = 2


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Cap the arenas; True when glibc accepted it (False off Linux/glibc or if the user chose)."""
    if not sys.platform.startswith("linux") or os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl or another libc: nothing to cap
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, arenas))
