"""Edit a JSON file by splicing its text, so every byte we did not mean to change stays.

A host's settings file is the user's: its indentation, CRLF line ends, ``\\u`` escapes,
number spellings (``1e999``, ``1.0000000000000001``) and duplicate keys must survive an
install. ``json.loads`` + ``json.dumps`` loses all of them (``1e999`` even comes back as
``Infinity``, which is not JSON). So ``parse`` is a small locator: it checks the text is
JSON and returns the span of every value, and the edits splice new text in or cut a
span out. ``insert`` and ``remove`` are exact inverses: removing what ``insert`` added
gives back the very bytes that were there before.

Duplicate keys: JSON.parse (the hosts) and ``json.loads`` both let the last one win, so
``member`` looks up the last.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

MAX_DEPTH = 200  # host settings nest a handful of levels; deeper is refused, never a RecursionError

_WS = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_LITERALS = ("true", "false", "null")


class JsonTextError(ValueError):
    """The text is not JSON; ``pos`` is the character offset of the problem."""

    def __init__(self, message: str, pos: int, text: str):
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        super().__init__(f"{message} at line {line} column {column}")


@dataclass
class Node:
    """One JSON value: its kind and its span ``text[start:end]``; children for containers."""

    kind: str  # object | array | string | number | literal
    start: int
    end: int
    keys: list[str] = field(default_factory=list)  # object: the decoded key of each member
    key_starts: list[int] = field(default_factory=list)  # object: where each member's key begins
    children: list[Node] = field(default_factory=list)  # object: member values; array: items

    def member(self, key: str) -> Node | None:
        """The value of ``key`` (the last one if the key is there twice), or None."""
        for i in range(len(self.keys) - 1, -1, -1):
            if self.keys[i] == key:
                return self.children[i]
        return None

    def child_starts(self) -> list[int]:
        """Where each child begins in the text: a member at its key, an item at its value."""
        return self.key_starts if self.kind == "object" else [c.start for c in self.children]


def parse(text: str) -> Node:
    """The located tree of ``text``; JsonTextError names the line and column of a problem."""
    pos = _skip_bom(text)
    pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
    node, pos = _value(text, pos, 0)
    pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
    if pos != len(text):
        raise JsonTextError("extra text after the JSON value", pos, text)
    return node


def value_of(text: str, node: Node) -> Any:
    """The Python value of one located node (for comparing a small entry, never for writing)."""
    return json.loads(text[node.start : node.end])


def _skip_bom(text: str) -> int:
    return 1 if text.startswith("\ufeff") else 0


def _value(text: str, pos: int, depth: int) -> tuple[Node, int]:
    if depth > MAX_DEPTH:
        raise JsonTextError(f"nested more than {MAX_DEPTH} levels deep", pos, text)
    ch = text[pos : pos + 1]
    if ch == "{":
        return _container(text, pos, depth, "object", "}")
    if ch == "[":
        return _container(text, pos, depth, "array", "]")
    if ch == '"':
        m = _STRING.match(text, pos)
        if m is None:
            raise JsonTextError("invalid string", pos, text)
        return Node("string", pos, m.end()), m.end()
    m = _NUMBER.match(text, pos)
    if m is not None and m.end() > pos:
        return Node("number", pos, m.end()), m.end()
    for word in _LITERALS:
        if text.startswith(word, pos):
            return Node("literal", pos, pos + len(word)), pos + len(word)
    raise JsonTextError("expected a JSON value" if ch else "unexpected end of file", pos, text)


def _container(text: str, pos: int, depth: int, kind: str, close: str) -> tuple[Node, int]:
    node = Node(kind, pos, pos)
    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    if text.startswith(close, pos):
        node.end = pos + 1
        return node, node.end
    while True:
        if kind == "object":
            m = _STRING.match(text, pos)
            if m is None:
                raise JsonTextError("expected a quoted key", pos, text)
            node.key_starts.append(pos)
            node.keys.append(json.loads(m.group()))
            pos = _WS.match(text, m.end()).end()  # type: ignore[union-attr]
            if not text.startswith(":", pos):
                raise JsonTextError("expected ':' after the key", pos, text)
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
        child, pos = _value(text, pos, depth + 1)
        node.children.append(child)
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        if text.startswith(",", pos):
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
            continue
        if text.startswith(close, pos):
            node.end = pos + 1
            return node, node.end
        raise JsonTextError(f"expected ',' or '{close}'", pos, text)


# -- layout -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Style:
    """How the file lays itself out: line end, one level of indent, and whether it is on one line."""

    newline: str
    unit: str
    one_line: bool


def style_of(text: str) -> Style:
    newline = "\r\n" if "\r\n" in text else "\n"
    m = re.search(r"\n([ \t]+)[^ \t\r\n]", text)
    unit = m.group(1) if m else "  "
    if unit.startswith("\t"):
        unit = "\t"
    body = text.strip()
    return Style(newline, unit, "\n" not in body and not re.fullmatch(r"\{\s*\}|\[\s*\]", body))


def render(value: Any, style: Style, indent: str) -> str:
    """``value`` as JSON text in the file's style, its later lines indented by ``indent``."""
    if style.one_line:
        return json.dumps(value, ensure_ascii=False)
    out = json.dumps(value, ensure_ascii=False, indent=style.unit)
    return out.replace("\n", style.newline + indent)


