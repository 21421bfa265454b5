"""Adding and taking out our entries in a host's JSON file, by splicing its text.

An entry is one value at a key path: a hook group appended to ``hooks.<Event>`` (an
array), or the server under ``mcpServers`` (an object member). ``add`` records what it
created (the containers that were missing, the inner whitespace of one that was empty);
``take_out`` undoes it in reverse order, so install → uninstall gives back every byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.hosts import json_text
from memsearch_tui.engine.hosts.json_text import Node, Style

SEED = "{}"  # the text a missing or blank file starts from (plus the file's newline)


@dataclass(frozen=True)
class OwnedValue:
    """One value we own: in the container at ``where``, under ``key`` (object) or appended (array)."""

    where: tuple[str, ...]
    key: str | None
    value: Any


@dataclass
class Added:
    """What ``add`` did for one entry, for the record."""

    entry: OwnedValue
    created: list[list[str]] = field(default_factory=list)  # container paths that did not exist
    inner: str | None = None  # the whitespace inside the container when it was empty

    def to_record(self) -> dict[str, Any]:
        e = self.entry
        return {"where": list(e.where), "key": e.key, "value": e.value, "created": self.created, "inner": self.inner}


def entry_from_record(raw: Any) -> Added | None:
    """An ``Added`` read back from a record (None for anything malformed: not ours then)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("where"), list):
        return None
    where = tuple(str(k) for k in raw["where"])
    key = raw.get("key")
    created = [list(map(str, c)) for c in raw.get("created") or [] if isinstance(c, list)]
    inner = raw.get("inner") if isinstance(raw.get("inner"), str) else None
    return Added(OwnedValue(where, key if isinstance(key, str) else None, raw.get("value")), created, inner)


def parse_root(text: str, where: str) -> Node:
    """The located top object of a host file; a named error for broken JSON or another shape."""
    try:
        root = json_text.parse(text)
    except json_text.JsonTextError as exc:
        raise InvalidInput(f"{where}: not valid JSON ({exc}); fix it by hand first", path=where) from None
    if root.kind != "object":
        raise InvalidInput(f"{where}: expected a JSON object at the top, found {_kind(root)}", path=where)
    return root


def _kind(node: Node) -> str:
    return {"object": "an object", "array": "a list", "string": "a string", "number": "a number"}.get(
        node.kind, "true, false or null"
    )


def _dotted(keys: tuple[str, ...] | list[str]) -> str:
    return ".".join(keys) or "the top level"


def add(text: str, entry: OwnedValue, style: Style, where: str) -> tuple[str, Added | None]:
    """``text`` with ``entry`` in place, or (``text``, None) when an equal value is already there.

    The caller decides beforehand whether an existing member under ``entry.key`` may be
    replaced (it is ours) — ``add`` only adds.
    """
    node = parse_root(text, where)
    added = Added(entry)
    for depth, key in enumerate(entry.where):
        child = node.member(key)
        if child is None:
            rest = entry.where[depth + 1 :]
            value = _wrap(entry, rest)
            added.created = [list(entry.where[: i + 1]) for i in range(depth, len(entry.where))]
            added.inner = None if node.children else text[node.start + 1 : node.end - 1]
            return _insert_member(text, node, key, value, style), added
        if child.kind != ("array" if depth == len(entry.where) - 1 and entry.key is None else "object"):
            want = "a list" if depth == len(entry.where) - 1 and entry.key is None else "an object"
            raise InvalidInput(
                f"{where}: '{_dotted(entry.where[: depth + 1])}' is {_kind(child)}, not {want}; fix it by hand first",
                path=where,
            )
        node = child
    if entry.key is None:
        if any(json_text.value_of(text, c) == entry.value for c in node.children):
            return text, None
        item = json_text.render(entry.value, style, json_text.child_indent(text, node, style))
        new, inner = json_text.insert(text, node, item, style)
        added.inner = inner
        return new, added
    if node.member(entry.key) is not None:
        return text, None
    new = _insert_member(text, node, entry.key, entry.value, style)
    added.inner = None if node.children else text[node.start + 1 : node.end - 1]
    return new, added


def _wrap(entry: OwnedValue, rest: tuple[str, ...]) -> Any:
    """The value to insert when the containers ``rest`` (and the entry's own) are missing."""
    value: Any = {entry.key: entry.value} if entry.key is not None else [entry.value]
    for key in reversed(rest):
        value = {key: value}
    return value


