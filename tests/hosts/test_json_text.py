"""The JSON locator and splicer the installer edits host files with."""

from __future__ import annotations

import json

import pytest

from memsearch_tui.engine.hosts import json_text
from memsearch_tui.engine.hosts.json_text import JsonTextError


@pytest.mark.parametrize(
    "text",
    ['{"a": 1e999, "b": [1.0000000000000001, -0, "\\u00e9"], "a": {}}', "\ufeff[]", " 7 ", '"x"', "null"],
)
def test_parse_accepts_json_and_locates_every_value(text: str) -> None:
    node = json_text.parse(text)
    assert text[node.start : node.end].strip() == text.lstrip("\ufeff").strip()


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"a": 1,}', "line 1 column 9"),
        ('{\n  "a": tru\n}', "line 2 column 8"),
        ("[1, 2", "line 1 column 6"),
        ("{} x", "line 1 column 4"),
        ('{"a": NaN}', "line 1 column 7"),
        ('{"a": "\x01"}', "line 1 column 7"),
        ("", "line 1 column 1"),
    ],
)
def test_parse_names_the_line_and_column_of_a_problem(text: str, where: str) -> None:
    with pytest.raises(JsonTextError, match=where):
        json_text.parse(text)


def test_a_duplicate_key_resolves_to_the_last_as_the_hosts_do() -> None:
    text = '{"k": 1, "k": 2}'
    node = json_text.parse(text).member("k")
    assert node is not None and json_text.value_of(text, node) == json.loads(text)["k"] == 2


def test_deep_nesting_is_an_error_not_a_recursion_error() -> None:
    with pytest.raises(JsonTextError, match="nested more than"):
        json_text.parse("[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize(
    "text", ["[]", "[ ]", "[\r\n\t]", "[1]", "[1,2]", "[\n  1,\n  2\n]", "[1 , 2 ,\t3]", '[{"a": [1]}]']
)
def test_insert_then_remove_gives_back_the_same_text(text: str) -> None:
    style = json_text.style_of(text)
    root = json_text.parse(text)
    new, inner = json_text.insert(text, root, '{"ours": true}', style)
    assert json.loads(new) == [*json.loads(text), {"ours": True}]
    grown = json_text.parse(new)
    assert json_text.remove(new, grown, len(grown.children) - 1, inner or "") == text


def test_remove_takes_out_a_middle_or_first_child_with_its_comma() -> None:
    text = "[1, 2, 3]"
    root = json_text.parse(text)
    assert json_text.remove(text, root, 0) == "[2, 3]" and json_text.remove(text, root, 1) == "[1, 3]"
