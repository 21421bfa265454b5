"""The MCP server caps glibc's malloc arenas, so its worker threads share their freed memory.

Each check runs in a fresh interpreter (the cap is process-wide and cannot be undone): eight
threads allocate at the same time, then glibc's own ``malloc_stats`` counts the arenas.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc arenas are Linux-only")

SCRIPT = textwrap.dedent(
    """
    import ctypes, sys, threading
    if sys.argv[1] == "capped":
        from memsearch_tui.mcp import arenas
        assert arenas.limit_arenas(), "glibc refused the cap"
    barrier = threading.Barrier(8)
    held = []
    def work():
        held.append([bytes(4096) for _ in range(64)])  # 4 KB: malloc, not pymalloc
        barrier.wait()
    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    ctypes.CDLL("libc.so.6").malloc_stats()
    """
)


def arenas_used(mode: str) -> int:
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}  # no MALLOC_ARENA_MAX from outside
    out = subprocess.run([sys.executable, "-c", SCRIPT, mode], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    return sum(line.startswith("Arena ") for line in out.stderr.splitlines())


def test_the_server_caps_malloc_arenas_shared_by_its_worker_threads() -> None:
    assert arenas_used("free") > 2  # the control: glibc gives busy threads arenas of their own
    assert arenas_used("capped") <= 2


def test_the_server_sets_the_cap_before_serving() -> None:
    import inspect

    from memsearch_tui.mcp import server

    first = inspect.getsource(server.serve).split('"""')[2].strip().splitlines()[0]
    assert first.startswith("arenas.limit_arenas()")
