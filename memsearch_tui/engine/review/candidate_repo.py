"""The skill candidates folder as memsearch keeps it: a git repository of its own.

memsearch 0.4.23 keeps ``.memsearch/skill-candidates/`` as a self-contained repository
(``skills.py``: ``git init -q`` on first use, then ``git add -A`` and ``git commit -q -m
MSG`` as ``memsearch <memsearch@localhost>`` after every change). Its ``skills install``
commits without checking that the repository exists, so in a folder without ``.git`` git
finds the *enclosing* project repository and ``add -A`` commits the whole project, untracked
``.env`` included. So before we write a candidate the folder is made a repository exactly
as memsearch makes it, and after the write it is committed the way memsearch commits it.

Our own git calls name the repository explicitly (``--git-dir``/``--work-tree``) and drop
``GIT_*`` variables from the environment, so they can never reach another repository; a
candidates folder (or its ``.git``) that is a symlink, or a ``.git`` that is not a folder
(a ``gitdir:`` file could point anywhere), is refused before anything is written.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.review.skill_candidates import candidates_root

IDENTITY = ("-c", "user.name=memsearch", "-c", "user.email=memsearch@localhost")  # memsearch's own
_SAFE = ("-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false")  # no hooks, no signing prompt
GIT_TIMEOUT_S = 30.0


def prepare(project: Path) -> Path:
    """The candidates folder, made a git repository as memsearch's ``_ensure_git`` does.

    Raises ``Refused`` when the folder or its ``.git`` is not what memsearch would create
    (a symlink, a ``.git`` file): memsearch would then commit somewhere else."""
    root = candidates_root(project)
    check(root)
    if not (root / ".git").exists():
        root.mkdir(parents=True, exist_ok=True)
        _run(root, "init", "-q", plain=True)
    return root


def check(root: Path) -> None:
    """Refuse a candidates folder in which memsearch's git would leave the folder."""
    for path in (root.parent, root, root / ".git"):
        if path.is_symlink():
            raise Refused(f"{path} is a symlink; memsearch's skill commits would land elsewhere, so nothing is written")
    git = root / ".git"
    if git.exists() and not git.is_dir():
        raise Refused(f"{git} is not a folder; memsearch's skill commits would land elsewhere, so nothing is written")


def is_repository(root: Path) -> bool:
    """True when ``root`` has its own ``.git`` folder (memsearch then commits inside it)."""
    git = root / ".git"
    return git.is_dir() and not git.is_symlink() and not root.is_symlink()


def commit(root: Path, message: str) -> None:
    """``git add -A`` and commit in the candidates repository only (memsearch's ``_git_commit``:
    no empty commits). Does nothing when the folder is not its own repository or git is missing."""
    if not is_repository(root):
        return
    _run(root, "add", "-A")
    status = _run(root, "status", "--porcelain")
    if status is not None and status.stdout.strip():
        _run(root, "commit", "-q", "-m", message)


def distill_message(created: int, updated: int, platform: str) -> str:
    """A commit message in memsearch's style for a distillation (``skills.distill``:
    ``distill: add N, evolve M candidate skill(s) [platform]``), its count spelled out."""
    parts = [f"add {created}"] * bool(created) + [f"evolve {updated}"] * bool(updated)
    if not parts:
        return f"distill: refresh candidate metadata [{platform}]"
    noun = "candidate skill" if created + updated == 1 else "candidate skills"
    return f"distill: {', '.join(parts)} {noun} [{platform}]"


def _run(root: Path, *args: str, plain: bool = False) -> subprocess.CompletedProcess[str] | None:
    """One git command pinned to ``root``'s repository (``plain``: ``git init`` in ``root``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    where = () if plain else (f"--git-dir={root / '.git'}", f"--work-tree={root}")
    try:
        return subprocess.run(
            ["git", *IDENTITY, *_SAFE, *where, *args],
            cwd=str(root),
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=GIT_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired):  # no git: memsearch cannot commit anywhere either
        return None
