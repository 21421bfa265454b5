"""The demo seeded in a fixed HOME, so the app shows ``~/memory`` and ``~/project``.

Screenshots and the tui2 snapshots use it: paths on screen are short, readable and the
same on every machine. Import the fixtures into a test module to use them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memsearch_tui.demo import seed
from tests.tui.demo_copy import copy_demo

HOME_BASE = Path("/tmp/memsearch-tui-home")


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


#: per fixed HOME, a copy of the demo seeded there (this worker's, for ``seed_home_again``);
#: under None, the demo seeded once for ``home_demo``
_SEEDED: dict[Path | None, Path] = {}


def seed_home_again(home: Path, spare: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``seed_home(home)``, from a copy kept of this worker's first seeding there: the 30
    snapshots reseed the same HOME, and a copy back is what seeding gives (tests/tui/demo_copy.py)."""
    if home not in _SEEDED:
        seed_home(home)
        _SEEDED[home] = spare.mktemp("seeded-home") / "demo"
        copy_demo(home, _SEEDED[home])
    if home.exists():
        shutil.rmtree(home)
    return copy_demo(_SEEDED[home], home)


@pytest.fixture
def home_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    """A private demo under a private HOME (for flows): a copy of one seeded per worker."""
    if None not in _SEEDED:
        template = tmp_path_factory.mktemp("home-template") / "home"
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("HOME", str(template))
            seed_home(template)
        _SEEDED[None] = template
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    return copy_demo(_SEEDED[None], home)


@pytest.fixture
def snap_home(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory):
    """The demo at the fixed ``HOME_BASE`` (for snapshots), one test run at a time."""
    from filelock import FileLock

    monkeypatch.setenv("HOME", str(HOME_BASE))
    with FileLock(str(HOME_BASE) + ".lock", timeout=300):
        yield seed_home_again(HOME_BASE, tmp_path_factory)


async def settle(pilot) -> None:
    """Wait until no worker runs (file watching aside) and the screen has caught up."""
    for _ in range(1500):  # a cap for a busy machine, not a timing assertion
        await pilot.pause(0.02)
        if not [w for w in pilot.app.workers if w.is_running and w.group != "watch"]:
            break
    await pilot.pause(0.05)


async def until(pilot, check, what: str, tries: int = 1500) -> None:
    for _ in range(tries):
        if check():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"gave up waiting for {what}")


def shown(renderable) -> str:
    """A rich renderable (or a widget's content) printed to plain text."""
    import io

    from rich.console import Console

    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(getattr(renderable, "content", renderable))
    return console.export_text()


def option_texts(option_list) -> list[str]:
    return [shown(o.prompt) for o in option_list.options]
