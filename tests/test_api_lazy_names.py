"""The API's names resolve on first use (PEP 562), in the package and in ``engine.api.types``
through the one lookup, ``engine.api.lazy_attr``: each name is the object its module defines,
kept once looked up, and an unknown name is an ``AttributeError`` naming the module."""

from __future__ import annotations

import importlib

import pytest

from memsearch_tui.engine import api
from memsearch_tui.engine.api import types


@pytest.mark.parametrize(("module", "where"), [(api, api._WHERE), (types, types._MADE_BY)], ids=["api", "types"])
def test_each_lazy_name_is_its_modules_object_and_kept(module, where):
    for name, home in where.items():
        value = getattr(module, name)
        assert value is getattr(importlib.import_module(f"memsearch_tui.engine.api.{home}"), name)
        assert vars(module)[name] is value  # kept: the next lookup is a plain global
    with pytest.raises(AttributeError, match=rf"module '{module.__name__}' has no attribute 'NoSuchRecord'"):
        _ = module.NoSuchRecord
