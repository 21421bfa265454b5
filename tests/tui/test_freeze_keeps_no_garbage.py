"""``start_gc.freeze_imports`` froze what existed as ``MemsearchApp.__init__`` ran,
and the app object exists by then: frozen with the imports, the first app of a process is
never collected once dropped, nor anything it holds (screens, panes, the engine's SQLite
connections): the collector skips it, and a frozen object keeps its cycle alive."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

# a fresh process: its first app built, run and closed, then dropped
FIRST_APP_DROPPED = """
import asyncio, gc, sys, weakref
from pathlib import Path
from memsearch_tui.tui.app import MemsearchApp

async def main():
    app = MemsearchApp(Path(sys.argv[1]), Path(sys.argv[2]), watch_files=False, remember_theme=False,
                       prepare_index=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
    return weakref.ref(app)

ref = asyncio.run(main())
gc.collect()
print("freed" if ref() is None else "kept")
"""


def test_the_first_app_of_a_process_is_collected_once_dropped(demo) -> None:
    root, project = demo
    out = subprocess.run(
        [sys.executable, "-c", FIRST_APP_DROPPED, str(root), str(project)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "freed"  # s18-integ: kept (frozen with the imports)
