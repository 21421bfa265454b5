"""Refresh screenshots/ from the app: one SVG per pane, the first-run screen and help.

    python scripts/screenshots.py

The pictures are the snapshots of ``tests/tui/test_screenshots.py`` (the demo memory in a
fixed HOME, so the header shows ``~/memory``; 120×36; the demo's fixed clock). This runs
those tests with ``--snapshot-update`` and copies each SVG to ``screenshots/<name>.svg``;
``test_screenshots_are_current`` then checks that the two stay the same.
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
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/tui/test_screenshots.py"]
    done = subprocess.run([*cmd, "-k", "not current", "--snapshot-update"], cwd=REPO, env=env)
    if done.returncode not in (0, 1):  # 1: snapshots were (re)written
        return done.returncode
    sys.path.insert(0, str(REPO))
    from tests.tui.test_screenshots import SHOTS, _snapshot_of

    out = REPO / "screenshots"
    out.mkdir(exist_ok=True)
    for name in [*SHOTS, "first-run"]:
        shutil.copyfile(_snapshot_of(name), out / f"{name}.svg")
        print(out / f"{name}.svg")
    return subprocess.run([*cmd, "-k", "current"], cwd=REPO, env=env).returncode


if __name__ == "__main__":
    raise SystemExit(main())
