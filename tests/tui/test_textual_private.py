"""Textual's private names the app and the tests lean on exist and behave as relied on.

A Textual upgrade that renames or reshapes one fails here, naming it, rather than as a
puzzling flow or a slower theme switch. The tests' uses go through ``tests/textual_private.py``;
the app's all go through ``memsearch_tui/tui/textual_private.py`` (``APP_USES`` checks each), and
two checks keep it so: no other module names a private Textual attribute (AST), and no other
class overrides a private Textual method (at run time).
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
import textual
from textual.app import App, ComposeResult
from textual.widgets import Static

import memsearch_tui
from tests.textual_private import count_layouts, notifications, screen_strips

pytestmark = pytest.mark.css_afresh  # Textual's own parse cache, not the tests' (tests/tui/css_once.py)


class _Tiny(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("写 memory 第一行", id="line")


def test_notifications_lists_the_toasts_shown_with_their_fields():
    async def flow() -> None:
        app = _Tiny()
        async with app.run_test(size=(40, 5)) as pilot:
            assert notifications(app) == []
            app.notify("saved 已保存", title="Index", severity="warning")
            await pilot.pause()
            [note] = notifications(app)
            assert (note.title, note.message, note.severity) == ("Index", "saved 已保存", "warning")

    asyncio.run(flow())


def test_count_layouts_lists_each_layout_of_a_screen(monkeypatch):
    done = count_layouts(monkeypatch)

    async def flow() -> None:
        app = _Tiny()
        async with app.run_test(size=(40, 5)) as pilot:
            await pilot.pause()
            done.clear()
            app.screen.refresh(layout=True)
            await pilot.pause()
            assert done == [(app.screen, False)]

    asyncio.run(flow())


def test_screen_strips_are_the_rows_drawn():
    async def flow() -> None:
        app = _Tiny()
        async with app.run_test(size=(40, 5)) as pilot:
            await pilot.pause()
            rows = [strip.text for strip in screen_strips(app)]
            assert len(rows) == 5 and rows[0].startswith("写 memory 第一行")

    asyncio.run(flow())


def _stylesheet_parse_cache() -> None:
    from textual.css.stylesheet import Stylesheet

    from memsearch_tui.tui.textual_private import parse_key, parsed_sources, seed_parsed

    sheet = Stylesheet(variables={"accent": "red"})
    sheet.add_source("Static { color: $accent; }", read_from=("x", ""))
    sheet.parse()
    [(read_from, source)] = sheet.source.items()
    [(key, parsed)] = list(parsed_sources(sheet))
    assert key == parse_key(read_from, source) and parsed and not any(rule.errors for rule in parsed)
    sheet.set_variables({"accent": "blue"})  # Textual forgets what it parsed
    assert list(parsed_sources(sheet)) == []
    seed_parsed(sheet, {key: parsed})
    sheet.parse()  # takes the seeded rules rather than parsing again
    assert sheet.rules == parsed and all(a is b for a, b in zip(sheet.rules, parsed, strict=True))


def _screen_resized_is_called_at_a_resize() -> None:
    from textual.screen import Screen

    from memsearch_tui.tui.textual_private import LaidOutOncePerSize

    assert list(inspect.signature(Screen._screen_resized).parameters) == ["self", "size"]
    sizes: list[tuple[int, int]] = []

    class Counted(LaidOutOncePerSize[None]):
        def compose(self) -> ComposeResult:
            yield Static("第二屏 second")

        def _screen_resized(self, size) -> None:  # the hook Textual must still call
            sizes.append((size.width, size.height))
            super()._screen_resized(size)

    async def flow() -> None:
        app = _Tiny()
        async with app.run_test(size=(40, 5)) as pilot:
            app.push_screen(Counted())
            await pilot.pause()
            await pilot.resize_terminal(50, 6)
            await pilot.pause()
            assert app.screen.outer_size == (50, 6)  # laid out at the new size

    asyncio.run(flow())
    assert (50, 6) in sizes
    # the first frame's one layout: the layout, the flags it answers, a message's clock
    from textual import messages
    from textual._time import get_time

    assert list(inspect.signature(Screen._refresh_layout).parameters) == ["self", "size", "scroll"]
    before = get_time()
    assert before <= messages.Layout(Static()).time <= get_time()

    async def once() -> None:
        app = _Tiny()
        app.get_default_screen = Counted  # type: ignore[method-assign]
        async with app.run_test(size=(40, 5)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, LaidOutOncePerSize) and screen._first_laid_out is not None
            assert screen._layout_required is False and screen._layout_widgets == {}
            assert all(w._layout_required is False for w in screen.walk_children())
            screen.query_one(Static).update("第三 third", layout=True)  # an ask after the first
            assert screen.query_one(Static)._layout_required is True
            await pilot.pause()
            assert "第三 third" in screen_strips(app)[0].text

    sizes.clear()
    asyncio.run(once())


def _css_update_count() -> None:
    from memsearch_tui.tui.textual_private import mark_styles_current

    async def flow() -> None:
        app = _Tiny()
        async with app.run_test(size=(40, 5)) as pilot:
            app.refresh_css()
            await pilot.pause()
            assert isinstance(app._css_update_count, int) and isinstance(app.screen._css_update_count, int)
            app.screen._css_update_count = -1
            mark_styles_current(app, app.screen)
            assert app.screen._css_update_count == app._css_update_count

    asyncio.run(flow())


def _size_updated() -> None:
    from textual.scroll_view import ScrollView

    from memsearch_tui.tui.textual_private import OwnVirtualSize

    params = ["self", "size", "virtual_size", "container_size", "layout"]
    assert list(inspect.signature(ScrollView._size_updated).parameters) == params
    assert list(inspect.signature(OwnVirtualSize._size_updated).parameters) == params


def _tree_line_list() -> None:
    from rich.text import Text
    from textual.widgets import Tree
    from textual.widgets.tree import TreeNode

    from memsearch_tui.tui.textual_private import LinesKept, add_rows

    assert list(inspect.signature(Tree._add_node).parameters) == ["self", "parent", "label", "data", "expand"]
    assert list(inspect.signature(Tree._on_resize).parameters) == ["self", "event"]
    assert callable(Tree._invalidate) and "_children" in TreeNode.__init__.__code__.co_names
    assert isinstance(Tree._tree_lines, property) and "_line_cache" in Tree.__init__.__code__.co_names

    class Days(App[None]):
        def compose(self) -> ComposeResult:
            yield LinesKept[str]("days", id="days")

    async def flow() -> None:
        app = Days()
        async with app.run_test(size=(40, 6)) as pilot:
            tree = app.query_one(LinesKept)
            tree.show_root = False
            made = add_rows(tree.root, [(Text(f"第{i}天 day {i}"), str(i)) for i in range(3)], redraw=True)
            await pilot.pause()
            assert list(tree.root.children) == made and all(n.allow_expand for n in made)
            assert [n.data for n in made] == ["0", "1", "2"] and tree.last_line == 2
            made[1].add_leaf("一 one")
            made[1].expand()
            kept = tree._tree_lines
            await pilot.resize_terminal(30, 7)
            await pilot.pause()
            rows = [strip.text for strip in screen_strips(app)]
            assert any("第1天 day 1" in r for r in rows) and any("一 one" in r for r in rows), rows
            # the line list kept through the resize (Tree's own _on_resize did not run), and
            # the virtual width measured from it as Tree._build measures it
            assert tree._tree_lines is kept and tree.virtual_size.height == len(kept) == 4
            widest = max(
                tree.get_label_width(line.node) + line._get_guide_width(tree.guide_depth, False) for line in kept
            )
            assert tree.virtual_size.width == widest

    asyncio.run(flow())


#: every private Textual name the app uses: all of them through ``memsearch_tui/tui/textual_private.py``
APP_USES = {
    "Stylesheet._parse_cache (parsed_sources, seed_parsed)": _stylesheet_parse_cache,
    "Screen's layout: _screen_resized, _refresh_layout, _layout_required, _layout_widgets, "
    "textual._time.get_time (LaidOutOncePerSize)": _screen_resized_is_called_at_a_resize,
    "App/Screen._css_update_count (mark_styles_current)": _css_update_count,
    "ScrollView._size_updated (OwnVirtualSize)": _size_updated,
    "Tree's line list: _add_node, TreeNode._children/_updates, _invalidate, _on_resize, _line_cache, "
    "_tree_lines, _TreeLine._get_guide_width (add_rows, LinesKept)": _tree_line_list,
}


@pytest.mark.parametrize("use", list(APP_USES))
def test_the_apps_private_textual_names_are_still_there(use):
    APP_USES[use]()


def test_the_app_uses_at_most_five_private_textual_names():
    assert len(APP_USES) <= 5


PACKAGE = Path(memsearch_tui.__file__).parent
DOOR = PACKAGE / "tui" / "textual_private.py"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _textual_private_names() -> set[str]:
    """Every private name Textual defines: its methods, classes, and attributes it assigns."""
    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = node.name
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                name = node.attr
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                name = node.id
            else:
                continue
            if _private(name):
                names.add(name)
    return names


def _own_names(trees: dict[Path, ast.Module]) -> set[str]:
    """The private names memsearch_tui gives its own attributes and methods; one Textual
    also defines is caught at run time instead, where it overrides Textual's (below)."""
    names: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                if isinstance(node.value, ast.Name) and node.value.id == "self":  # not another object's
                    names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
    return {name for name in names if _private(name)}


