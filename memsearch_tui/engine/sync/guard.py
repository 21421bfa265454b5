"""What a remote may put in the store, and what this device may send: one rule both ways.

A remote is trusted with nothing. Every name that comes from git (a tree entry, a rename)
passes :func:`~memsearch_tui.engine.core.contained.relpath_reason` (no absolute path, no
``..``, no ``.git`` component in any spelling), is a plain file (no symbolic link, no
gitlink), and is not a file git itself would act on (``.gitattributes`` could name a filter
or a diff driver, ``.gitmodules`` a submodule). A remote tree with any such entry is refused
whole, before anything is written, naming the entries. Our own commits are built by the
same rule (:mod:`.commit`), so a tree one device sends always passes on the other.
"""

from __future__ import annotations

import functools
import os
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from memsearch_tui.engine.core.contained import relpath_reason, write_reason
from memsearch_tui.engine.core.errors import Refused
from memsearch_tui.engine.core.paths import TRASH
from memsearch_tui.engine.core.state_files import STATE_DIR

GIT_ACTS_ON = frozenset({".gitattributes", ".gitmodules"})
_PRIVATE = frozenset({TRASH, STATE_DIR})  # never synced: a remote's ``.Trash`` would write into ours on a Mac
_MODES = {"120000": "a symbolic link", "160000": "a gitlink (submodule)", "040000": "a folder"}
SHOWN = 5  # entries named in one message
MAX_FILES = 100_000  # files in one tree: a 10,000-entry store with its versions holds a few times that
MAX_TREE_BYTES = 512 * 1024 * 1024  # bytes in one tree: all of it is read into memory to merge


@functools.lru_cache(maxsize=1 << 16)  # a sync asks about each path several times (trees, walks)
def entry_reason(rel: str, mode: str = "100644") -> str | None:
    """Why a tree entry may not be taken into the store (or sent from it), or None."""
    if mode in _MODES:
        return _MODES[mode]
    why = relpath_reason(rel)
    if why is not None:
        return why
    name = rel.rsplit("/", 1)[-1]
    if name.lower() in GIT_ACTS_ON:
        return f"a {name} file, which git would act on"
    top = rel.split("/", 1)[0]
    if fold(top) in _PRIVATE and top not in _PRIVATE:  # one folder on a Mac or Windows
        return f"{top!r}: this device's private folder in another spelling"
    return None


def fold(path: str) -> str:
    """What a case-insensitive, normalising file system (macOS, Windows) makes of a name."""
    return unicodedata.normalize("NFC", path).casefold()


def clashes(paths: Iterable[str]) -> list[tuple[str, str]]:
    """Paths that would be one file on another device, or a file where a folder is: two
    spellings differing only in case or Unicode form (``a.md``/``A.md``, NFC/NFD ``é``),
    which a Mac or Windows device writes into one file, and a file named like a folder
    another path needs (``x.md`` and ``x.md/y.md``). Each clash once, named with its twin."""
    files = sorted(paths)
    spelt: dict[str, str] = {}
    folders: set[str] = set()
    out: list[tuple[str, str]] = []
    for rel in files:
        parts = rel.split("/")
        for i in range(1, len(parts) + 1):
            name = "/".join(parts[:i])
            if i < len(parts):
                folders.add(name)
            twin = spelt.setdefault(fold(name), name)
            if twin != name:
                out.append((rel, f"the same name as {twin!r} on a Mac or Windows"))
                break
    out += [(rel, "a file where another path needs a folder") for rel in files if rel in folders]
    return out


def over_bounds(sizes: dict[str, int]) -> list[tuple[str, str]]:
    """The whole tree refused when it holds more files or bytes than a store ever does."""
    total = sum(sizes.values())
    if len(sizes) > MAX_FILES:
        return [("(the whole tree)", f"{len(sizes):,} files, over the {MAX_FILES:,}-file bound")]
    if total > MAX_TREE_BYTES:
        return [("(the whole tree)", f"{total:,} bytes, over the {MAX_TREE_BYTES:,}-byte bound")]
    return []


def named(bad: list[tuple[str, str]]) -> str:
    """``path (why), …`` for a message, at most :data:`SHOWN` of them."""
    shown = [f"{p!r} ({why})" for p, why in bad[:SHOWN]]
    more = f" and {len(bad) - SHOWN} more" if len(bad) > SHOWN else ""
    return ", ".join(shown) + more


def refuse_tree(where: str, bad: list[tuple[str, str]]) -> None:
    """Refuse a remote tree holding any entry :func:`entry_reason` refuses: nothing is written."""
    if bad:
        raise Refused(
            f"{where}: refused, nothing written: the remote holds entries a memory store never has: {named(bad)}; "
            "remove them from the remote (or point sync at a remote you trust)",
            code="unsafe_remote",
        )


def refuse_writes(root: Path, rels: list[str]) -> None:
    """Refuse a merge that would write through a symbolic link (or to an unsafe name)."""
    bad = [(r, why) for r in rels if (why := write_reason(root, r)) is not None]
    if bad:
        raise Refused(
            f"{root}: sync refused, nothing written: {named(bad)}; replace the link by a plain folder or file, "
            "then sync again",
            code="unsafe_path",
        )


def planted_git_dirs(root: Path) -> list[str]:
    """Folders (or files) named ``.git`` (any spelling) below the store's own: a ``git status`` run
    there by a person would obey that folder's config (``core.fsmonitor`` runs a command)."""
    found = []
    for dirpath, dirnames, files in os.walk(root, followlinks=False):
        top = Path(dirpath) == Path(root)
        for f in files:  # a ``.git`` file ("gitdir: …") points git at another folder's config
            if f.rstrip(". ").lower() in (".git", "git~1") and not top:
                found.append(Path(dirpath, f).relative_to(root).as_posix())
        for d in list(dirnames):
            if d.rstrip(". ").lower() in (".git", "git~1") and not (top and d == ".git"):
                found.append(Path(dirpath, d).relative_to(root).as_posix())
                dirnames.remove(d)
            elif top and d == ".git":
                dirnames.remove(d)
    return sorted(found)


def refuse_clashes(root: Path, files: Iterable[str]) -> None:
    """Refuse a merge whose result holds two spellings of one name, or a file where a folder
    must be (this device's new ``x.md``, the other's ``x.md/y.md``): nothing written."""
    bad = clashes(files)
    if bad:
        raise Refused(
            f"{root}: sync refused, nothing written: the two devices' files clash: {named(bad)}; rename one "
            "(`memsearch-tui move`), then sync again",
            code="name_clash",
        )


def refuse_planted(root: Path) -> None:
    found = planted_git_dirs(root)
    if found:
        raise Refused(
            f"{root}: a git folder inside the store ({', '.join(found[:SHOWN])}); it may hold a command git would "
            "run there. Look at it and remove it (`rm -rf` it; the store never has one), then sync again",
            code="unsafe_path",
        )
