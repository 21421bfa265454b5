"""Which files are searched, and how each becomes chunks with context.

Two memories: the store (every live entry under the memory root) and the project's
memsearch folder (daily journals, PROJECT.md, USER.md). Each file belongs to a *scope*:
``"store"`` for entries, the project folder for the rest, so several projects can share
one store and one vector collection without evicting each other's journals.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch_tui.engine.core.contained import within
from memsearch_tui.engine.core.paths import INDEX, inside, utf8_name
from memsearch_tui.engine.core.record import record
from memsearch_tui.engine.core.safe_io import unusable_reason
from memsearch_tui.engine.memsearch.project import memsearch_dir, project_roots
from memsearch_tui.engine.memsearch.sync_copies import is_day_file
from memsearch_tui.engine.search.scopes import STORE_SCOPE, project_scope

if TYPE_CHECKING:
    from memsearch_tui.engine.search.chunking import Chunk

_COMMENT = re.compile(r"<!--.*?-->", re.S)


@record
class SourceFile:
    """A file to index: where it is, what it is, and which scope owns it.

    The path is kept as a string (pathlib costs more than the stat at 10k files) together
    with the stat taken while listing, so a no-op check stats each file once.
    """

    file: str
    kind: str  # entry | journal | project | user
    scope: str
    entry_id: str = ""
    st: os.stat_result | None = field(default=None, compare=False, repr=False)

    @property
    def path(self) -> Path:
        return Path(self.file)

    @property
    def key(self) -> str:
        return self.file

    def stat(self) -> os.stat_result:
        return self.st if self.st is not None else os.stat(self.file)

    @property
    def source(self) -> str:
        """``store`` or ``journal`` (PROJECT.md/USER.md count as the journal side)."""
        return "store" if self.kind == "entry" else "journal"


def store_files(memory_root: Path, under: str = "") -> Iterator[SourceFile]:
    """Every live store entry (active/expired/archived; never .trash or INDEX.md), or those
    below category ``under``.

    Uses the store's own walker (``Store.entry_paths`` rules) in its string-path form.
    None when the root holds no store (no ``INDEX.md``, as :class:`.Store` refuses it): a
    ``--memory-root`` mistyped as ``/tmp`` or ``~`` is not walked whole (401k files once),
    and the search says so in a note (``engine.api.literal.no_store``).
    """
    from memsearch_tui.engine.store.walk import walk_entry_paths

    root = Path(memory_root)
    if not os.path.isfile(os.path.join(root, INDEX)):
        return
    for entry_id, path, st in walk_entry_paths(root, under):
        if stat.S_ISLNK(st.st_mode) and not inside(root, Path(path)):
            continue  # a link out of the root must not leak a file from elsewhere into search
        yield SourceFile(path, "entry", STORE_SCOPE, entry_id, st)


def changed_entries(memory_root: Path, paths: Iterable[Path]) -> tuple[set[str], list[SourceFile]] | None:
    """What a write of ``paths`` changed in the store's listing: the keys of those that
    may be entry files, and the ones that are entries now (as :func:`store_files` lists
    them, by the same rules), so a search patches its listing and syncs just those files
    instead of re-walking their categories (a category of hundreds of entries re-listed
    and re-statted on every write made a busy server's searches slow). INDEX.md files and
    the state and trash folders are never searched and are left out. None when a path is
    outside the store's categories (a journal day, a file at the root): re-list everything."""
    base = Path(memory_root)
    root = base.absolute()
    keys: set[str] = set()
    fresh: list[SourceFile] = []
    for path in paths:
        try:
            rel = Path(path).absolute().relative_to(root)
        except ValueError:
            return None
        if rel.name == INDEX or any(part.startswith(".") for part in rel.parts):
            continue
        if len(rel.parts) < 2:
            return None
        if not rel.name.endswith(".md") or not all(utf8_name(part) for part in rel.parts):
            continue
        key = os.sep.join([str(base), *rel.parts])  # the walker's form of the path
        keys.add(key)
        st = _entry_stat(base, rel.parts, key)
        if st is not None:
            fresh.append(SourceFile(key, "entry", STORE_SCOPE, rel.as_posix()[:-3], st))
    return keys, fresh


def _entry_stat(base: Path, parts: tuple[str, ...], key: str) -> os.stat_result | None:
    """The stat the walker would list ``key`` with, or None when it would not list it: a
    folder on the way that is a link (never entered), or not a regular file (or a link to
    one inside the root)."""
    folder = str(base)
    try:
        for part in parts[:-1]:
            folder = f"{folder}{os.sep}{part}"
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                return None
        st = os.lstat(key)
    except OSError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return st if unusable_reason(key) is None and inside(base, Path(key)) else None
    return st if stat.S_ISREG(st.st_mode) else None


def project_files(project: Path) -> Iterator[SourceFile]:
    """Journals plus PROJECT.md and USER.md of the project's memsearch folder, each inside
    ``project_roots`` (the containment rule: a link out of the project is not indexed,
    searched or shown)."""
    base = memsearch_dir(Path(project))
    scope = project_scope(project)
    allowed = project_roots(Path(project))
    if not within(allowed, base):
        return
    for name, kind in (("PROJECT.md", "project"), ("USER.md", "user")):
        path = base / name
        if path.is_file() and (not path.is_symlink() or within(allowed, path)):
            yield SourceFile(str(path), kind, scope)
    mem = base / "memory"
    if not within(allowed, mem):
        return
    try:
        entries = sorted((e.name, e.is_symlink()) for e in os.scandir(mem))
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return
    prefix = str(mem) + os.sep
    names = {name for name, _ in entries}
    for name, link in entries:
        if is_day_file(name, names) and (not link or within(allowed, prefix + name)):
            yield SourceFile(prefix + name, "journal", scope)


def iter_files(memory_root: Path, project: Path | None) -> Iterator[SourceFile]:
    """The store's entries, then the project's journals and notes, as they are walked."""
    yield from store_files(memory_root)
    if project is not None:
        yield from project_files(project)


def all_files(memory_root: Path, project: Path | None) -> list[SourceFile]:
    return list(iter_files(memory_root, project))


def searched_files(memory_root: Path, project: Path | None, category: str | None, source: str) -> list[SourceFile]:
    """The files a search covers: ``source`` store|journal|all, store entries under ``category``."""
    return searched_of(all_files(memory_root, project if source != "store" else None), category, source)


def searched_of(files: list[SourceFile], category: str | None, source: str) -> list[SourceFile]:
    """The files of a listing (``all_files``) that a search with ``category`` and ``source`` covers."""
    if source == "store":
        files = [f for f in files if f.kind == "entry"]
    if source == "journal":
        files = [f for f in files if f.kind != "entry"]
    if category:
        files = [f for f in files if f.kind == "entry" and f.entry_id.startswith(category + "/")]
    return files


def chunk_file(src: SourceFile, text: str, *, cap: int, overlap: int, context_turns: int = 1) -> list[Chunk]:
    """Chunks of one file, with ids and embedding text (title/tags/heading/neighbour context).

    InvalidInput when an entry's frontmatter cannot be read (the indexer skips the file)."""
    from memsearch_tui.engine.search.chunking import (  # not on the literal search path
        chunk_id,
        chunk_markdown,
        split_frontmatter,
    )

    meta, fm_lines = split_frontmatter(text, str(src.file)) if src.kind == "entry" else ({}, 0)
    body = "\n".join(text.split("\n")[fm_lines:]) if fm_lines else text
    chunks = chunk_markdown(body, cap=cap, overlap=overlap, first_line=fm_lines + 1)
    title = str(meta.get("title") or "") if meta else ""
    raw_tags = meta.get("tags")
    tags: list[Any] = raw_tags if isinstance(raw_tags, list) else []
    prefix = _prefix(src, title, tags)
    seen: dict[str, int] = {}
    owns = [_own_text(src, prefix, ch) for ch in chunks]
    keys = [own_key(t) for t in owns]
    for i, ch in enumerate(chunks):
        near: list[int] = []
        if src.kind == "journal" and context_turns and ch.level >= 3:
            near = [
                j
                for j in range(max(0, i - context_turns), min(len(chunks), i + context_turns + 1))
                if j != i and chunks[j].level >= 3
            ]
        ctx = "\n".join(_clean(chunks[j].text) for j in near)
        ch.meta = {
            "title": title,
            "tags": [str(t) for t in tags],
            "context": ctx,
            "prefix": prefix,
            "keywords": _date_words(prefix) if src.kind == "journal" else "",
            "own": owns[i],
            "own_key": keys[i],
            "ctx_keys": [keys[j] for j in near],
        }
        ch.embed_text = "\n".join(p for p in (owns[i], ctx) if p)
        ch.id = chunk_id(src.key, ch.embed_text, seen)
    return chunks


def own_key(text: str) -> str:
    """The cache key of a chunk's own text: the same text anywhere shares one model vector."""
    import hashlib

    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


_NO_MEANING = re.compile(r"(Session )?\d{1,2}:\d{2}(:\d{2})?")  # a journal heading that only tells the time


def _own_text(src: SourceFile, prefix: str, ch: Chunk) -> str:
    """What the model embeds for one chunk: prefix, heading path, the chunk's own lines.

    A journal turn leaves out what carries no meaning but costs model time: its heading line
    repeated as the first line, and heading parts that are a bare time of day (``### 14:05``,
    ~11 % of a turn's tokens), a session's start time (``## Session 14:02``, ~7 %) or the
    day again (``# 2024-05-01``: the prefix already names it). The day stays, once. Measured
    on LoCoMo and the time set: recall no lower (benchmarks/README.md, sessions 9 and 15).
    """
    heads = _heading_words(ch.heading)
    body = _clean(ch.text)
    if src.kind == "journal":
        parts = heads.split(" > ") if heads else []
        if parts and body.split("\n", 1)[0] == parts[-1]:
            body = body.split("\n", 1)[1] if "\n" in body else ""
        heads = " > ".join(p for p in parts if p != prefix and not _NO_MEANING.fullmatch(p))
    return "\n".join(p for p in (prefix, heads, body) if p)


def _prefix(src: SourceFile, title: str, tags: list[Any]) -> str:
    if src.kind == "entry":
        bits = [title or src.entry_id.rsplit("/", 1)[-1], src.entry_id.rsplit("/", 1)[0] if "/" in src.entry_id else ""]
        if tags:
            bits.append("tags: " + ", ".join(str(t) for t in tags))
        return " | ".join(b for b in bits if b)
    if src.kind == "journal":
        return os.path.basename(src.file)[:10]
    return os.path.basename(src.file).removesuffix(".md")


_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def _date_words(day: str) -> str:
    """A journal day as people write it in a question: ``2023-10-13`` → ``October 13 2023``.

    Keyword-index only (the embedded text is unchanged): "what did she show on October
    13, 2023?" then matches that day's turns by their date, which the file name holds."""
    m = _ISO_DAY.match(day)
    if not m or not 1 <= int(m.group(2)) <= 12:
        return ""
    return f"{_MONTHS[int(m.group(2)) - 1]} {int(m.group(3))} {m.group(1)}"


def _heading_words(heading: str) -> str:
    return " > ".join(h.lstrip("#").strip() for h in heading.split(" > ")) if heading else ""


def _clean(text: str) -> str:
    """Chunk text without HTML comments (journal anchors) and heading markers."""
    text = _COMMENT.sub("", text)
    return "\n".join(ln.lstrip("#").strip() if ln.startswith("#") else ln for ln in text.split("\n") if ln.strip())
