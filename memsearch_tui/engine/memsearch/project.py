"""Where the two memories live: the store root and the memsearch project folder."""

from __future__ import annotations

import os
from pathlib import Path

ROOT_ENV = "MEMSEARCH_TUI_MEMORY_ROOT"


def default_memory_root() -> Path:
    """``$MEMSEARCH_TUI_MEMORY_ROOT`` or ``~/memory``."""
    env = os.environ.get(ROOT_ENV)
    return Path(env).expanduser() if env else Path.home() / "memory"


def find_project(start: Path | None = None) -> Path:
    """The git root above ``start`` (memsearch's rule), else ``start`` itself."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return here


def memsearch_dir(project: Path) -> Path:
    """``<project>/.memsearch``, or ``$MEMSEARCH_DIR`` when set (as memsearch does)."""
    env = os.environ.get("MEMSEARCH_DIR")
    if env:
        p = Path(env).expanduser()
        return p if p.is_absolute() else project / p
    return project / ".memsearch"


def project_roots(project: Path) -> tuple[str, ...]:
    """Where a project's memsearch files may really live (``contained``'s roots): inside
    the project, and inside ``$MEMSEARCH_DIR`` when the user set one. A ``.memsearch``,
    ``PROJECT.md``, ``USER.md``, ``memory`` folder or day file that links anywhere else
    was put there by the repository, not the user, and is never read."""
    from memsearch_tui.engine.core.contained import real

    roots = [real(project)]
    env = os.environ.get("MEMSEARCH_DIR")
    if env:
        roots.append(real(memsearch_dir(Path(project))))
    return tuple(dict.fromkeys(roots))


def roots_for(path: Path) -> tuple[str, ...]:
    """The roots a memsearch file or folder was named under: ``project_roots`` of the
    project whose ``.memsearch`` holds it (looked up lexically, links not followed), the
    user's ``$MEMSEARCH_DIR`` when it lies there, else the folder itself (a maintenance
    ``input_dir``, a day file given by path)."""
    from memsearch_tui.engine.core.contained import real

    full = Path(os.path.abspath(os.path.expanduser(path)))
    for folder in (full, *full.parents):
        if folder.name == ".memsearch":
            return project_roots(folder.parent)
    env = os.environ.get("MEMSEARCH_DIR")
    if env and Path(os.path.abspath(os.path.expanduser(env))) in (full, *full.parents):
        return (real(env),)
    return (real(full if full.suffix != ".md" else full.parent),)
