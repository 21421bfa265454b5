"""Every data file inside the package is declared as package data, so a wheel install has
what an editable install reads (themes, the skill, the stylesheet, the prompts)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

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


@pytest.mark.slow
def test_the_wheel_ships_the_themes_and_the_app_loads_them(tmp_path: Path) -> None:
    """Build the wheel as a release would (``pip wheel`` and ``python -m build`` call the
    project's PEP 517 backend; called here directly, without pip's ~1.4 s of CPU), read its
    file list, install it into a temp folder and load the built-in themes from there (not
    from the source tree)."""
    import subprocess
    import sys
    import zipfile

    backend = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["build-backend"]
    build = subprocess.run(
        [sys.executable, "-c", f"import sys, {backend} as b; b.build_wheel(sys.argv[1])", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = tmp_path.glob("memsearch_tui-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    themes = sorted(p.name for p in (REPO / "themes").glob("*.toml"))
    assert themes and [n for n in names if n.startswith("memsearch_tui/themes/")] == [
        f"memsearch_tui/themes/{t}" for t in themes
    ]
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)  # what pip install puts in site-packages
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from memsearch_tui.tui.themes import BUILTIN_DIR, load_themes\n"
        "found, problems = load_themes([BUILTIN_DIR])\n"
        "print(BUILTIN_DIR); print(' '.join(t.name for t in found)); print(problems)"
    )
    out = subprocess.run([sys.executable, "-c", probe, str(target)], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    where, loaded, problems = out.stdout.splitlines()
    assert Path(where) == target / "memsearch_tui" / "themes"
    assert loaded.split() == [t.removesuffix(".toml") for t in themes] and problems == "[]"
