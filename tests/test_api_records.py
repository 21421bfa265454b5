"""The ratchet on the API's records: which noun methods still hand a face a loose shape.

A face should get one frozen record per concept from ``engine.api`` (issue 32). This test
reads every public method of every noun ``Memory`` exposes and lists the ones whose return
type is, or holds anywhere inside a dataclass the API defines, ``Any``, ``dict[…, Any]`` or the
``Record`` alias. The list may only shrink: a new loose method fails, and so does a method
converted but still listed here (strike it from ``STILL_LOOSE``).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import sys
import types
import typing
from collections.abc import Iterator
from typing import Any

from memsearch_tui.engine.api.memory import Memory

API = "memsearch_tui.engine.api."  # the records the door defines (engine dataclasses it passes through: records.py)

STILL_LOOSE: set[str] = set()  # empty: every noun method returns typed records (issue 32)


def _namespace(module: types.ModuleType) -> dict[str, Any]:
    """The module's globals plus what it imports under ``if TYPE_CHECKING:`` (annotations only)."""
    ns = dict(vars(module))
    tree = ast.parse(inspect.getsource(module))
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            exec(compile(ast.Module(body=node.body, type_ignores=[]), module.__name__, "exec"), ns)
    return ns


def _nouns() -> Iterator[tuple[str, type]]:
    for name, attr in vars(Memory).items():
        if not isinstance(attr, property) or name == "memsearch_dir":
            continue
        module = importlib.import_module(f"memsearch_tui.engine.api.{name}")
        yield name, getattr(module, inspect.get_annotations(attr.fget)["return"])


def _loose(hint: Any, seen: set[type]) -> bool:
    """True if ``hint`` is ``Any``, a dict with ``Any`` in it, or a dataclass holding one."""
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is dict and any(_loose(a, seen) or a is Any for a in args):
        return True
    if args:
        return any(_loose(a, seen) for a in args if a is not Ellipsis)
    if (
        dataclasses.is_dataclass(hint)
        and isinstance(hint, type)
        and hint.__module__.startswith(API)
        and hint not in seen
    ):
        seen.add(hint)
        module = sys.modules[hint.__module__]
        fields = typing.get_type_hints(hint, globalns=_namespace(module))
        return any(_loose(h, seen) for h in fields.values())
    return False


def loose_methods() -> set[str]:
    out = set()
    for noun, cls in _nouns():
        ns = _namespace(sys.modules[cls.__module__])
        for name, fn in vars(cls).items():
            if name.startswith("_") or not inspect.isfunction(fn):
                continue
            raw = inspect.get_annotations(fn).get("return", "")
            hint = typing.get_type_hints(fn, globalns=ns).get("return")
            if "Record" in str(raw) or _loose(hint, set()):
                out.add(f"{noun}.{name}")
    return out


def test_every_noun_is_read() -> None:
    """The walk reaches the nouns (a broken walk would pass the ratchet vacuously)."""
    nouns = dict(_nouns())
    assert {"entries", "trash", "search", "journal", "vectors"} <= set(nouns)
    assert sum(1 for c in nouns.values() for n in vars(c) if not n.startswith("_")) > 60


def test_loose_records_only_shrink() -> None:
    found = loose_methods()
    new = sorted(found - STILL_LOOSE)
    fixed = sorted(STILL_LOOSE - found)
    assert not new, f"noun methods returning dict/Any/Record (return a frozen dataclass): {new}"
    assert not fixed, f"converted, strike them from STILL_LOOSE: {fixed}"


def test_wire_names_and_sometimes_keys() -> None:
    """A field named after a keyword keeps its wire key; an ``omit_default`` field is left
    out while it holds its default (the records keep the engine's JSON keys, in order)."""
    from dataclasses import dataclass, field

    from memsearch_tui.engine.api import ExcerptRestored, to_json
    from memsearch_tui.engine.api.serialise import wire

    r = ExcerptRestored(
        "/p/2026-11-30.md", "journal/2026-11-30", "2026-11-30/journal/x", "2026-11-30", "line", False, ()
    )
    keys = ["restored", "original_id", "from", "day", "placed", "renamed", "related_dropped"]
    assert list(to_json(r)) == keys and to_json(r)["from"] == "2026-11-30/journal/x"

    @dataclass(frozen=True)
    class Refresh:
        keyword: str
        error: str = field(default="", metadata=wire(omit_default=True))

    assert to_json(Refresh("1 changed")) == {"keyword": "1 changed"}
    assert to_json(Refresh("deferred", "busy")) == {"keyword": "deferred", "error": "busy"}


def test_the_records_hints_resolve_at_run_time() -> None:
    """The MCP SDK builds each tool's ``outputSchema`` from these hints at run time: a name
    imported only under ``TYPE_CHECKING`` breaks every tool (NameError at server start)."""
    from memsearch_tui.engine.api import types as api_types

    records = [
        v for v in vars(api_types).values() if dataclasses.is_dataclass(v) and v.__module__ == api_types.__name__
    ]
    # and those a noun defines, named from types on first use (the journal's, versions'…)
    records += [getattr(api_types, name) for name in api_types._MADE_BY]
    assert len(records) > 30
    for cls in records:
        typing.get_type_hints(cls)
