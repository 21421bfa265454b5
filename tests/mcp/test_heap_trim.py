"""The MCP server gives the heap it freed back to the system (issue 38: RSS flat at a constant store)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from memsearch_tui.mcp import heap_trim

# Fragment a worker thread's arena the way a stream of searches does: many mid-sized
# buffers (malloc, not pymalloc; under the mmap threshold), all freed but every 64th, then
# report RSS before and after one trim. In a child process: the test runner's own heap is
# no measure.
PROBE = """
import sys, threading
from memsearch_tui.mcp import heap_trim

def rss():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1])

def churn():
    blocks = [bytearray(16_000 + i % 7) for i in range(12_000)]  # ~190 MB
    churn.kept = blocks[::64]
    del blocks

t = threading.Thread(target=churn); t.start(); t.join()
before = rss()
assert heap_trim.trimmer()() in (0, 1)
print(before, rss())
"""


@pytest.mark.skipif(heap_trim.trimmer() is None, reason="no glibc malloc_trim on this system")
def test_a_trim_returns_the_freed_heap_to_the_system():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    before, after = map(int, out.stdout.split())
    assert after < before / 2, (before, after)  # pages, not a timing


def test_the_trim_thread_trims_again_and_again(monkeypatch: pytest.MonkeyPatch):
    import threading

    trims = threading.Semaphore(0)
    monkeypatch.setattr(heap_trim, "trimmer", lambda: lambda: trims.release() or 1)  # counts, frees nothing
    thread = heap_trim.start(every=0.01)
    assert thread is not None and thread.daemon and thread.name == "memsearch-trim"
    assert all(trims.acquire(timeout=60) for _ in range(3))
