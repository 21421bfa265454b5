"""``MEMSEARCH_TUI_MCP_HEAP``: the server says which lines of code its memory grew at (issue 38)."""

from __future__ import annotations

import subprocess
import time
import tracemalloc
from pathlib import Path

from memsearch_tui.mcp import heap_watch
from tests.mcp.conftest import Env
from tests.mcp.test_http import _free_port, _stop, _wait_for


def test_the_variable_names_the_file_and_a_bounded_interval(tmp_path: Path):
    assert heap_watch.settings("") is None
    assert heap_watch.settings(f"{tmp_path}/heap.txt") == (tmp_path / "heap.txt", 60.0)
    assert heap_watch.settings(f"{tmp_path}/heap.txt,30") == (tmp_path / "heap.txt", 30.0)
    assert heap_watch.settings(f"{tmp_path}/heap.txt,0.001") == (tmp_path / "heap.txt", 5.0)
    assert heap_watch.settings(f"{tmp_path}/heap.txt,1e9") == (tmp_path / "heap.txt", 3600.0)
    assert heap_watch.settings(f"{tmp_path}/heap.txt,soon") == (tmp_path / "heap.txt", 60.0)


def test_the_report_names_the_line_that_grew_first():
    tracemalloc.start(heap_watch.FRAMES)
    try:
        base = heap_watch._snapshot()
        kept = [f"记忆 memory {i} ".encode() * 40 for i in range(5000)]  # ~2 MB, held here
        text = heap_watch.report(base, heap_watch._snapshot(), 60.0)
    finally:
        tracemalloc.stop()
    assert len(kept) == 5000
    grew_at = 1 + Path(__file__).read_text(encoding="utf-8").splitlines().index(
        '        kept = [f"记忆 memory {i} ".encode() * 40 for i in range(5000)]  # ~2 MB, held here'
    )
    lines = text.splitlines()
    assert lines[0].startswith("heap growth over 60 s since the baseline: +") and lines[1] == ""
    first = [lines[2]] + [line for line in lines[3:12] if line.startswith("      ")][:8]  # the largest, its frames
    assert "+5000 blocks" in first[0] or "+5001 blocks" in first[0], text[:2000]
    assert f"      {__file__}:{grew_at}" == first[1], text[:2000]  # the newest frame first


#: a hang guard only (each wait below ends on its condition): at load 14 the server took
#: over the 60 s ``_start`` waits to listen (its imports run traced)
SAFETY_NET = 300.0


def test_the_server_writes_its_heap_report_while_it_runs(env: Env):
    report = env.home / "heap.txt"
    port = _free_port()
    proc = subprocess.Popen(
        env.argv("mcp", "--http", str(port)),
        env={**env.environ(), heap_watch.HEAP_ENV: f"{report},5"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for(port, proc, timeout=SAFETY_NET)  # it serves while it traces
        deadline = time.monotonic() + SAFETY_NET
        while not report.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
    finally:
        err = _stop(proc)
    assert report.read_text(encoding="utf-8").startswith("heap growth over "), err
    assert "Traceback" not in err