def test_no_module_but_textual_private_names_a_private_textual_attribute():
    trees = {  # the face that draws with Textual (the engine may not import it: import-linter)
        path: ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted((PACKAGE / "tui").rglob("*.py"))
        if path != DOOR
    }
    textuals, own = _textual_private_names(), _own_names(trees)
    found: list[str] = []
    for path, tree in trees.items():
        where = path.relative_to(PACKAGE.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in textuals and node.attr not in own:
                found.append(f"{where}:{node.lineno} .{node.attr}")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual"):
                module_private = any(_private(part) for part in (node.module or "").split("."))
                if module_private or any(_private(alias.name) for alias in node.names):
                    found.append(f"{where}:{node.lineno} from {node.module} import ...")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("textual") and any(_private(p) for p in alias.name.split(".")):
                        found.append(f"{where}:{node.lineno} import {alias.name}")
    assert found == [], "private Textual names outside memsearch_tui/tui/textual_private.py: " + ", ".join(found)


def test_no_class_but_textual_privates_overrides_a_private_textual_method():
    classes: set[type] = set()
    for info in pkgutil.walk_packages([str(PACKAGE / "tui")], "memsearch_tui.tui."):
        module = importlib.import_module(info.name)
        classes.update(
            c for c in vars(module).values() if inspect.isclass(c) and c.__module__.startswith("memsearch_tui.")
        )
    found: list[str] = []
    for cls in classes:
        if cls.__module__ == "memsearch_tui.tui.textual_private":
            continue
        textual_bases = [b for b in cls.__mro__[1:] if b.__module__.split(".")[0] == "textual"]
        for name, value in vars(cls).items():  # methods written in the class (not what a metaclass adds)
            written = inspect.isfunction(value) or isinstance(value, (property, classmethod, staticmethod))
            if written and _private(name) and any(name in vars(base) for base in textual_bases):
                found.append(f"{cls.__module__}.{cls.__qualname__}.{name}")
    assert found == [], "overrides of private Textual names outside textual_private: " + ", ".join(sorted(found))
