"""The demo in a HOME of the test's own, so the app shows ``~/memory`` and ``~/project``.

Screenshots and the snapshots use it: paths on screen are short, readable and the same on
every machine, and no folder is shared between tests or xdist workers. Import the fixtures
into a test module to use them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memsearch_tui.demo import seed
from tests.helpers import settle, shown, until  # noqa: F401  (names tests imported from here)
from tests.tui.demo_copy import copy_demo


def seed_home(home: Path) -> tuple[Path, Path]:
    """Seed the demo at ``home`` (HOME must already point there); (memory_root, project)."""
    if home.exists():
        shutil.rmtree(home)
    root, project, notes = seed(home)
    assert not notes, notes
    path = project / ".memsearch" / ".maintenance-state.json"  # 'due' whatever the real date
    state = json.loads(path.read_text(encoding="utf-8"))
    for key in ("last_success_at", "last_checked_at"):
        state["claude-code.project_review"][key] = "2020-01-01T00:00:00Z"
    path.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return root, project


#: the demo seeded once per worker under a HOME of its own, copied per test by ``home_demo``
_TEMPLATE: list[Path] = []


@pytest.fixture
def home_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    """A private demo under a private HOME (for flows): a copy of one seeded per worker."""
    if not _TEMPLATE:
        template = tmp_path_factory.mktemp("home-template") / "home"
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("HOME", str(template))
            seed_home(template)
        _TEMPLATE.append(template)
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    return copy_demo(_TEMPLATE[0], home)


@pytest.fixture
def snap_home(home_demo: tuple[Path, Path]) -> tuple[Path, Path]:
    """The demo for snapshots: this test's own HOME, so the header reads ``~/memory`` and
    no two tests share a folder (the snapshot suite runs on every xdist worker)."""
    return home_demo


def option_texts(option_list) -> list[str]:
    return [shown(o.prompt) for o in option_list.options]
