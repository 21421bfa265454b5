"""Widgets tell the pane (or dialog) that holds them by Textual message; they never reach
into it. A structural check of ``memsearch_tui/tui/widgets`` (it fails when a widget
imports a pane, a screen or the app, or calls a method only a pane has), and the Escape
that leaves an input box, driven with Pilot in a pane and in a dialog."""

from __future__ import annotations

import ast
from pathlib import Path

import memsearch_tui.tui.widgets as widgets_pkg
from memsearch_tui.tui.panes import base
from memsearch_tui.tui.screens.modal import Modal
from tests.helpers import settle, until

WIDGETS = Path(widgets_pkg.__file__).parent
HOLDERS = ("memsearch_tui.tui.panes", "memsearch_tui.tui.screens", "memsearch_tui.tui.app", "memsearch_tui.tui.modals")


def _pane_only_methods() -> set[str]:
    """Methods the pane base (and its write half) define that no Textual widget has."""
    from textual.widget import Widget

    tree = ast.parse(Path(base.__file__).read_text(encoding="utf-8"))
    names = {
        f.name
        for c in ast.walk(tree)
        if isinstance(c, ast.ClassDef) and c.name == "Pane"
        for f in c.body
        if isinstance(f, ast.FunctionDef)
    }
    names |= {"run_write", "after_write", "leave_input", "refresh_panes", "report"}
    return {n for n in names if not n.startswith("_") and not hasattr(Widget, n)}


def test_no_widget_imports_a_pane_or_calls_its_methods():
    pane_methods = _pane_only_methods()
    assert {"leave_input", "run_write"} <= pane_methods
    found = []
    for path in sorted(WIDGETS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(HOLDERS):
                found.append(f"{path.name}:{node.lineno} imports {node.module}")
            elif isinstance(node, ast.Import):
                found += [
                    f"{path.name}:{node.lineno} imports {a.name}" for a in node.names if a.name.startswith(HOLDERS)
                ]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                receiver = node.func.value
                if node.func.attr in pane_methods and not (isinstance(receiver, ast.Name) and receiver.id == "self"):
                    found.append(f"{path.name}:{node.lineno} calls .{node.func.attr}()")
    assert found == [], "widgets reach into their pane instead of posting a message:\n" + "\n".join(found)


def test_escape_in_an_empty_filter_leaves_it_for_the_list_by_message(drive):
    async def flow(pilot, app):
        pane = app.query_one("#pane-index")
        box = app.query_one("#index-filter")
        box.display = True
        box.focus()
        await pilot.press(*"项目 alpha")
        await pilot.press("escape")  # the first clears
        assert box.value == "" and app.focused is box
        await pilot.press("escape")  # the second leaves: the pane focuses its list
        await settle(pilot)
        assert app.focused is not box and app.focused.id == pane.list_widget.lstrip("#")

    drive(flow)


def test_escape_in_a_dialogs_filter_goes_back_to_its_list(drive):
    async def flow(pilot, app):
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, Modal), "the help screen")
        await pilot.press("/")
        box = app.screen.query_one("#help-filter")
        await until(pilot, lambda: app.focused is box, "the filter focused")
        await pilot.press("escape")
        await until(pilot, lambda: app.focused is not box, "the filter left")
        assert app.focused.id == "help-table" and not box.display

    drive(flow)
