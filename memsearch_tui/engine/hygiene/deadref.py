"""``dead-reference``: a project path named in a memory that the project no longer has.

The project's files come from ``git ls-files`` (bounded in time and count), or, outside
git, a bounded walk of the tree. A memory's text is searched for path-shaped words
(``src/auth/login.py``, ``docs/setup/``) whose first part is a top-level name of the
project — so ``and/or``, ``client/server`` or another project's paths are not taken for
this one's — and a path found neither as a file nor as a folder is reported with the
nearest existing path (rapidfuzz).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memsearch_tui.engine.hygiene.records import Finding
from memsearch_tui.engine.hygiene.sources import Unit

MAX_FILES = 200_000
GIT_SECONDS = 5.0
WALK_SECONDS = 3.0
SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache", ".memsearch"})
_PATH = re.compile(r"(?<![\w/.~:@$%-])(?:\./)?((?:[A-Za-z0-9_][\w.-]*/)+(?:[\w.-]*[\w-])?)")
_URLISH = re.compile(r"^(?:www\.|[\w-]+\.(?:com|org|io|net|dev)/)")


@dataclass(frozen=True)
class Tree:
    files: frozenset[str]
    dirs: frozenset[str]
    top: frozenset[str]
    how: str  # "git", "walk", or "" when the project could not be listed


def project_tree(project: Path) -> Tree:
    """The project's files and folders (relative, ``/``-separated)."""
    files = _git_files(project)
    how = "git"
    if files is None:
        files, how = _walk(project), "walk"
    dirs = {str(Path(f).parent.as_posix()) for f in files}
    for d in list(dirs):
        parts = d.split("/")
        dirs.update("/".join(parts[:i]) for i in range(1, len(parts)))
    dirs.discard(".")
    top = {f.split("/", 1)[0] for f in files}
    return Tree(frozenset(files), frozenset(dirs), frozenset(top), how if files else "")


def _git_files(project: Path) -> list[str] | None:
    if not (project / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(project), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            timeout=GIT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    names = done.stdout.split(b"\0", MAX_FILES)[:MAX_FILES]
    return [n.decode("utf-8", "replace") for n in names if n]


def _walk(project: Path) -> list[str]:
    import time

    out: list[str] = []
    end = time.monotonic() + WALK_SECONDS
    for folder, dirs, names in os.walk(project):  # symlinked folders are not entered
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        rel = os.path.relpath(folder, project)
        for n in names:
            out.append(n if rel == "." else f"{Path(rel).as_posix()}/{n}")
        if len(out) >= MAX_FILES or time.monotonic() > end:
            break
    return out[:MAX_FILES]


def references(text: str, tree: Tree) -> Iterable[tuple[int, str]]:
    """(line offset, path) of each path-shaped word of ``text`` rooted in the project."""
    fence = False
    for n, line in enumerate(text.splitlines()):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        for m in _PATH.finditer(line):
            ref = m.group(1).rstrip(".-")
            if "://" in line[max(0, m.start() - 3) : m.start() + 3] or _URLISH.match(ref):
                continue
            if ref.split("/", 1)[0] in tree.top and "/" in ref.rstrip("/"):
                yield n, ref


def dead_references(units: Iterable[Unit], tree: Tree) -> list[Finding]:
    out = []
    for u in units:
        for off, ref in references(u.text, tree):
            path = ref.rstrip("/")
            if path in tree.files or path in tree.dirs:
                continue
            line = u.line0 + off
            near = nearest(path, tree)
            ev = [f"{ref} (line {line}) is not in the project ({tree.how}: {len(tree.files)} files)"]
            ev.append(f"nearest existing path: {near}" if near else "no existing path is close")
            fix = f"replace {ref} with {near}" if near else f"remove or correct {ref}"
            out.append(Finding("dead-reference", (u.ref, ref), tuple(ev), fix))
    return out


def nearest(path: str, tree: Tree) -> str:
    """The existing file (or folder) whose path is closest to ``path``, or ""."""
    from rapidfuzz import fuzz, process

    base = path.rsplit("/", 1)[-1]
    pool = tree.files if "." in base else tree.dirs
    hit = process.extractOne(path, pool, scorer=fuzz.ratio, score_cutoff=60)
    return str(hit[0]) if hit else ""
