"""The evidence cache of hygiene is bounded (issue 35, item 4): the app and the MCP server
live for days and scan again and again, so a whole entry is never kept, and the sentences
kept are a bounded LRU."""

from __future__ import annotations

import gc
import sys
import tracemalloc

from memsearch_tui.engine.hygiene import checks

from .test_kinds import AWS


def test_whole_entries_are_never_kept_and_still_shown_masked() -> None:
    def text(n: int) -> str:  # ~160 KB in memory, made and dropped inside the traced region
        return f"entry {n} with key {AWS}\n" + f"部署说明第 {n} 段，" * 8_000

    one = sys.getsizeof(text(0))
    checks.shown(text(-1))  # the redactor's first call compiles and caches (~200 KB): not under test
    gc.collect()
    tracemalloc.start()  # ~7× slower allocations: six texts, not forty, and a bound below one text
    try:
        before = tracemalloc.get_traced_memory()[0]
        out = [checks.shown(text(n)) for n in range(6)]
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before - sum(len(o.encode()) + 100 for o in out)
    finally:
        tracemalloc.stop()
    assert kept < one // 2, (kept, one)  # not one of the six texts (~1 MB together) is held
    assert all(AWS not in o and len(o) <= checks.CLIP for o in out)


def test_sentences_are_kept_in_a_bounded_lru() -> None:
    info = checks._shown_cached.cache_info()
    assert info.maxsize == checks.CACHE_ENTRIES <= 10_000
    for n in range(checks.CACHE_ENTRIES + 500):
        checks.shown(f"Staging resets on Monday, note {n}")
    assert checks._shown_cached.cache_info().currsize == checks.CACHE_ENTRIES
    first = checks._shown_cached.cache_info().hits
    checks.shown(f"Staging resets on Monday, note {checks.CACHE_ENTRIES + 499}")  # the newest is still there
    assert checks._shown_cached.cache_info().hits == first + 1
