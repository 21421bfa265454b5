"""``@record``: a dataclass for the engine's typed records, at about a quarter of the cost to create.

Why: Python 3.11's ``@dataclass(frozen=True)`` compiles each method it writes — ``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__`` — from its own source
text, one ``exec`` each: ~1 ms a record. A one-shot CLI search makes 7 records before it
answers and the app's first frame dozens, so the compiles were ~5 % of a one-shot hybrid
search (issue 36 item 6a) and part of the first frame's excess over a bare Textual app
(issue 37 item 5).

How: ``dataclasses`` itself still reads the fields (so ``fields()``, ``asdict()``,
``replace()``, ``is_dataclass()``, the one serialiser and the MCP schemas see the same
dataclass), asked to write no method. ``__init__`` is then compiled from a single line (the
parameters are the fields, in order, with their defaults: the same signature), and the other
methods are closures over the field names, made without compiling anything. They behave as
the dataclass ones do: ``__eq__`` compares the compared fields as a tuple with a record of the
very same class (``NotImplemented`` otherwise); a frozen record hashes that tuple and refuses
assignment and deletion with ``FrozenInstanceError``; a mutable one is unhashable; ``__repr__``
shows the ``repr`` fields under the class's qualified name; methods a class writes itself are
kept; pickling is the default one. ``tests/test_records.py`` holds each record to a twin
made by ``@dataclass``.

Not supported (a ``TypeError`` at definition, use ``@dataclass``): ``__post_init__``,
``InitVar``, fields with ``init=False`` or ``kw_only``.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from dataclasses import Field, FrozenInstanceError, field
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


class _Factory:
    """A default_factory field's default in ``__init__``'s signature: the factory runs when
    the record is made without that field (shown as dataclasses shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, frozen: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def record(cls: type[T] | None = None, /, *, frozen: bool = True) -> Any:
    """``@record`` is ``@dataclass(frozen=True)``; ``@record(frozen=False)`` is ``@dataclass``."""
    if cls is None:
        return lambda c: _make(c, frozen)
    return _make(cls, frozen)


def _make(cls: type[T], frozen: bool) -> type[T]:
    own = dict(cls.__dict__)  # what the class wrote itself, before dataclasses adds anything
    inherits = any(dataclasses.is_dataclass(b) for b in cls.__mro__[1:])
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"@record {cls.__qualname__}: __post_init__ is not supported; use @dataclass")
    if frozen and ("__setattr__" in own or "__delattr__" in own):  # as dataclasses refuses it
        raise TypeError(f"Cannot overwrite attribute __setattr__/__delattr__ in class {cls.__name__}")
    # the fields only (a frozen record's base is frozen: dataclasses refuses a "mutable" subclass)
    dataclasses.dataclass(cls, init=False, repr=False, eq=False, frozen=frozen and inherits)
    every = cls.__dict__["__dataclass_fields__"].values()  # with the ClassVars and InitVars
    fs = dataclasses.fields(cls)  # type: ignore[arg-type]
    if any("InitVar" in str(f.type) for f in every) or any(not f.init or f.kw_only for f in fs):
        raise TypeError(
            f"@record {cls.__qualname__}: InitVar, init=False and kw_only are not supported; use @dataclass"
        )
    params = cls.__dict__["__dataclass_params__"]  # what @dataclass(frozen=...) would say
    params.init = params.repr = params.eq = True
    params.frozen = frozen
    names = tuple(f.name for f in fs)
    made: dict[str, Any] = {
        "__init__": _init(cls, fs),
        "__repr__": _repr(tuple(f.name for f in fs if f.repr)),
        "__eq__": _eq(_key(tuple(f.name for f in fs if f.compare))),
    }
    if frozen:
        made["__setattr__"], made["__delattr__"] = _frozen(cls, frozenset(names))
    for name, fn in made.items():
        if name not in own or name in ("__setattr__", "__delattr__"):  # a method the class wrote stays
            fn.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, fn)
    class_hash = own.get("__hash__", dataclasses.MISSING)
    if class_hash is dataclasses.MISSING or (class_hash is None and "__eq__" in own):  # no explicit __hash__
        hashed = tuple(f.name for f in fs if (f.compare if f.hash is None else f.hash))
        setattr(cls, "__hash__", _hash(_key(hashed)) if frozen else None)  # noqa: B010 (mypy: a method)
    if not own.get("__doc__"):  # as dataclasses writes it: the name and the signature
        import inspect

        cls.__doc__ = cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
    return cls


def _init(cls: type, fs: tuple[Field[Any], ...]) -> Callable[..., None]:
    """``__init__(self, <fields in order>)``: one compiled line that hands the values to a closure."""
    names = tuple(f.name for f in fs)
    defaulted = [f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING for f in fs]
    for f, has, before in zip(fs, defaulted, [False, *defaulted], strict=False):
        if before and not has:  # as dataclasses refuses it: the defaults would shift onto the wrong fields
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
    factories = tuple(
        (i, f.name, f.default_factory) for i, f in enumerate(fs) if f.default_factory is not dataclasses.MISSING
    )
    pairs = zip  # bound here: one global lookup less per record made

    def fill(self: Any, values: tuple[Any, ...]) -> None:
        d = self.__dict__
        d.update(pairs(names, values))
        for i, name, make in factories:
            if values[i] is _FACTORY:
                d[name] = make()

    args = ", ".join(names)
    scope: dict[str, Any] = {"_fill": fill}
    exec(f"def __init__(self, {args}):\n _fill(self, ({args}{',' if len(names) == 1 else ''}))", scope)
    init = scope["__init__"]
    defaults = [
        _FACTORY if f.default_factory is not dataclasses.MISSING else f.default
        for f in fs
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
    ]
    init.__defaults__ = tuple(defaults) or None
    init.__annotations__ = {f.name: f.type for f in fs} | {"return": None}
    init.__module__ = cls.__module__
    return init  # type: ignore[no-any-return]


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of these fields' values (always a tuple: ``attrgetter`` of one name is not)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _frozen(cls: Any, names: frozenset[str]) -> tuple[Callable[[Any, str, Any], None], Callable[[Any, str], None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__
