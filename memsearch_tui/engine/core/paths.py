"""Ids, slugs and the safety rules for where the store may read and write.

An id is a path under the memory root without ``.md`` (``projects/web/alpha``). Ids and
categories may not climb out of the root (``..``, absolute paths, symlinks resolving
outside) and may not name the store's own files. The store refuses to use an agent's own
memory (``MEMORY.md``, a workspace ``memory/`` folder) as its root: it only imports from
those, one way.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from memsearch_tui.engine.core.errors import InvalidInput, Refused

INDEX = "INDEX.md"
CONFIG = "config.md"
ARCHIVED = "archived"
TRASH = ".trash"
VERSIONS = ".versions"
RESERVED_STEMS = {"index", "config"}
# Names Windows reserves for devices, with or without an extension (``aux.md``, ``COM1.txt``):
# a store synced to a Windows machine could neither hold nor delete such a file or folder.
WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", "conin$", "conout$", "clock$"}
    | {f"{d}{n}" for d in ("com", "lpt") for n in [*"0123456789", "\u00b9", "\u00b2", "\u00b3"]}
)
# Unicode categories a name must not hold: controls (ESC, DEL, C1), format characters (bidi
# overrides and isolates U+202A–202E, U+2066–2069, zero-width characters, soft hyphen),
# surrogates, private use, unassigned, and line/paragraph separators.
_UNSHOWABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
UNSHOWABLE = _UNSHOWABLE  # Unicode categories no name may hold (core.contained too)
AGENT_FILES = {"memory.md", "claude.md", "agents.md", "gemini.md"}


def versions_dir(root: Path, entry_id: str) -> Path:
    """Where the kept older versions of ``entry_id`` live: ``.versions/<id>/vN.md``."""
    return Path(root, VERSIONS, *entry_id.split("/"))


#: A slug's most UTF-8 bytes. A file name is at most 255 bytes, and a slug's longest names
#: are its trash copy's atomic temp file: ``.<slug>-NN~N.md.<8>.tmp``, 30 bytes or so more.
#: 80 Chinese characters (240 bytes) failed "File name too long"; English keeps its 80.
SLUG_BYTES = 200


def slugify(title: str, max_len: int = 80) -> str:
    """File-name slug of a title: lowercase ASCII words and CJK characters, joined by '-',
    at most ``max_len`` characters and :data:`SLUG_BYTES` bytes."""
    text = unicodedata.normalize("NFKC", title).strip().lower()
    words = re.findall(r"\w+", text)  # \w is Unicode-aware: keeps 用户偏好, é, ß …
    slug = "-".join(words).replace("_", "-")
    slug = re.sub(r"-{2,}", "-", slug).strip("-")[:max_len]
    slug = slug.encode("utf-8")[:SLUG_BYTES].decode("utf-8", "ignore").strip("-")  # never half a character
    if not slug or slug in RESERVED_STEMS or slug == ARCHIVED or slug in WINDOWS_DEVICES:
        slug = f"{slug or 'entry'}-entry" if slug else "entry"
    return slug


def normalise_id(raw: str) -> str:
    """The one spelling of an id every command accepts: Unicode NFC, no surrounding
    whitespace, ``/`` separators, no ``.md`` suffix (``a/b.md.md`` is ``a/b``: a doubled
    suffix once trashed the file but dropped the wrong catalog row)."""
    value = unicodedata.normalize("NFC", str(raw)).strip().replace("\\", "/")
    while value.lower().endswith(".md"):
        value = value[:-3].rstrip()
    while value.startswith("./"):
        value = value[2:]
    return value.rstrip("/")


def id_key(entry_id: str) -> str:
    """What two spellings of one id share (case and Unicode form ignored), for matching
    an id typed by a person against the ids on disk."""
    return unicodedata.normalize("NFC", normalise_id(entry_id)).casefold()


def check_parts(value: str, what: str) -> list[str]:
    """Split an id or category into parts, refusing anything that could escape or collide."""
    if not value or value.strip() != value:
        raise Refused(f"{what} {value!r}: empty or padded with spaces", code="unsafe_path")
    if value.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", value):
        raise Refused(
            f"{what} {value!r}: absolute paths are not allowed; use a path under the memory root", code="unsafe_path"
        )
    parts = value.replace("\\", "/").split("/")
    for part in parts:
        if part in ("", ".", ".."):
            raise Refused(f"{what} {value!r}: '..', '.' and empty parts are not allowed", code="unsafe_path")
        if part.startswith("."):
            raise Refused(f"{what} {value!r}: names starting with '.' are reserved", code="unsafe_path")
        if "\x00" in part:
            raise Refused(f"{what} {value!r}: contains a NUL byte", code="unsafe_path")
    return parts


def check_portable_name(what: str, value: str) -> None:
    """Refuse an id or category that would show wrong or not be a file everywhere: a control,
    bidi or invisible character (it reaches folder names and INDEX.md, where ESC sequences
    drive the terminal and U+202E turns ``exe.md`` around), a Windows device name
    (``con``, ``aux``, ``nul``, ``com1`` …, with any extension), or a part ending in a dot
    or space (Windows drops those, so two names would become one)."""
    for ch in value:
        cat = unicodedata.category(ch)
        if cat in _UNSHOWABLE:
            raise Refused(
                f"{what} {value!r}: holds the invisible or control character U+{ord(ch):04X}; "
                "names become folders, files and INDEX.md rows and must show as they are",
                code="unsafe_name",
            )
    for part in value.replace("\\", "/").split("/"):
        stem = part.split(".", 1)[0].rstrip(" ").casefold()
        if stem in WINDOWS_DEVICES:
            raise Refused(
                f"{what} {value!r}: '{part}' is a device name on Windows (CON, PRN, AUX, NUL, COM1–9, LPT1–9); "
                "choose another name",
                code="unsafe_name",
            )
        if part.endswith((".", " ")):
            raise Refused(
                f"{what} {value!r}: '{part}' ends in a dot or a space; choose another name", code="unsafe_name"
            )


_JOINERS = frozenset("\u200c\u200d")  # ZWNJ (Persian, Indic words) and ZWJ (emoji sequences)


def check_title_chars(title: str) -> None:
    """A title is shown in INDEX.md rows, lists and the terminal: no control, bidi or
    invisible characters in it (the two joiners that words and emoji need excepted)."""
    for ch in title:
        if unicodedata.category(ch) in _UNSHOWABLE and ch not in _JOINERS:
            raise InvalidInput(
                f"title {title!r}: holds the invisible or control character U+{ord(ch):04X}; "
                "titles are shown in INDEX.md and the terminal and must show as they are"
            )


def check_category_parts(category: str) -> list[str]:
    """A category path: safe parts, none of them a file name (``notes/MEMORY.md``)."""
    parts = check_parts(category, "category")
    for part in parts:
        if part.lower().endswith(".md"):
            raise Refused(f"category {category!r}: '{part}' looks like a file, not a folder", code="unsafe_path")
        if part == ARCHIVED:
            raise Refused(
                f"category {category!r}: 'archived' is the archive folder, not a category", code="unsafe_path"
            )
    return parts


def inside(root: Path, path: Path) -> bool:
    """True when ``path`` (symlinks resolved) stays within ``root``."""
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        return False


def entry_path(root: Path, entry_id: str) -> Path:
    """The file of ``entry_id``, refusing unsafe ids and symlinks out of the root."""
    parts = check_parts(entry_id.removesuffix(".md"), "id")
    name = parts[-1].lower()
    if name in RESERVED_STEMS:
        raise Refused(f"id {entry_id!r}: {parts[-1]}.md is the store's own file, not an entry", code="unsafe_path")
    if f"{name}.md" in AGENT_FILES:
        raise Refused(f"id {entry_id!r}: the store never writes an agent's own {parts[-1]}.md", code="agent_memory")
    path = root.joinpath(*parts[:-1], parts[-1] + ".md")
    try:
        path.resolve()
    except (RuntimeError, OSError):  # RuntimeError: a symlink loop (Python < 3.13)
        raise InvalidInput(f"{path}: symlink loop; not read", path=str(path)) from None
    if not inside(root, path):
        raise Refused(f"id {entry_id!r}: resolves outside the memory root {root}", code="unsafe_path")
    return path


def category_path(root: Path, category: str) -> Path:
    """The folder of ``category``, refusing unsafe paths and symlinks out of the root."""
    path = root.joinpath(*check_category_parts(category))
    if not inside(root, path):
        raise Refused(f"category {category!r}: resolves outside the memory root {root}", code="unsafe_path")
    return path


def check_memory_root(root: Path) -> None:
    """Refuse an agent's own memory as the store root (we only import from those)."""
    root = Path(root).expanduser().absolute()
    home = Path.home().absolute()
    name = root.name.lower()
    if name in AGENT_FILES or (root.exists() and root.is_file()):
        raise Refused(
            f"{root}: is a file (an agent's own memory file?); the memory root must be a folder", code="agent_memory"
        )
    try:
        resolved = root.resolve()
    except (RuntimeError, OSError):  # RuntimeError: a symlink loop (Python < 3.13)
        raise InvalidInput(f"{root}: symlink loop; not usable as the memory root", path=str(root)) from None
    for agent_dir in (home / ".claude", home / ".codex", home / ".gemini"):
        if inside(agent_dir, resolved):
            raise Refused(
                f"{root}: is inside {agent_dir}, an agent's own memory; use `import` instead", code="agent_memory"
            )
    if ".memsearch" in resolved.parts:
        raise Refused(
            f"{root}: is memsearch's own folder; the store needs a root of its own (default ~/memory)",
            code="agent_memory",
        )
    if root == home / "memory":
        return
    if (root / INDEX).exists():
        return  # already a store
    if any((root / f).exists() for f in ("MEMORY.md", "memory.md")):
        raise Refused(
            f"{root}: holds an agent's MEMORY.md; use `import {root}` into a store root instead", code="agent_memory"
        )
    if _holds_journals(root):
        raise Refused(
            f"{root}: holds daily journals (YYYY-MM-DD.md), an agent's memory folder; "
            f"use `import {root}` into a store root instead",
            code="agent_memory",
        )
    if name == "memory" and _is_workspace(root.parent):
        raise Refused(
            f"{root}: is a workspace's memory/ folder; use `import {root}` into a store root instead",
            code="agent_memory",
        )


def _holds_journals(folder: Path) -> bool:
    try:
        return any(re.fullmatch(r"\d{4}-\d{2}-\d{2}\.md", p.name) for p in folder.iterdir())
    except OSError:
        return False


def _is_workspace(folder: Path) -> bool:
    """A project folder: a git work tree's top, or holding an agent's instructions or memory."""
    if any((folder / f).exists() for f in ("MEMORY.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md")):
        return True
    return (folder / ".git").exists()


def utf8_name(name: str) -> bool:
    """False for a file name whose bytes are not UTF-8 (Python hands it over with surrogate
    escapes): it cannot be an entry id or category, and SQLite, JSON and INDEX.md could not
    hold it, so every walker of the store leaves such a file alone."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def rmdir_up(folder: Path, stop: Path) -> None:
    """Remove ``folder`` and empty parents up to (not including) ``stop``."""
    folder = folder.absolute()
    while folder != stop.absolute() and stop.absolute() in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
