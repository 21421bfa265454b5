"""Claude Code's ``@path`` imports in CLAUDE.md, and the nested CLAUDE.md files of a project.

Read from Claude Code 2.1.197 (its bundled JS; docs/agent-memory.md quotes it): an import
is ``@`` at the start of a line or after a space, followed by a path (``\\ `` escapes a
space; a ``#fragment`` is dropped) that starts with ``./``, ``~/``, ``/`` or a letter,
digit, ``.``, ``_`` or ``-``; text in code blocks, code spans and HTML comments imports
nothing. The path is taken relative to the importing file. Imports nest, but a file at
depth :data:`MAX_DEPTH` (the top file is depth 0) is not loaded; a file already loaded is
not loaded again (a cycle ends there). A project file's import outside the project is
loaded only after the person approves external imports in Claude Code; we never follow one
(nor a user file's import outside the home folder), and name it instead.

A CLAUDE.md in a subfolder of the project is not loaded at start: Claude Code reads it
when it works on files in that folder. :func:`nested` lists them, bounded.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from memsearch_tui.engine.core.contained import read_inside, within
from memsearch_tui.engine.core.errors import MemsearchError

MAX_DEPTH = 5  # Claude Code: h5(..., depth) returns nothing once depth >= 5
MAX_IMPORTS = 200  # imports followed per listing, all files together
READ_BYTES = 4_194_304  # Claude Code skips a CLAUDE.md over 4 MiB
NESTED_DEPTH = 6  # subfolder levels searched for nested CLAUDE.md
NESTED_FOLDERS = 3000  # folders visited, at most
SKIP_FOLDERS = frozenset({"node_modules", "__pycache__", "venv", "target", "dist", "build"})

_IMPORT = re.compile(r"(?:^|\s)@((?:[^\s\\]|\\ )+)")
_FENCE = re.compile(r"^( {0,3})(```+|~~~+)[^\n]*\n.*?(?:^\1\2[^\n]*$|\Z)", re.M | re.S)
_SPAN = re.compile(r"(`+)[^`]*?\1")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def import_paths(text: str, importer: Path) -> list[Path]:
    """The files ``text`` (the content of ``importer``) imports, in order, each once."""
    text = _COMMENT.sub("", _SPAN.sub("", _FENCE.sub("", text)))
    found: dict[Path, None] = {}
    for m in _IMPORT.finditer(text):
        ref = m.group(1).split("#", 1)[0].replace("\\ ", " ")
        if not ref or not _is_path(ref):
            continue
        if ref.startswith("~/"):
            path = Path.home() / ref[2:]
        else:
            path = importer.parent / ref
        found[Path(os.path.normpath(path))] = None
    return list(found)


def _is_path(ref: str) -> bool:
    if ref.startswith(("./", "~/")) or (ref.startswith("/") and ref != "/"):
        return True
    return not ref.startswith("@") and not re.match(r"[#%^&*()]+", ref) and bool(re.match(r"[a-zA-Z0-9._-]", ref))


def follow(top: Path, roots: tuple[str, ...], seen: set[str], budget: list[int]) -> Iterator[tuple[Path, str | None]]:
    """Every file ``top`` imports, directly or through others, as (path, None) when the
    host loads it or (path, why not) when it does not or we may not read it. ``seen``:
    real paths already listed (shared across the listing: each file once); ``budget``: how
    many imports may still be followed."""
    stack = [(top, 0)]
    while stack:
        path, depth = stack.pop()
        try:
            text = read_inside(roots, path, READ_BYTES, seconds=2.0).decode("utf-8", "replace")
        except (OSError, MemsearchError):  # named when it is listed itself; an import of it is not followed
            continue
        children = []
        for child in import_paths(text, path):
            if not os.path.isfile(child):  # "@someone" in prose names no file: the host ignores it too
                continue
            real = os.path.realpath(child)
            if real in seen:
                continue  # already listed: a cycle, or two files importing one
            seen.add(real)
            if budget[0] <= 0:
                yield child, f"{child}: over {MAX_IMPORTS} imports listed; not read"
                continue
            budget[0] -= 1
            if not within(roots, child):
                yield (
                    child,
                    f"{child}: imported by {path} from outside {roots[0]}; not followed (Claude Code asks first)",
                )
            elif depth + 1 >= MAX_DEPTH:
                yield child, f"{child}: imported {depth + 1} levels deep; Claude Code stops at {MAX_DEPTH}, not loaded"
            else:
                yield child, None
                children.append((child, depth + 1))
        stack.extend(reversed(children))


def nested(project: Path) -> Iterator[Path]:
    """Each CLAUDE.md in a subfolder of ``project`` (dot-folders, dependency and build
    folders skipped, linked folders never entered), breadth first, bounded."""
    queue, visited = [(Path(project), 0)], 0
    while queue and visited < NESTED_FOLDERS:
        folder, depth = queue.pop(0)
        visited += 1
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            if depth > 0 and e.name == "CLAUDE.md":
                yield Path(e.path)
            elif depth < NESTED_DEPTH and _enter(e):
                queue.append((Path(e.path), depth + 1))


def _enter(e: os.DirEntry[str]) -> bool:
    """A real (not linked) folder that is neither hidden nor dependencies or build output."""
    return e.is_dir(follow_symlinks=False) and not e.name.startswith(".") and e.name not in SKIP_FOLDERS