def line_indent(text: str, pos: int) -> str:
    """The leading whitespace of the line ``pos`` is on."""
    start = text.rfind("\n", 0, pos) + 1
    m = _WS.match(text, start)
    ws = m.group() if m else ""
    return ws.replace("\r", "").replace("\n", "")


# -- splicing -----------------------------------------------------------------------------
def insert(text: str, container: Node, child_text: str, style: Style) -> tuple[str, str | None]:
    """``text`` with ``child_text`` (a member ``"k": v`` or an item) appended to ``container``.

    Returns the new text and, when the container was empty, its old inner whitespace (what
    ``remove`` needs to put back when it takes the last child out again).
    """
    n = len(container.children)
    if n:
        starts = container.child_starts()
        if n >= 2:
            between = text[container.children[n - 2].end : starts[n - 1]]
            sep = between[between.index(",") + 1 :]
        else:
            sep = text[container.start + 1 : starts[0]]
        at = container.children[-1].end
        return text[:at] + "," + sep + child_text + text[at:], None
    inner = text[container.start + 1 : container.end - 1]
    own = line_indent(text, container.start)
    if style.one_line:
        body = child_text
    else:
        body = style.newline + own + style.unit + child_text + style.newline + own
    return text[: container.start + 1] + body + text[container.end - 1 :], inner


def remove(text: str, container: Node, index: int, inner: str = "") -> str:
    """``text`` without child ``index`` of ``container`` (and the comma that joined it).

    The exact inverse of ``insert`` for its last child; ``inner`` is the whitespace to leave
    when the container ends up empty.
    """
    starts = container.child_starts()
    ends = [c.end for c in container.children]
    if len(ends) == 1:
        return text[: container.start + 1] + inner + text[container.end - 1 :]
    if index > 0:
        return text[: ends[index - 1]] + text[ends[index] :]
    return text[: starts[0]] + text[starts[1] :]


def replace(text: str, node: Node, new_text: str) -> str:
    """``text`` with one value's span replaced."""
    return text[: node.start] + new_text + text[node.end :]


def member_text(key: str, value: Any, style: Style, indent: str) -> str:
    """``"key": value`` in the file's style (``indent``: the member's own line indent)."""
    return json.dumps(key, ensure_ascii=False) + ": " + render(value, style, indent)


def child_indent(text: str, container: Node, style: Style) -> str:
    """The indent a new child of ``container`` gets: its siblings', or one level deeper."""
    if container.children:
        return line_indent(text, container.child_starts()[-1])
    return line_indent(text, container.start) + style.unit
