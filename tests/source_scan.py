"""The package's syntax trees, parsed once per worker, for the tests that scan its source.

Four tests read every module of ``memsearch_tui`` (optional plurals, class names defined
twice, a second search-hit shape, a face naming an engine module): each parsed its ~310
modules again, ~1 s of CPU a time. ``SOURCE_SCAN`` puts them in one xdist work unit
(``--dist loadgroup``), so one worker parses the package once for all of them.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

SOURCE_SCAN = pytest.mark.xdist_group("package-source")


@functools.cache
def source_tree(path: Path) -> ast.Module:
    """``path``'s syntax tree (shared: read it, never change it)."""
    return ast.parse(path.read_text(encoding="utf-8"))
