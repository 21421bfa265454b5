"""Every data file inside the package is declared as package data, so a wheel install has
what an editable install reads (themes, the skill, the stylesheet, the prompts)."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "memsearch_tui"


def test_every_data_file_is_declared() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["memsearch_tui"]
    data = [
        p.relative_to(PACKAGE)
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix not in {".py", ".pyc", ".typed"} and "__pycache__" not in p.parts
    ]
    assert data, "the package ships data files"
    undeclared = [str(p) for p in data if not any(p.match(g) for g in globs)]
    assert undeclared == []
    assert Path("skills/memsearch-tui/SKILL.md") in data
