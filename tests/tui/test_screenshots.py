"""The README's pictures in ``screenshots/`` are the 120×36 snapshots of
``test_snapshots.py`` (one per pane, the first-run screen and help), byte for byte.

``scripts/screenshots.py`` refreshes the snapshots and copies them; this fails when the two
differ (a visual change without new screenshots).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import SCREENSHOT_SIZE

REPO = Path(__file__).resolve().parents[2]
SNAPSHOTS = Path(__file__).parent / "__snapshots__" / "test_snapshots"
NAMES = ["0-overview", "1-index", "2-journal", "3-versions", "4-trash", "5-maintenance", "6-search", "7-notes", "help"]


def snapshot_of(name: str) -> Path:
    """The snapshot SVG that ``screenshots/<name>.svg`` copies."""
    if name == "first-run":
        return SNAPSHOTS / f"test_first_run[{SCREENSHOT_SIZE}].svg"
    return SNAPSHOTS / f"test_pane[{name}-{SCREENSHOT_SIZE}].svg"


@pytest.mark.parametrize("name", [*NAMES, "first-run"])
def test_screenshots_are_current(name):
    """screenshots/<name>.svg is byte-for-byte the snapshot (run scripts/screenshots.py)."""
    shot = REPO / "screenshots" / f"{name}.svg"
    assert shot.is_file(), f"{shot} missing: run python scripts/screenshots.py"
    assert shot.read_bytes() == snapshot_of(name).read_bytes(), f"{shot} is stale: run python scripts/screenshots.py"
