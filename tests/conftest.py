"""Shared fixtures: a fresh store in a temp dir, a fixed clock, and the in-process CLI runner bound to it."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

from memsearch_tui.engine.store.store import Store
from tests.helpers import CliResult, run_cli

Result = CliResult  # the name tests imported from here

# pytest rewrites the asserts of every test module it imports, and keeps the result as
# bytecode only when writing bytecode is allowed: a shell with PYTHONDONTWRITEBYTECODE=1
# (this machine's) had every process of every run rewrite them all again (collecting the
# suite: 12 s of CPU, 4 s with them kept). pytest reads what it kept whatever the flag, so
# the test modules imported from here on are written once (to ``__pycache__``, ignored by git).
sys.dont_write_bytecode = False


@pytest.fixture(autouse=True)
def _fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test sees the same 'now', so dates in files are predictable."""
    monkeypatch.setenv("MEMSEARCH_TUI_NOW", "2026-11-30T12:00:00Z")
    monkeypatch.delenv("MEMSEARCH_TUI_MEMORY_ROOT", raising=False)


@pytest.fixture(scope="session")
def _private_dirs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder per worker for every test's private data and state dirs."""
    return tmp_path_factory.mktemp("private-dirs", numbered=False)


_private_numbers = itertools.count()


@pytest.fixture(autouse=True)
def _private_data_dir(monkeypatch: pytest.MonkeyPatch, _private_dirs: Path) -> None:
    """Indexes and the query encoder's kept tokenizer go to a temp data dir unless a test
    picks its own: tests wrote them into the real user's data folder. Numbered here, not by
    ``tmp_path_factory.mktemp``: each of its calls lists the whole base temp dir (and moves a
    ``*current`` symlink), which grows by three entries a test: ~2 s of CPU per worker at
    ~600 tests, growing with the square of the count."""
    n = next(_private_numbers)
    for var, name in (
        ("MEMSEARCH_TUI_DATA_DIR", "data"),
        ("MEMSEARCH_TUI_STATE_DIR", "state"),
    ):  # state: the spend ledger
        path = _private_dirs / f"{name}-{n}"
        path.mkdir()
        monkeypatch.setenv(var, str(path))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "memory")
    s.init()
    return s


@pytest.fixture
def cli(tmp_path: Path):
    """Run ``memsearch-tui ARGS`` in-process against tmp_path/memory (``tests.helpers.run_cli``)."""

    def invoke(*args: str, root: Path | None = None) -> CliResult:
        return run_cli("--memory-root", str(root or tmp_path / "memory"), "--project", str(tmp_path), *args)

    return invoke


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under root except the private state folder, for before/after comparisons."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memsearch-tui" not in p.parts
    }


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules holding the most ``slow`` tests run first (each module's tests stay
    together and in their order): xdist hands tests out in collection order, and a
    40-second Pilot flow handed out last kept one worker busy while the other sat idle."""
    slow: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        slow[module] = slow.get(module, 0) + (item.get_closest_marker("slow") is not None)
    order = {module: n for n, module in enumerate(sorted(slow, key=lambda m: -slow[m]))}  # ties keep their order
    items.sort(key=lambda item: order[item.nodeid.split("::")[0]])


@pytest.fixture
def store_mem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """An open ``Memory`` over a fresh store in ``tmp_path/memory`` and an empty project,
    its home and data dir in ``tmp_path`` (memsearch's own ``MEMSEARCH_DIR`` unset)."""
    from memsearch_tui.engine.api import Memory

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MEMSEARCH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMSEARCH_DIR", raising=False)
    (tmp_path / "proj").mkdir()
    with Memory(tmp_path / "memory", tmp_path / "proj") as m:
        m.store.init()
        yield m
