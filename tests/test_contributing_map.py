"""CONTRIBUTING.md's map of the packages names every package there is, and the layers
diagram names every engine package the import-linter layers contract does (issue 32)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _packages() -> list[str]:
    pkg = ROOT / "memsearch_tui"
    faces = [f"{p.name}/" for p in sorted(pkg.iterdir()) if (p / "__init__.py").is_file() and p.name != "engine"]
    engine = [f"engine/{p.name}/" for p in sorted((pkg / "engine").iterdir()) if (p / "__init__.py").is_file()]
    return faces + engine


def test_the_map_names_every_package() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    table = text[text.index("## The packages") : text.index("## Where a change goes")]
    missing = [p for p in _packages() if f"| `{p}` |" not in table and p != "skills/"]
    assert not missing, f"CONTRIBUTING.md's package map lacks {missing}"


def test_the_diagram_names_every_layer() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    diagram = text[text.index("## The layers") : text.index("## The packages")]
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c.get("containers") == ["memsearch_tui.engine"]]
    names = [n.strip() for layer in layers for n in layer.split("|")]
    assert [n for n in names if f"engine/{n}" not in diagram] == []
