"""Textual's private names the app and the tests lean on exist and behave as relied on.

A Textual upgrade that renames or reshapes one fails here, naming it, rather than as a
puzzling flow or a slower theme switch. The tests' uses go through ``tests/textual_private.py``;
the app's are listed in ``APP_USES`` (each with the module that uses it).
"""

from __future__ import annotations

import asyncio
import inspect

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from tests.textual_private import notifications, screen_strips


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

    sheet = Stylesheet(variables={"accent": "red"})
    sheet.add_source("Static { color: $accent; }", read_from=("x", ""))
    sheet.parse()
    keys = list(sheet._parse_cache.keys())
    assert keys and all(len(k) == 5 for k in keys), keys  # (css, read_from, is_defaults, tie_breaker, scope)
    css, read_from, is_defaults, tie_breaker, scope = keys[0]
    parsed = sheet._parse_rules(css, read_from, is_defaults, tie_breaker, scope)
    assert parsed and not any(rule.errors for rule in parsed)
    sheet._parse_cache.set(keys[0], parsed)
    assert sheet._parse_cache.get(keys[0]) is parsed
    assert dict(sheet._variables) == {"accent": "red"}
    assert isinstance(sheet._rules, list) and hasattr(sheet, "_rules_map") and sheet._require_parse is False


def _method(owner: str, name: str, params: list[str]):
    def check() -> None:
        module, _, cls = owner.rpartition(".")
        found = getattr(getattr(__import__(module, fromlist=[cls]), cls), name)
        assert list(inspect.signature(found).parameters) == params

    return check


def _compositor_size() -> None:
    from textual._compositor import Compositor
    from textual.geometry import Size

    assert isinstance(Compositor().size, Size)


#: every private Textual name the app uses, by the module that uses it
APP_USES = {
    "theme_switch: Stylesheet._parse_rules/_parse_cache/_variables/_rules/_rules_map/_require_parse": (
        _stylesheet_parse_cache
    ),
    "screens/modal: Screen._screen_resized": _method("textual.screen.Screen", "_screen_resized", ["self", "size"]),
    "screens/modal: Screen._compositor.size": _compositor_size,
    "widgets/lists: ScrollView._size_updated": _method(
        "textual.scroll_view.ScrollView",
        "_size_updated",
        ["self", "size", "virtual_size", "container_size", "layout"],
    ),
}


@pytest.mark.parametrize("use", list(APP_USES))
def test_the_apps_private_textual_names_are_still_there(use):
    APP_USES[use]()
