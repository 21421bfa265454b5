"""The suite hands out the modules holding the most ``slow`` tests first, each module's
tests together and in their order (tests/conftest.py; CONTRIBUTING.md, "Order and time")."""

from __future__ import annotations

from dataclasses import dataclass

from tests.conftest import pytest_collection_modifyitems


@dataclass
class Item:
    """The two things the ordering reads of a pytest item (a stand-in: pytest is not under test)."""

    nodeid: str
    slow: bool = False

    def get_closest_marker(self, name: str) -> object | None:
        return name if name == "slow" and self.slow else None


def test_slow_modules_first_and_each_module_kept_whole_in_order() -> None:
    items = [
        Item("tests/a.py::one"),
        Item("tests/a.py::two", slow=True),
        Item("tests/b.py::one"),
        Item("tests/tui/c.py::one", slow=True),
        Item("tests/tui/c.py::two", slow=True),
        Item("tests/tui/c.py::three"),
        Item("tests/d.py::one"),
    ]
    pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [
        "tests/tui/c.py::one",
        "tests/tui/c.py::two",
        "tests/tui/c.py::three",
        "tests/a.py::one",
        "tests/a.py::two",
        "tests/b.py::one",
        "tests/d.py::one",
    ]


def test_the_run_writes_the_tests_bytecode_once_before_the_workers_start() -> None:
    """``scripts/test.sh`` collects the suite once in the background while the linters run
    (bytecode allowed), and waits for it before starting the workers: in a fresh clone each
    of the four workers rewrote every test module's asserts itself (~19 s of CPU in all)."""
    from pathlib import Path

    lines = (Path(__file__).parents[1] / "scripts" / "test.sh").read_text(encoding="utf-8").splitlines()
    run = [n for n, line in enumerate(lines) if "pytest -n 4" in line]
    first = [n for n, line in enumerate(lines) if "pytest --collect-only" in line]
    assert len(run) == 1 and len(first) == 1
    collect = lines[first[0]]
    assert collect.startswith("env -u PYTHONDONTWRITEBYTECODE ") and collect.endswith("&")  # written, not waited on
    linters = [n for n, line in enumerate(lines) if line.startswith(".venv/bin/mypy")]
    waits = [n for n, line in enumerate(lines) if line.startswith('wait "$precompile"')]
    assert linters and first[0] < linters[0] and waits and linters[0] < waits[0] < run[0]
    # and the package's own bytecode, where PYTHONDONTWRITEBYTECODE would have every worker
    # and every CLI subprocess compile it again
    compile_ = [n for n, line in enumerate(lines) if "compileall -q memsearch_tui" in line]
    waited = [n for n, line in enumerate(lines) if line.startswith('wait "$compiled"')]
    assert compile_ and lines[compile_[0]].endswith("&") and compile_[0] < linters[0] < waited[0] < run[0]
