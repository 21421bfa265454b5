"""Each class name means one thing in the package (issue 32): no class, and no type alias
(``Progress = Callable[[int, int], None]``), is defined under the same name in two
modules of ``memsearch_tui/`` — a reader who meets ``Entry`` or ``SyncState`` knows which
one it is. Names a client sees (MCP schema titles) are pinned in ``tests/mcp/``."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from tests.source_scan import SOURCE_SCAN, source_tree

PACKAGE = Path(__file__).resolve().parents[1] / "memsearch_tui"
ALIAS = re.compile(r"_?[A-Z][a-z0-9]\w*")  # CamelCase: a type's name, not a CONSTANT


def _names(tree: ast.Module) -> set[str]:
    """Classes anywhere in the module, and module-level CamelCase assignments (type aliases)."""
    found = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    body = list(tree.body)
    for node in tree.body:  # a TYPE_CHECKING block's aliases count too
        if isinstance(node, ast.If):
            body += node.body + node.orelse
    for node in body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        found |= {t.id for t in targets if isinstance(t, ast.Name) and ALIAS.fullmatch(t.id)}
    return found


def doubled() -> dict[str, list[str]]:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        for name in _names(source_tree(path)):
            where[name].append(path.relative_to(PACKAGE).as_posix())
    return {name: mods for name, mods in sorted(where.items()) if len(mods) > 1}


@SOURCE_SCAN
def test_no_class_or_alias_name_is_defined_in_two_modules() -> None:
    assert doubled() == {}
