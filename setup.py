"""One build step pyproject.toml cannot say: the wheel carries the top-level ``themes/``.

The theme files live at the top of the repository (``themes/``), where a person looks for
them; the package keeps ``package-dir = {"" = "."}`` so an editable install stays a plain
path in a ``.pth`` file (a ``package-dir`` mapping would make it an import hook, ~10 ms on
every command). So a build copies ``themes/*.toml`` into ``memsearch_tui/themes/`` of the
wheel, and the app reads them from there, or from ``themes/`` in a source tree.
``tests/test_package_data.py`` builds the wheel and loads a theme from it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

THEMES = Path(__file__).resolve().parent / "themes"


class BuildWithThemes(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "memsearch_tui" / "themes"
        target.mkdir(parents=True, exist_ok=True)
        for theme in sorted(THEMES.glob("*.toml")):
            shutil.copyfile(theme, target / theme.name)


setup(cmdclass={"build_py": BuildWithThemes})
