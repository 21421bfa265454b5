"""Refresh screenshots/ from the app: one SVG per pane, the first-run screen and help.

    python scripts/screenshots.py

The pictures are the 120×36 snapshots of ``tests/tui/test_snapshots.py`` (the demo memory in
the test's own HOME, so the header shows ``~/memory``; the demo's fixed clock). This runs the
snapshot suite with ``--snapshot-update`` (every size: one suite, kept current together) and
copies each 120×36 SVG to ``screenshots/<name>.svg``; ``tests/tui/test_screenshots.py`` then
checks that the two stay the same.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    done = subprocess.run([*pytest, "tests/tui/test_snapshots.py", "--snapshot-update"], cwd=REPO, env=env)
    if done.returncode not in (0, 1):  # 1: snapshots were (re)written
        return done.returncode
    sys.path.insert(0, str(REPO))
    from tests.tui.test_screenshots import NAMES, snapshot_of

    out = REPO / "screenshots"
    out.mkdir(exist_ok=True)
    for name in [*NAMES, "first-run"]:
        shutil.copyfile(snapshot_of(name), out / f"{name}.svg")
        print(out / f"{name}.svg")
    return subprocess.run([*pytest, "tests/tui/test_screenshots.py"], cwd=REPO, env=env).returncode


if __name__ == "__main__":
    raise SystemExit(main())
