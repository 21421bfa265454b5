"""TUI fixtures: the demo memory seeded once per xdist worker, copied per test.

Every test gets the demo's fixed clock, and the per-user config dir and HOME in its own
folder; the snapshots seed the demo in a fixed HOME (``home_demo.snap_home``).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from memsearch_tui.demo import DEMO_NOW, seed
from tests.tui.demo_copy import blobs_intact, copy_demo


def _seed_at(base: Path) -> tuple[Path, Path]:
    if base.exists():
        shutil.rmtree(base)
    root, project, notes = seed(base)
    assert not notes, notes  # every engine part the demo uses is present
    _stable_state(project)
    return root, project


def _stable_state(project: Path) -> None:
    """Success long ago: 'due' whatever the real date (the due check uses the wall clock)."""
    path = project / ".memsearch" / ".maintenance-state.json"
    state = json.loads(path.read_text(encoding="utf-8"))
    state["claude-code.project_review"]["last_success_at"] = "2020-01-01T00:00:00Z"
    state["claude-code.project_review"]["last_checked_at"] = "2020-01-01T00:00:00Z"
    path.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n", encoding="utf-8")


@pytest.fixture(autouse=True)
def _no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Durability is the store's tests' business; here fsync only makes seeding slow."""
    monkeypatch.setattr("os.fsync", lambda fd: None)


@pytest.fixture(autouse=True)
def _css_parsed_once(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's CSS parsed once per worker (``tests/tui/css_once.py``), but in a test about
    parsing itself (``@pytest.mark.css_afresh``)."""
    from tests.tui.css_once import parse_once

    if request.node.get_closest_marker("css_afresh") is None:
        parse_once(monkeypatch)


@pytest.fixture(autouse=True)
def _toasts_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every toast raised is kept for ``tests.helpers.told``: one shown expires after 5 s."""
    from tests.helpers import record_toasts

    record_toasts(monkeypatch)


@pytest.fixture(autouse=True)
def _tui_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", DEMO_NOW)
    monkeypatch.setenv("MEMSEARCH_TUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("EDITOR", "true")
    monkeypatch.delenv("MEMSEARCH_DIR", raising=False)
    monkeypatch.setenv("PATH", _path_without_agent_clis())


def _path_without_agent_clis() -> str:
    """PATH without the folders holding an agent's CLI (``claude``, ``codex``…): whether the
    native provider can run shows in the Maintenance pane, so snapshots must not depend on
    what this machine has installed."""
    from memsearch_tui.engine.maintenance.provider_check import NATIVE_EXE

    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(d for d in folders if not any((Path(d) / exe).exists() for exe in NATIVE_EXE.values()))


@pytest.fixture(scope="session")
def _demo_template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The demo seeded once per worker, in the same settings ``_tui_env`` gives a test:
    seeding takes ~1.2 s, a copy ~0.1 s, and about 120 tests start from the demo."""
    base = tmp_path_factory.mktemp("demo-template")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMSEARCH_TUI_NOW", DEMO_NOW)
        mp.setenv("MEMSEARCH_TUI_CONFIG_DIR", str(base / "config"))
        mp.setenv("MEMSEARCH_TUI_DATA_DIR", str(base / "data"))
        mp.setenv("HOME", str(base / "home"))
        mp.delenv("MEMSEARCH_DIR", raising=False)
        mp.delenv("MEMSEARCH_TUI_MEMORY_ROOT", raising=False)
        mp.setenv("PATH", _path_without_agent_clis())
        mp.setattr("os.fsync", lambda fd: None)
        _seed_at(base / "demo")
    outside = sorted(p.name for p in base.iterdir() if p.name != "demo")
    assert not outside, f"seeding wrote outside the demo folder, which a copy would miss: {outside}"
    yield base / "demo"
    damaged = blobs_intact(base / "demo")
    assert not damaged, f"a test wrote into a blob every demo copy links (tests/tui/demo_copy.py): {damaged[:3]}"


@pytest.fixture
def demo(tmp_path: Path, _demo_template: Path) -> tuple[Path, Path]:
    """(memory_root, project) of a demo memory of this test's own, at ``tmp_path/demo``."""
    return copy_demo(_demo_template, tmp_path / "demo")


@pytest.fixture
def drive(demo):
    """The one Pilot scaffold: ``drive(flow, **app_options)`` runs ``async flow(pilot, app)``
    against the app on this test's demo memory (size ``tests.helpers.SIZE``, fixed clock)."""
    from tests.helpers import SIZE, make_app, run_flow

    def run(flow, *, size=SIZE, **kw):
        return run_flow(make_app(demo, **kw), flow, size)

    return run


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "css_afresh: every stylesheet parses its CSS itself (tests/tui/css_once.py off)")
