"""The app's CSS parsed once per xdist worker, not once per app start (issue 32 item 4).

Every Pilot test starts a new ``MemsearchApp``, and each start parses the same stylesheet
sources with the same theme variables again: the app's CSS, every widget's DEFAULT_CSS, and
(while idle) the next theme's (``MemsearchApp.parse_ahead``), ~0.1-0.2 s of CPU a start,
some 300 starts in ``tests/tui``. ``parse_once`` keeps what Textual parsed, per source and
per set of variables, and gives it to the next stylesheet before its public ``parse`` runs:
Textual then parses only what it has not seen with those variables. What a test draws does
not change (the same rules; a rule's text and variables are its whole input).

It reaches Textual's parse cache through the app's own door to Textual's private API
(``memsearch_tui.tui.textual_private.parsed_sources``/``seed_parsed``, checked against the
installed Textual by ``test_textual_private.py``): no new private name. The variables a
stylesheet parses with are noted where they are given (the public ``Stylesheet(variables=)``
and ``set_variables``). A test about parsing itself opts out with ``@pytest.mark.css_afresh``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet

from memsearch_tui.tui.textual_private import ParseKey, parse_key, parsed_sources, seed_parsed

#: the variables a stylesheet parses with, noted on it (``__dict__``, like ``tests.helpers.told``)
_VARS = "_tests_css_variables"
#: rules Textual parsed, per set of variables, then per source: a few themes at most
_PARSED: dict[frozenset[tuple[str, str]], dict[ParseKey, list[Any]]] = {}
_THEMES_KEPT = 8


def _known(variables: frozenset[tuple[str, str]]) -> dict[ParseKey, list[Any]]:
    known = _PARSED.get(variables)
    if known is None:
        while len(_PARSED) >= _THEMES_KEPT:  # the oldest theme goes (a dict keeps insertion order)
            del _PARSED[next(iter(_PARSED))]
        known = _PARSED[variables] = {}
    return known


def parse_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on (until ``monkeypatch`` undoes it) a stylesheet's ``parse`` takes the rules
    of a source parsed before with the same variables in this process, and keeps the ones
    it parses for the next stylesheet."""
    real_init, real_set, real_parse = Stylesheet.__init__, Stylesheet.set_variables, Stylesheet.parse

    def init(self: Stylesheet, *, variables: dict[str, str] | None = None) -> None:
        real_init(self, variables=variables)
        self.__dict__[_VARS] = frozenset((variables or {}).items())

    def set_variables(self: Stylesheet, variables: dict[str, str]) -> None:
        real_set(self, variables)
        self.__dict__[_VARS] = frozenset(variables.items())

    def parse(self: Stylesheet) -> None:
        variables = self.__dict__.get(_VARS)
        if variables is None:  # made before the patch: parsed as Textual would
            real_parse(self)
            return
        known = _known(variables)
        keys = [parse_key(read_from, source) for read_from, source in self.source.items()]
        seed_parsed(self, {key: known[key] for key in keys if key in known})
        there = {key for key, _ in parsed_sources(self)}  # seeded, here or by the app's RuleCache
        real_parse(self)
        for key, rules in parsed_sources(self):
            if key not in there and not any(rule.errors for rule in rules):  # what Textual parsed now
                known[key] = rules

    monkeypatch.setattr(Stylesheet, "__init__", init)
    monkeypatch.setattr(Stylesheet, "set_variables", set_variables)
    monkeypatch.setattr(Stylesheet, "parse", parse)
