"""A CLI write beside writers that keep the write lock busy gets its turn (issue 38).

Under four MCP agents writing one after another, a CLI ``trash`` gave up on the write lock
("try again"): the busy writer took the lock again the moment it let go, and the CLI,
polling, missed every gap. Real processes here: two writers that hold the root's write
lock and take it again at once, for as long as the test lets them, and the real CLI
``add`` (its default wait) beside them. The outcome is asserted, not how long it took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memsearch_tui.engine.store.store import Store

# A writer that is never idle: it holds the lock HOLD seconds, lets it go and takes it again
# at once, until the stop file appears (a minute at most).
BUSY = """
import sys, time
from pathlib import Path
from memsearch_tui.engine.core.locking import root_lock

root, stop, hold = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3])
print("ready", flush=True)
deadline = time.monotonic() + 60
while not stop.exists() and time.monotonic() < deadline:
    with root_lock(root, timeout=60):
        time.sleep(hold)
"""
HOLD = 0.5


def test_a_cli_write_gets_the_lock_beside_writers_that_never_pause(store: Store, tmp_path: Path) -> None:
    store.add("ops", "Deploys", "Fly.io; 部署走 Fly.io。\n")
    stop = tmp_path / "stop"
    env = {**os.environ, "PYTHONPATH": os.getcwd(), "HOME": str(tmp_path / "home")}
    busy = [
        subprocess.Popen(
            [sys.executable, "-c", BUSY, str(store.root), str(stop), str(HOLD)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for proc in busy:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        argv = [sys.executable, "-c", "import sys; from memsearch_tui.cli import main; main(sys.argv[1:])"]
        args = ["--memory-root", str(store.root), "--project", str(tmp_path), "--json", "add", "ops", "回滚 Rollback"]
        out = subprocess.run([*argv, *args, "--body", "Re-tag the previous image; 重新标记上一个镜像。"],
                             env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
        still_busy = [proc.poll() is None for proc in busy]
    finally:
        stop.write_text("")
        errors = [proc.communicate(timeout=120)[1] for proc in busy]
    assert all(still_busy), errors  # the writers were at it the whole time
    assert out.returncode == 0, out.stdout + out.stderr
    entry = json.loads(out.stdout)["data"]["entry"]
    assert entry["id"] == "ops/回滚-rollback"
    assert "重新标记上一个镜像" in (store.root / f"{entry['id']}.md").read_text(encoding="utf-8")
    assert not any(errors), errors
