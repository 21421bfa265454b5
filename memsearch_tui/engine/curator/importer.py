"""One-way import of an agent's built-in memory into the store; the source is only read.

Sources: a ``MEMORY.md`` (one entry per heading section, or per top-level bullet when it
has no headings), the memory section of a ``CLAUDE.md``/``AGENTS.md``/``GEMINI.md`` (the
heading that mentions "memory"), or a folder of ``.md`` files (one entry per file; a
frontmatter ``name``/``title``/``description``/``type`` is used — Claude Code's memory
files look like that; a ``MEMORY.md`` that only links to the others is skipped).

Each entry records ``source: <file>#<section>``. Importing again skips an item whose
title is already in the category or whose text is already in the store (same or nearly
the same), so repeated imports add only what is new. All items of one import are one
logged transaction: ``undo`` removes them together.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import clock
from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import InvalidInput, MemsearchError, NotFound, Refused
from memsearch_tui.engine.core.paths import category_path, inside, slugify
from memsearch_tui.engine.core.safe_io import read_capped, unusable_reason
from memsearch_tui.engine.core.secrets import find_secret, redact
from memsearch_tui.engine.curator.versions import short
from memsearch_tui.engine.store.checks import check_duplicate
from memsearch_tui.engine.store.entry import Entry, new_meta
from memsearch_tui.engine.store.store import (
    Store,
    check_content,  # size + secrets, the store's own rule
    check_place,
    clean_title,
)

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_BULLET = re.compile(r"^[-*+][ \t]+(.*)$")
_LINK_ONLY = re.compile(r"^\s*[-*+]\s+\[[^\]]+\]\([^)]+\)")
AGENT_INSTRUCTION_FILES = {"claude.md", "agents.md", "gemini.md"}
MAX_SOURCE_BYTES = 4_000_000  # one source file, read and refused before parsing past this


@dataclass
class Item:
    title: str
    body: str
    source: str
    tags: list[str]


def _sections(text: str) -> list[tuple[int, str, str]]:
    """(level, heading, text) for each heading; text runs to the next heading of any level."""
    heads = list(_HEADING.finditer(text))
    out = []
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out.append((len(m.group(1)), m.group(2).strip(), text[m.end() : end].strip("\n")))
    return out


def _bullets(text: str) -> list[str]:
    """Top-level bullets with their indented continuation lines."""
    items: list[list[str]] = []
    for line in text.splitlines():
        m = _BULLET.match(line)
        if m:
            items.append([m.group(1).strip()])
        elif items and line.startswith((" ", "\t")) and line.strip():
            items[-1].append(line.strip())
    return [" ".join(i).strip() for i in items if " ".join(i).strip()]


def parse_memory_text(text: str, source: str) -> list[Item]:
    """Items of a MEMORY.md-like text: heading sections (deepest used level), else bullets."""
    secs = [s for s in _sections(text) if s[2].strip()]
    if secs:
        level = max(lvl for lvl, _, _ in secs) if len({s[0] for s in secs}) > 1 else secs[0][0]
        items = [Item(h, t.strip() + "\n", f"{source}#{slugify(h)}", []) for lvl, h, t in secs if lvl == level]
        first = _HEADING.search(text)
        lead = text[: first.start()] if first else ""
        items += [Item(short(b, 60), b + "\n", f"{source}#bullet-{n}", []) for n, b in enumerate(_bullets(lead), 1)]
        return items
    return [Item(short(b, 60), b + "\n", f"{source}#bullet-{n}", []) for n, b in enumerate(_bullets(text), 1)]


def memory_section(text: str, where: str) -> str:
    """The section of an instructions file whose heading mentions memory (with its subsections)."""
    heads = list(_HEADING.finditer(text))
    for i, m in enumerate(heads):
        if "memory" in m.group(2).casefold() or "记忆" in m.group(2):
            level = len(m.group(1))
            end = next((h.start() for h in heads[i + 1 :] if len(h.group(1)) <= level), len(text))
            return text[m.end() : end]
    raise NotFound(f"{where}: no memory section (a heading with 'memory' in it) to import")


def _file_item(path: Path, text_bytes: bytes) -> Item | None:
    doc = fmio.parse(text_bytes, str(path))
    meta = doc.meta if doc.has_frontmatter else {}
    body = doc.body.strip()
    if not body:
        return None
    title = str(meta.get("name") or meta.get("title") or "")
    m = _HEADING.match(body)
    if not title and m and len(m.group(1)) == 1:
        title = m.group(2).strip()
    title = title or path.stem.replace("_", " ").replace("-", " ")
    if meta.get("description"):
        body = f"{meta['description']}\n\n{body}"
    tags = [str(meta["type"])] if isinstance(meta.get("type"), str) else []
    return Item(title, body + "\n", str(path), tags)


def collect(source: Path, refused: list[dict[str, str]] | None = None) -> list[Item]:
    """Read the items of a source without touching it.

    In a folder, a file whose real path (symlinks followed) leaves the folder is not read:
    it is listed in ``refused`` instead (a repository can ship ``notes.md -> ~/.ssh/id_rsa``),
    as is anything that is not a regular file (a FIFO named ``MEMORY.md`` would block the
    read forever). A source that is itself such a file is an InvalidInput saying what it is."""
    if not source.exists():
        raise NotFound(f"{source}: no such file or folder to import")
    if not source.is_dir() and (why := unusable_reason(source)):  # a FIFO would block read()
        raise InvalidInput(f"{source}: {why.removesuffix('; not read')}; nothing imported", path=str(source))
    if source.is_file():
        raw = read_capped(source, MAX_SOURCE_BYTES)  # regular file, size-capped before parsing
        text = fmio.parse(raw, str(source)).body
        if source.name.casefold() in AGENT_INSTRUCTION_FILES:
            text = memory_section(text, str(source))
        return parse_memory_text(text, str(source))
    items: list[Item] = []
    for path in sorted(source.rglob("*.md")):
        rel = path.relative_to(source)
        if any(p.startswith(".") for p in rel.parts) or path.is_dir():
            continue
        why = unusable_reason(path)  # a FIFO, socket, device, loop or dangling link: said, not read
        if why:
            if refused is not None:
                refused.append({"title": rel.as_posix(), "source": str(path), "reason": why})
            continue
        if not inside(source, path):
            if refused is not None:
                refused.append({"title": rel.as_posix(), "source": str(path), "reason": "links outside the folder"})
            continue
        raw = read_capped(path, MAX_SOURCE_BYTES)
        if path.name.casefold() == "memory.md":
            text = fmio.parse(raw, str(path)).body
            lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
            if lines and sum(bool(_LINK_ONLY.match(ln)) for ln in lines) >= len(lines) / 2:
                continue  # an index of the other files
            items += parse_memory_text(text, str(path))
        elif (item := _file_item(path, raw)) is not None:
            items.append(item)
    return items


def import_path(
    store: Store, source: Path, category: str = "imported", *, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """``import PATH``: new entries for every item not already in the store;
    ``progress(done, total)`` after each item (a UI's progress bar)."""
    store.require()
    source = Path(source).expanduser().absolute()
    if inside(store.root, source):
        raise Refused(
            f"{source}: is inside the memory root; import reads an agent's own memory from elsewhere",
            code="unsafe_path",
        )
    category_path(store.root, category)  # refuses unsafe names before anything is read
    check_place("category", category)
    skipped: list[dict[str, str]] = []
    items = collect(source, skipped)
    imported: list[str] = []
    with store.edit("import", f"import {source} into {category}") as ed:
        titles = {s.title.casefold(): s.id for s in ed.fresh(category).in_category(category)}
        for n, item in enumerate(items, 1):
            if progress is not None:
                progress(n, len(items))
            reason = _check(store, ed, item, titles)
            if reason:
                if find_secret(f"{item.title}\n{item.body}\n{item.source}"):  # the anchor is made from the heading
                    shown, where = "(withheld: holds a secret)", item.source.split("#", 1)[0] + "#(withheld)"
                else:
                    shown, where = item.title, item.source
                skipped.append({"title": shown, "source": where, "reason": redact(reason)})
                continue
            title = clean_title(item.title)
            entry_id = ed.free_id(f"{category}/{slugify(title)}")
            meta = new_meta(title, clock.today(), tags=item.tags, importance=None, expires=None, related=[])
            meta["source"] = item.source
            entry = Entry(entry_id, fmio.ParsedFile(meta, item.body), store.path_of(entry_id))
            ed.write_entry(entry)
            titles[title.casefold()] = entry_id
            imported.append(entry_id)
        if imported:
            ed.touch_category(category)
    return {"source": str(source), "category": category, "imported": imported, "skipped": skipped}


def _check(store: Store, ed: Any, item: Item, titles: dict[str, str]) -> str:
    """Why an item is not imported ('' when it is)."""
    try:
        title = clean_title(item.title)
    except InvalidInput as exc:
        return exc.message
    if title.casefold() in titles:
        return f"already there: {titles[title.casefold()]}"
    try:
        meta = {"title": title, "tags": item.tags, "source": item.source}
        where = item.source.split("#", 1)[0]  # the anchor is made from the heading: never echoed
        check_content(where, Entry(item.source, fmio.ParsedFile(meta, item.body)))
        check_duplicate(store.root, ed.cat, item.body)
    except MemsearchError as exc:
        return exc.message
    return ""
