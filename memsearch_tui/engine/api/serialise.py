"""The one serialiser: API dataclasses → JSON-able dicts (CLI ``--json`` and MCP tools).

Tuples become lists, dates ISO strings, paths strings. The field names in the dataclasses
are the wire names, except where a wire name cannot be a Python name (``from``): such a
field says its wire name in its metadata, ``field(metadata=wire("from"))``; a key the wire
has only sometimes (``error``) is a field left out while it holds its default
(``field(default="", metadata=wire(omit_default=True))``).
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from pathlib import PurePath
from typing import Any

WIRE = "wire"
OMIT = "omit_default"


def wire(name: str = "", *, omit_default: bool = False) -> dict[str, Any]:
    """A field's metadata: its key on the wire (when the key is a Python keyword), and
    whether the key is left out while the field holds its default."""
    return {**({WIRE: name} if name else {}), **({OMIT: True} if omit_default else {})}


def to_json(obj: Any) -> Any:
    """A JSON-able copy of ``obj`` (a dataclass, a list/tuple of them, or plain values)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            f.metadata.get(WIRE, f.name): to_json(getattr(obj, f.name))
            for f in dataclasses.fields(obj)
            if not (f.metadata.get(OMIT) and getattr(obj, f.name) == f.default)
        }
    if isinstance(obj, (list, tuple)):
        return [to_json(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in obj.items()}
    if isinstance(obj, (datetime, date)):
        return obj.isoformat()
    if isinstance(obj, PurePath):
        return str(obj)
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    raise TypeError(f"to_json: cannot serialise {type(obj).__name__}")
