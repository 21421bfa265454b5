"""The engine and CLI stay light: the hook path must not pay for UI or ML imports."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("textual", "torch", "sentence_transformers", "pymilvus")


def _loaded(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return [m for m in out.stdout.strip().split(",") if m]


def test_engine_and_cli_import_nothing_heavy() -> None:
    assert _loaded("import memsearch_tui.engine, memsearch_tui.cli, memsearch_tui.cli.app") == []


def test_store_modules_import_nothing_heavy() -> None:
    code = (
        "from memsearch_tui.engine.store import store, index_files, catalog, checks\n"
        "from memsearch_tui.engine.curator import versions\nfrom memsearch_tui.engine.history import oplog"
    )
    assert _loaded(code) == []


def test_engine_never_imports_ui_libraries() -> None:
    out = _loaded_ui("import memsearch_tui.engine.store.store, memsearch_tui.engine.curator.versions")
    assert out == []


def _loaded_ui(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint(','.join(m for m in ('textual','rich','typer') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return [m for m in out.stdout.strip().split(",") if m]
