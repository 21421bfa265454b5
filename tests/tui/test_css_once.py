"""The TUI tests' CSS kept per worker (``tests/tui/css_once.py``) parses a source once per
set of variables, gives the same rules, and keeps no rule a source failed to give."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App, ComposeResult
from textual.css.stylesheet import Stylesheet, StylesheetParseError
from textual.widgets import Static

from tests.tui.css_once import parse_once

pytestmark = pytest.mark.css_afresh  # each test turns it on itself, or not

_CSS = "Static#once { color: $accent; background: $panel-x; }"


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources Textual really parses from now on (``Stylesheet``'s call of ``css.parse.parse``)."""
    import textual.css.stylesheet as module

    seen: list[str] = []
    real = module.parse

    def parse(scope, css, read_from, *a, **kw):
        seen.append(css)
        return real(scope, css, read_from, *a, **kw)

    monkeypatch.setattr(module, "parse", parse)
    return seen


def _sheet(variables: dict[str, str], css: str = _CSS) -> Stylesheet:
    sheet = Stylesheet(variables=variables)
    sheet.add_source(css, read_from=("test_css_once", "写 memory"))
    sheet.parse()
    return sheet


def test_a_source_is_parsed_once_per_set_of_variables(monkeypatch):
    parse_once(monkeypatch)
    seen = _counted(monkeypatch)
    red = {"accent": "#ff0000", "panel-x": "#101010"}
    first = _sheet(red)
    assert seen == [_CSS]
    again = _sheet(dict(red))  # another stylesheet, the same variables
    assert seen == [_CSS] and again.rules == first.rules
    blue = _sheet({**red, "accent": "#0000ff"})  # other variables: parsed for them
    assert seen == [_CSS, _CSS]
    assert blue.rules[0].styles.color != first.rules[0].styles.color
    first.set_variables({**red, "accent": "#0000ff"})  # a theme switch: the blue rules, parsed already
    first.parse()
    assert seen == [_CSS, _CSS] and first.rules == blue.rules


def test_without_it_every_stylesheet_parses_again(monkeypatch):
    seen = _counted(monkeypatch)
    variables = {"accent": "#ff0000", "panel-x": "#101010"}
    _sheet(variables)
    _sheet(variables)
    assert seen == [_CSS, _CSS]


def test_a_source_with_an_error_is_refused_every_time(monkeypatch):
    parse_once(monkeypatch)
    bad = "Static { color: not-a-colour; }"  # a rule with an error: Textual raises after parsing it
    for _ in range(2):
        with pytest.raises(StylesheetParseError):
            _sheet({"accent": "#ff0000"}, bad)


class _Tiny(App[None]):
    CSS = "Static { color: $accent; }"

    def compose(self) -> ComposeResult:
        yield Static("第一行 first line")


def test_a_second_app_start_parses_no_source(monkeypatch):
    parse_once(monkeypatch)

    async def start() -> None:
        async with _Tiny().run_test(size=(30, 4)) as pilot:
            await pilot.pause()

    asyncio.run(start())
    seen = _counted(monkeypatch)
    asyncio.run(start())
    assert seen == []
