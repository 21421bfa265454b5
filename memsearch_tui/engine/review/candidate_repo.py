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

The repository's own ``.git/config`` is as writable as the candidates in it: an agent that
can write files could set ``core.fsmonitor`` or a filter driver there, and our ``git add``
would run its command. So every call forces the command-running settings off (``-c``:
fsmonitor, hooks, external diff, pager, auto gc), and a config that sets any key memsearch's
``git init`` does not write (beyond identity, remotes and branches) is refused with the
key's name before anything is written: a filter driver's name is the repo's own, so it
cannot be forced off.
"""

from __future__ import annotations

import fnmatch
import os
import subprocess
from pathlib import Path

from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.review.skill_candidates import candidates_root

IDENTITY = ("-c", "user.name=memsearch", "-c", "user.email=memsearch@localhost")  # memsearch's own
_FORCED = (
    "core.hooksPath=/dev/null",  # no hooks
    "commit.gpgsign=false",  # no signing program
    "core.fsmonitor=false",  # no file-system monitor command
    "core.untrackedCache=false",
    "diff.external=",  # no external diff program
    "core.pager=cat",
    "gc.auto=0",  # no background gc (and its hook)
    "maintenance.auto=false",
)
_SAFE = tuple(arg for setting in _FORCED for arg in ("-c", setting))
# What memsearch's `git init -q` writes, plus the identity and remotes a person may add.
_ALLOWED_KEYS = (
    "core.repositoryformatversion",
    "core.filemode",
    "core.bare",
    "core.logallrefupdates",
    "core.ignorecase",
    "core.precomposeunicode",
    "core.symlinks",
    "extensions.objectformat",
    "init.defaultbranch",
    "user.name",
    "user.email",
    "remote.*.url",
    "remote.*.fetch",
    "branch.*.remote",
    "branch.*.merge",
)
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
    if git.is_dir():
        check_config(git)


def check_config(git: Path) -> None:
    """Refuse a repository whose own config could make git run a command (or read another
    config, or another repository's): only the keys memsearch's ``git init`` writes pass."""
    if (git / "commondir").exists():
        raise Refused(
            f"{git / 'commondir'}: the candidates repository borrows another's config; nothing is written",
            code="unsafe_config",
        )
    config = git / "config"
    if not config.exists():
        return
    listed = _git_config_names(config)
    if listed is None:
        raise Refused(f"{config}: git cannot read this config; nothing is written", code="unsafe_config")
    odd = [key for key in listed if not any(fnmatch.fnmatchcase(key, allowed) for allowed in _ALLOWED_KEYS)]
    if odd:
        shown = ", ".join(sorted(set(odd))[:5])
        raise Refused(
            f"{config}: sets {shown}, which memsearch's candidates repository never has (git could run a "
            f"command from it); remove it (`git config --file {config} --unset KEY`) and try again",
            code="unsafe_config",
        )


def _git_config_names(config: Path) -> list[str] | None:
    """The keys ``config`` sets (its includes not followed), lower-cased as git compares them."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    try:
        out = subprocess.run(
            ["git", "config", "--file", str(config), "--no-includes", "--name-only", "--list", "-z"],
            env=env,
            capture_output=True,
            check=False,
            timeout=GIT_TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    names = out.stdout.decode("utf-8", "replace").split("\0")
    return [_lower_key(name) for name in names if name]


def _lower_key(name: str) -> str:
    """git's keys are case-insensitive in their section and name, not in a subsection."""
    section, _, rest = name.partition(".")
    sub, _, key = rest.rpartition(".")
    return ".".join(part for part in (section.lower(), sub, key.lower()) if part)


def is_repository(root: Path) -> bool:
    """True when ``root`` has its own ``.git`` folder (memsearch then commits inside it)."""
    git = root / ".git"
    return git.is_dir() and not git.is_symlink() and not root.is_symlink()


def commit(root: Path, message: str) -> None:
    """``git add -A`` and commit in the candidates repository only (memsearch's ``_git_commit``:
    no empty commits). Does nothing when the folder is not its own repository or git is missing."""
    if not is_repository(root):
        return
    try:
        check_config(root / ".git")  # changed since prepare: the file is written, but git is not run
    except Refused:
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
