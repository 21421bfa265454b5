"""Which files are searched, and how each becomes chunks with context.

Two memories: the store (every live entry under the memory root) and the project's
memsearch folder (daily journals, PROJECT.md, USER.md). Each file belongs to a *scope*:
``"store"`` for entries, the project folder for the rest, so several projects can share
one store and one vector collection without evicting each other's journals.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..project import memsearch_dir
from .chunking import Chunk, chunk_id, chunk_markdown, split_frontmatter

STORE_SCOPE = "store"
_JOURNAL_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}.*\.md$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


@dataclass(frozen=True)
class SourceFile:
    """A file to index: where it is, what it is, and which scope owns it."""

    path: Path
    kind: str  # entry | journal | project | user
    scope: str
    entry_id: str = ""

    @property
    def key(self) -> str:
        return str(self.path)

    @property
    def source(self) -> str:
        """``store`` or ``journal`` (PROJECT.md/USER.md count as the journal side)."""
        return "store" if self.kind == "entry" else "journal"


def store_files(memory_root: Path) -> Iterator[SourceFile]:
    """Every live store entry (active/expired/archived; never .trash or INDEX.md)."""
    for entry_id, path in _entry_paths(Path(memory_root)):
        yield SourceFile(Path(path), "entry", STORE_SCOPE, entry_id)


def _entry_paths(root: Path) -> Iterator[tuple[str, Path]]:
    try:
        from ..store import Store
    except ImportError:  # the store module not landed yet: same rules, walked here
        yield from _walk_entries(root)
        return
    if not root.is_dir():
        return
    yield from Store(root).entry_paths()


def _walk_entries(root: Path) -> Iterator[tuple[str, Path]]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        rel = Path(dirpath).relative_to(root).as_posix()
        prefix = "" if rel == "." else rel + "/"
        for name in filenames:
            if name.endswith(".md") and not name.startswith(".") and name != "INDEX.md" and not (prefix == "" and name == "config.md"):
                yield prefix + name[:-3], Path(dirpath) / name


def project_files(project: Path) -> Iterator[SourceFile]:
    """Journals plus PROJECT.md and USER.md of the project's memsearch folder."""
    base = memsearch_dir(Path(project))
    scope = str(Path(project).resolve())
    for name, kind in (("PROJECT.md", "project"), ("USER.md", "user")):
        if (base / name).is_file():
            yield SourceFile(base / name, kind, scope)
    mem = base / "memory"
    try:
        names = sorted(os.listdir(mem))
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return
    for name in names:
        if _JOURNAL_NAME.match(name):
            yield SourceFile(mem / name, "journal", scope)


def all_files(memory_root: Path, project: Path | None) -> list[SourceFile]:
    files = list(store_files(memory_root))
    if project is not None:
        files.extend(project_files(project))
    return files


def chunk_file(src: SourceFile, text: str, *, cap: int, overlap: int, context_turns: int = 1) -> list[Chunk]:
    """Chunks of one file, with ids and embedding text (title/tags/heading/neighbour context)."""
    meta, fm_lines = split_frontmatter(text) if src.kind == "entry" else ({}, 0)
    body = "\n".join(text.split("\n")[fm_lines:]) if fm_lines else text
    chunks = chunk_markdown(body, cap=cap, overlap=overlap, first_line=fm_lines + 1)
    title = str(meta.get("title") or "") if meta else ""
    tags = meta.get("tags") if isinstance(meta.get("tags"), list) else []
    prefix = _prefix(src, title, tags)
    seen: dict[str, int] = {}
    for i, ch in enumerate(chunks):
        ctx = ""
        if src.kind == "journal" and context_turns and ch.level >= 3:
            near = [c for c in chunks[max(0, i - context_turns) : i + context_turns + 1] if c is not ch and c.level >= 3]
            ctx = "\n".join(_clean(c.text) for c in near)
        ch.meta = {"title": title, "tags": [str(t) for t in tags], "context": ctx, "prefix": prefix}
        own = _clean(ch.text)
        ch.embed_text = "\n".join(p for p in (prefix, _heading_words(ch.heading), own, ctx) if p)
        ch.id = chunk_id(src.key, ch.embed_text, seen)
    return chunks


def _prefix(src: SourceFile, title: str, tags: list) -> str:
    if src.kind == "entry":
        bits = [title or src.entry_id.rsplit("/", 1)[-1], src.entry_id.rsplit("/", 1)[0] if "/" in src.entry_id else ""]
        if tags:
            bits.append("tags: " + ", ".join(str(t) for t in tags))
        return " | ".join(b for b in bits if b)
    if src.kind == "journal":
        return src.path.stem[:10]
    return src.path.stem


def _heading_words(heading: str) -> str:
    return " > ".join(h.lstrip("#").strip() for h in heading.split(" > ")) if heading else ""


def _clean(text: str) -> str:
    """Chunk text without HTML comments (journal anchors) and heading markers."""
    text = _COMMENT.sub("", text)
    return "\n".join(ln.lstrip("#").strip() if ln.startswith("#") else ln for ln in text.split("\n") if ln.strip())
