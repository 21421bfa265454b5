"""The write protocol is a room of its own (``tui/writes.py``): the dialogs name the pane
that opened them by ``WritePath``, never by importing the pane base (issue 32)."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "memsearch_tui" / "tui"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}


def test_dialogs_do_not_import_the_pane_base() -> None:
    dialogs = [TUI / "modals.py", *sorted((TUI / "screens").glob("*.py"))]
    leaning = [p.name for p in dialogs if "memsearch_tui.tui.panes.base" in _imports(p)]
    assert leaning == []


def test_the_panes_write_through_the_one_write_path() -> None:
    from memsearch_tui.tui.panes.base import Pane
    from memsearch_tui.tui.writes import Writer

    assert Pane.run_write is Writer.run_write and Pane.on_write_failed is Writer.on_write_failed
