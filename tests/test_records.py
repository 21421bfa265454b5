"""``@record`` (engine/core/record.py) behaves as ``@dataclass`` does, record by record.

Each class the package decorates with ``@record`` is held to a twin made by
``dataclasses.dataclass`` from the same fields: the same signature, fields, repr, equality,
hash, frozenness, pickling and ``replace`` (issue 36 item 6a: the records got cheaper to
create, not different). A few records are made here too, for what the package's own do not
show: a method the class writes stays, a default factory runs per record.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pickle
from pathlib import Path
from typing import Any

import pytest

from memsearch_tui.engine.core.record import record

PACKAGE = Path(__file__).resolve().parents[1] / "memsearch_tui"


def _decorated() -> list[type]:
    """Every top-level class of the package decorated with ``@record`` or ``@record(...)``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "@record" not in text:
            continue
        module = None
        for node in ast.parse(text).body:
            if isinstance(node, ast.ClassDef) and any(
                (d.func if isinstance(d, ast.Call) else d).id == "record"
                for d in node.decorator_list
                if isinstance(d, ast.Name) or (isinstance(d, ast.Call) and isinstance(d.func, ast.Name))
            ):
                dotted = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
                module = module or importlib.import_module(dotted)
                found.append(getattr(module, node.name))
    return found


RECORDS = _decorated()


def _twin(cls: type) -> Any:
    """The same fields, made by ``@dataclass`` (flat: an inherited field keeps its place)."""
    fs = dataclasses.fields(cls)
    ns: dict[str, Any] = {"__annotations__": {f.name: f.type for f in fs}}
    for f in fs:
        kw: dict[str, Any] = {"repr": f.repr, "compare": f.compare, "hash": f.hash, "metadata": f.metadata}
        if f.default is not dataclasses.MISSING:
            kw["default"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            kw["default_factory"] = f.default_factory
        ns[f.name] = dataclasses.field(**kw)
    written = cls.__doc__ if not (cls.__doc__ or "").startswith(cls.__name__ + "(") else None  # else generated
    ns |= {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": written}
    params = cls.__dataclass_params__
    return dataclasses.dataclass(frozen=params.frozen)(type(cls.__name__, (), ns))


def _values(cls: type, salt: str) -> list[Any]:
    """A value for each field without a default: English and Chinese text, one per field."""
    fs = [f for f in dataclasses.fields(cls) if f.default is f.default_factory is dataclasses.MISSING]
    return [f"{salt}{i} 部署 deploy" for i, _ in enumerate(fs)]


def _field_facts(cls: type) -> list[tuple[Any, ...]]:
    return [
        (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.compare, f.hash, dict(f.metadata), f.kw_only)
        for f in dataclasses.fields(cls)
    ]


def test_the_package_makes_its_records_with_record():
    names = {f"{c.__module__}.{c.__qualname__}" for c in RECORDS}
    # the records a one-shot search makes (issue 36 item 6a) and the API's own
    assert {
        "memsearch_tui.engine.search.hit.SearchHit",
        "memsearch_tui.engine.search.manifest_rows.ChunkRow",
        "memsearch_tui.engine.search.settings.SearchSettings",
    } <= names


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__qualname__)
def test_a_record_behaves_as_its_dataclass_twin(cls: type) -> None:
    twin = _twin(cls)
    assert dataclasses.is_dataclass(cls)
    assert str(inspect.signature(cls)) == str(inspect.signature(twin))
    assert cls.__init__.__annotations__ == twin.__init__.__annotations__
    assert _field_facts(cls) == _field_facts(twin)
    assert cls.__match_args__ == twin.__match_args__
    assert repr(cls.__dataclass_params__) == repr(twin.__dataclass_params__)
    assert cls.__doc__ == twin.__doc__
    a, b = _values(cls, "a"), _values(cls, "b")
    mine, theirs = cls(*a), twin(*a)
    assert repr(mine) == repr(theirs)
    assert dataclasses.asdict(mine) == dataclasses.asdict(theirs)
    assert (mine == cls(*a), mine == cls(*b), mine == theirs, mine.__eq__(tuple(a))) == (
        theirs == twin(*a),
        theirs == twin(*b),
        False,
        NotImplemented,
    )
    if cls.__hash__ is None or twin.__hash__ is None:
        assert cls.__hash__ is twin.__hash__ is None  # a mutable record is unhashable
        name = dataclasses.fields(cls)[0].name
        setattr(mine, name, "改 changed")
        assert getattr(mine, name) == "改 changed"
    else:
        assert hash(mine) == hash(theirs)
        for obj in (mine, theirs):
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
                obj.x = 1
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field"):
                delattr(obj, dataclasses.fields(cls)[0].name)
    assert pickle.loads(pickle.dumps(cls(*a))) == cls(*a)
    if a:
        first = dataclasses.fields(cls)[0].name
        assert dataclasses.replace(cls(*a), **{first: "新 new"}) == cls("新 new", *a[1:])


@record
class _Written:
    """A record that writes its own repr and has a list per record."""

    name: str
    tags: list[str] = dataclasses.field(default_factory=list)

    def __repr__(self) -> str:
        return f"<{self.name}>"


def test_a_method_the_class_writes_stays_and_each_record_gets_its_own_default():
    one, two = _Written("记忆 memory"), _Written("other")
    assert repr(one) == "<记忆 memory>"
    assert one.tags == [] and one.tags is not two.tags
    assert str(inspect.signature(_Written)) == "(name: 'str', tags: 'list[str]' = <factory>) -> None"


def test_what_record_does_not_support_is_refused_at_definition():
    with pytest.raises(TypeError, match="__post_init__"):

        @record
        class _Later:
            """Checks itself after init."""

            a: int

            def __post_init__(self) -> None: ...

    with pytest.raises(TypeError, match="init=False"):

        @record
        class _Hidden:
            """A field __init__ does not take."""

            a: int = dataclasses.field(default=0, init=False)


def test_a_field_without_a_default_after_one_with_is_refused_as_dataclasses_does():
    """Else the defaults, handed to ``__init__`` as a tuple, land on the wrong fields."""
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @record
        class _Shifted:
            """b's value would have been a's default."""

            a: int = 1
            b: str

    @record
    class _Base:
        """A base with a default."""

        a: str = "记忆"

    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @record
        class _Child(_Base):
            """A field without a default after the base's."""

            b: str
