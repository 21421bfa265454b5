"""Which files the literal-search cache holds, and how it reads them.

Split from :mod:`.grep_index` (the cache's database and its freshness): the store's own
rules for what is a searchable entry, the project's few files (PROJECT.md, USER.md, the
daily journals), the walk below a folder, and the bounded read of one file. Kept free of
heavy imports: ``search -s grep`` imports it on the fast path.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from memsearch_tui.engine.core.contained import READ_LIMIT, within
from memsearch_tui.engine.core.paths import CONFIG, INDEX, utf8_name
from memsearch_tui.engine.core.safe_io import read_bounded


def signature(st: os.stat_result) -> str:
    """What changes whenever the file does (inode, ctime, mtime, size)."""
    return f"{st.st_ino}:{st.st_ctime_ns}:{st.st_mtime_ns}:{st.st_size}"


def read_lowered(path: str) -> str | None:
    """The file's text lower-cased (undecodable bytes replaced) plus a final newline, or
    None if unreadable.

    The newline makes every occurrence of a two-character needle the start of a trigram,
    which is how :meth:`.grep_query.GrepQueries.matches` finds those through the index (needles are
    stripped, so the extra newline is never part of a match).
    """
    try:  # a FIFO named *.md must not block the search, a 4 GB file must not be read
        return read_bounded(path, READ_LIMIT).decode("utf-8", "replace").lower() + "\n"
    except OSError:
        return None


def store_file(rel: str, st: os.stat_result) -> tuple[str, str] | None:
    """("entry", entry id) if the file at ``rel`` (under the root) is a searchable entry.

    The store's own rules: ``*.md`` except INDEX.md (and config.md at the top), nothing
    under a dot-folder.
    """
    parts = rel.split(os.sep)
    name = parts[-1]
    if not name.endswith(".md") or name == INDEX or (len(parts) == 1 and name == CONFIG):
        return None
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)) or any(p.startswith(".") for p in parts):
        return None
    return "entry", "/".join(parts)[:-3]


def inside_if_link(root: str, path: str, st: os.stat_result) -> bool:
    """A symlink counts only when it resolves inside the root: it must not leak a file
    from elsewhere into search."""
    return not stat.S_ISLNK(st.st_mode) or within((root,), path)


def walk_tree(top: str, rel_top: str) -> Iterator[tuple[str, str, int, os.stat_result | None]]:
    """(path, path relative to the root, inode, lstat or None for a folder) below ``top``."""
    stack = [(top, f"{rel_top}{os.sep}" if rel_top else "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            it = os.scandir(folder)
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            continue
        with it:
            for de in it:
                if de.name.startswith(".") or not utf8_name(de.name):
                    continue
                if de.is_dir(follow_symlinks=False):
                    stack.append((de.path, f"{prefix}{de.name}{os.sep}"))
                    yield de.path, f"{prefix}{de.name}", de.inode(), None
                elif de.name.endswith(".md"):
                    try:
                        yield de.path, f"{prefix}{de.name}", de.inode(), de.stat(follow_symlinks=False)
                    except OSError:
                        continue


def project_listing(project: Path) -> Iterator[tuple[str, str, os.stat_result]]:
    """PROJECT.md, USER.md and the daily journals of a project's ``.memsearch`` folder."""
    from memsearch_tui.engine.memsearch.project import memsearch_dir, project_roots
    from memsearch_tui.engine.memsearch.sync_copies import is_day_file

    base = str(memsearch_dir(Path(project)))
    roots = project_roots(Path(project))
    names = [("PROJECT.md", "project"), ("USER.md", "user")]
    mem = os.path.join(base, "memory")
    try:
        listed = sorted(os.listdir(mem))
        here = set(listed)
        names += [(os.path.join("memory", n), "journal") for n in listed if is_day_file(n, here)]
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        pass
    # the containment rule: nothing linking out of the project. Resolving each of 10,000
    # journal days took 1.4 s of every literal search (issue 37): a file that is no link
    # lies where its folder's resolved path says, so only the folders and links resolve
    inside = {folder: within(roots, folder) for folder in (base, mem)}
    for rel, kind in names:
        path = os.path.join(base, rel)
        try:
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                if not within(roots, path):
                    continue
                st = os.stat(path)
            elif not inside[os.path.dirname(path)]:
                continue
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            yield path, kind, st