def _insert_member(text: str, obj: Node, key: str, value: Any, style: Style) -> str:
    indent = json_text.child_indent(text, obj, style)
    new, _ = json_text.insert(text, obj, json_text.member_text(key, value, style, indent), style)
    return new


def find(text: str, entry: OwnedValue, where: str) -> Node | None:
    """The value of the member ``entry.key`` in the container at ``entry.where``, if there."""
    node: Node | None = parse_root(text, where)
    for key in entry.where:
        node = node.member(key) if node is not None and node.kind == "object" else None
    if node is None or node.kind != "object" or entry.key is None:
        return None
    return node.member(entry.key)


def replace_member(text: str, entry: OwnedValue, style: Style, where: str) -> str:
    """``text`` with the existing member ``entry.key`` given ``entry.value`` (ours, rewritten)."""
    node = find(text, entry, where)
    assert node is not None
    indent = json_text.line_indent(text, node.start)
    return json_text.replace(text, node, json_text.render(entry.value, style, indent))


def take_out(text: str, added: Added, where: str) -> str | None:
    """``text`` without the entry (and the containers ``add`` created for it), or None when
    the entry is not there (any more): nothing of ours to take out."""
    root = parse_root(text, where)
    path = _locate(root, added.entry.where)
    if path is None:
        return None
    container = path[-1]
    index = _index_of(text, container, added.entry)
    if index is None:
        return None
    created = {tuple(c) for c in added.created}
    keys = list(added.entry.where)
    inner = added.inner or ""  # the first container we did not create had this inside when empty
    while True:
        last = len(container.children) == 1
        if not last or tuple(keys) not in created:
            return json_text.remove(text, container, index, inner if last else "")
        # the container empties and we created it: take its own member out instead
        key = keys.pop()
        path.pop()
        container = path[-1]
        index = max(i for i, k in enumerate(container.keys) if k == key)


def _locate(root: Node, keys: tuple[str, ...]) -> list[Node] | None:
    path = [root]
    for key in keys:
        child = path[-1].member(key) if path[-1].kind == "object" else None
        if child is None:
            return None
        path.append(child)
    return path


def _index_of(text: str, container: Node, entry: OwnedValue) -> int | None:
    """Where our value sits in the container (the last equal one), or None."""
    if container.kind == "array" and entry.key is None:
        hits = [i for i, c in enumerate(container.children) if json_text.value_of(text, c) == entry.value]
    elif container.kind == "object" and entry.key is not None:
        hits = [i for i, k in enumerate(container.keys) if k == entry.key]
        hits = [i for i in hits[-1:] if json_text.value_of(text, container.children[i]) == entry.value]
    else:
        return None
    return hits[-1] if hits else None


def check_hook_groups(text: str, where: str) -> None:
    """Every hook group has the shape the hosts read (``{"hooks": [ {...}, … ]}``), or a
    named error: an odd group such as ``{"hooks": 5}`` would make our reading guess."""
    hooks = parse_root(text, where).member("hooks")
    if hooks is None or hooks.kind != "object":
        if hooks is not None:
            raise InvalidInput(f"{where}: 'hooks' is {_kind(hooks)}, not an object; fix it by hand first", path=where)
        return
    for event, groups in zip(hooks.keys, hooks.children):
        if groups.kind != "array":
            raise InvalidInput(
                f"{where}: 'hooks.{event}' is {_kind(groups)}, not a list; fix it by hand first", path=where
            )
        for i, group in enumerate(groups.children):
            at = f"hooks.{event}[{i}]"
            if group.kind != "object":
                raise InvalidInput(
                    f"{where}: '{at}' is {_kind(group)}, not an object; fix it by hand first", path=where
                )
            handlers = group.member("hooks")
            if handlers is not None and handlers.kind != "array":
                raise InvalidInput(
                    f"{where}: '{at}.hooks' is {_kind(handlers)}, not a list; fix it by hand first", path=where
                )
            for j, handler in enumerate(handlers.children if handlers is not None else []):
                if handler.kind != "object":
                    raise InvalidInput(
                        f"{where}: '{at}.hooks[{j}]' is {_kind(handler)}, not an object; fix it by hand first",
                        path=where,
                    )
