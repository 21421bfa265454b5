"""TUI fixtures: the demo memory seeded once per xdist worker, copied per test.

Every test gets the demo's fixed clock, and the per-user config dir and HOME in its own
folder; the snapshots seed the demo in a fixed HOME (``home_demo.snap_home``).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from memsearch_tui.demo import DEMO_NOW, seed


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
def _demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
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
    return base / "demo"


def _copy_demo(template: Path, dest: Path) -> tuple[Path, Path]:
    """A copy of the seeded demo that is what seeding at ``dest`` gives (checked file by file
    against a fresh seed when this was written; only timestamps and transaction ids differ):

    - the absolute paths in its files (the op log, the maintenance state, the journal's
      transcript links) point into the copy, each file keeping its mtime;
    - the proposals' input digest (over the journal files, which hold those paths) is the
      copy's journals' digest, as the seeding would have computed it;
    - the stat marks of 'the file I last saw' (the catalog's and the link scan's mtime, size,
      ctime; an INDEX.md's inode) are carried over where they held for the template, so the
      store starts as warm as a fresh seed instead of re-reading everything."""
    from memsearch_tui.engine.memsearch.state import input_digest
    from memsearch_tui.engine.store.walk import walk_entry_paths

    shutil.copytree(template, dest, symlinks=True)
    swaps = [(os.fsencode(template), os.fsencode(dest))]
    for path in dest.rglob("*"):
        if path.is_file() and not path.is_symlink():
            _swap_bytes(path, swaps)
    journals = Path(".memsearch", "memory")
    swaps = [
        (input_digest(template / "project" / journals).encode(), input_digest(dest / "project" / journals).encode())
    ]
    for path in (dest / "project" / ".memsearch" / "proposals").glob("*.json"):
        _swap_bytes(path, swaps)
    before = {i: st for i, _, st in walk_entry_paths(template / "memory")}
    after = {i: st for i, _, st in walk_entry_paths(dest / "memory")}
    _carry_catalog(template / "memory", dest / "memory", before, after)
    triple = "[{0.st_mtime_ns},{0.st_size},{0.st_ctime_ns}]".format
    swaps = [(triple(before[i]).encode(), triple(after[i]).encode()) for i in before if i in after]
    _swap_bytes(dest / "memory" / ".memsearch-tui" / "lifecycle-scan.json", swaps)
    return dest / "memory", dest / "project"


def _swap_bytes(path: Path, swaps: list[tuple[bytes, bytes]]) -> None:
    if not path.is_file():
        return
    data = path.read_bytes()
    new = data
    for old, now in swaps:
        new = new.replace(old, now)
    if new != data:
        st = path.stat()
        path.write_bytes(new)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _carry_catalog(was: Path, now: Path, before: dict[str, os.stat_result], after: dict[str, os.stat_result]) -> None:
    from memsearch_tui.engine.store.catalog import fingerprint

    db = sqlite3.connect(now / ".memsearch-tui" / "catalog.sqlite3")
    try:
        with db:
            rows = db.execute("SELECT id, mtime_ns, size, ctime_ns FROM entries").fetchall()
            for entry_id, mtime, size, ctime in rows:
                b, a = before.get(entry_id), after.get(entry_id)
                if (
                    b is not None
                    and a is not None
                    and (mtime, size, ctime) == (b.st_mtime_ns, b.st_size, b.st_ctime_ns)
                ):
                    db.execute("UPDATE entries SET ctime_ns = ? WHERE id = ?", (a.st_ctime_ns, entry_id))
            for category, mark in db.execute("SELECT category, fingerprint FROM indexes").fetchall():
                rel = [*category.split("/"), "INDEX.md"] if category else ["INDEX.md"]
                try:
                    b_st, a_st = was.joinpath(*rel).stat(), now.joinpath(*rel).stat()
                except OSError:
                    continue
                if mark == fingerprint(b_st):
                    db.execute("UPDATE indexes SET fingerprint = ? WHERE category = ?", (fingerprint(a_st), category))
    finally:
        db.close()


@pytest.fixture
def demo(tmp_path: Path, _demo_template: Path) -> tuple[Path, Path]:
    """(memory_root, project) of a demo memory of this test's own, at ``tmp_path/demo``."""
    return _copy_demo(_demo_template, tmp_path / "demo")


@pytest.fixture
def drive(demo):
    """The one Pilot scaffold: ``drive(flow, **app_options)`` runs ``async flow(pilot, app)``
    against the app on this test's demo memory (size ``tests.helpers.SIZE``, fixed clock)."""
    from tests.helpers import SIZE, make_app, run_flow

    def run(flow, *, size=SIZE, **kw):
        return run_flow(make_app(demo, **kw), flow, size)

    return run
