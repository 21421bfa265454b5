"""Split Markdown at headings into chunks with line ranges, and build their embedding text.

Each section runs from a heading to the next heading; a section longer than ``cap``
characters is cut at line boundaries with ``overlap`` lines repeated at the start of the
next piece. A section with no text besides its heading is skipped (nothing to find in it).
Lines are 1-based and inclusive, counted in the original file (frontmatter included).

The text that is *embedded* carries context the raw chunk lacks: the entry title and tags,
the heading path (``# 2024-05-01 > ## Session 14:02 > ### 14:05``) and, for journal
turns, the neighbouring turns (``context_turns`` either side). The text that is *shown*
and keyword-indexed is the chunk itself, so a hit's lines and snippet stay honest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, TypedDict

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_ANCHOR = re.compile(r"^\s*<!--.*-->\s*$")


class ChunkMeta(TypedDict, total=False):
    """What :func:`~memsearch_tui.engine.search.sources.chunk_file` records about a chunk
    (empty until it has): the fields the manifest stores and the keyword index reads."""

    title: str
    tags: list[str]
    context: str  # neighbouring turns' text (journals)
    prefix: str
    keywords: str  # keyword-index only words (a journal day as "October 13 2023")
    own: str  # the chunk's own text as embedded
    own_key: str  # cache key of ``own``
    ctx_keys: list[str]  # own_keys of the neighbours mixed into its vector


@dataclass
class Chunk:
    """One searchable piece of a file."""

    heading: str  # the heading path, outermost first, joined with " > "
    start: int  # first line, 1-based
    end: int  # last line, inclusive
    text: str  # the chunk's own lines (what is shown and keyword-indexed)
    embed_text: str = ""  # what is embedded (text plus context)
    id: str = ""
    level: int = 0
    meta: ChunkMeta = field(default_factory=ChunkMeta)


def split_frontmatter(text: str, where: str = "frontmatter") -> tuple[dict[str, Any], int]:
    """(frontmatter dict, number of lines it spans) — ({}, 0) when there is none.

    Parsed by the store's one bounded loader (:func:`frontmatter_io.load_meta`): a
    frontmatter the store cannot read (malformed, a 5,000-digit integer, nested too deep)
    raises InvalidInput naming ``where``, and the indexer skips the file with that reason.
    """
    if not text.startswith("---"):
        return {}, 0
    lines = text.split("\n")
    if lines[0].strip() != "---":
        return {}, 0
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            from memsearch_tui.engine.core.frontmatter_io import load_meta  # YAML: not on the literal path

            return load_meta("\n".join(lines[1:i]), where), i + 1
    return {}, 0


def chunk_markdown(text: str, *, cap: int = 1500, overlap: int = 2, first_line: int = 1) -> list[Chunk]:
    """Chunks of ``text`` (which starts at file line ``first_line``), split at headings."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    sections: list[tuple[list[str], int, int, int]] = []  # (heading path, level, start idx, end idx excl)
    path: list[tuple[int, str]] = []
    start, level, in_fence = 0, 0, False
    heads: list[str] = []
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        m = None if in_fence else _HEADING.match(line)
        if m:
            if i > start:
                sections.append((heads, level, start, i))
            level = len(m.group(1))
            path = [p for p in path if p[0] < level] + [(level, m.group(2))]
            heads = [f"{'#' * lv} {title}" for lv, title in path]
            start = i
    if len(lines) > start:
        sections.append((heads, level, start, len(lines)))
    chunks: list[Chunk] = []
    for heads, lvl, s, e in sections:
        body = [ln for ln in lines[s:e] if ln.strip() and not _HEADING.match(ln) and not _ANCHOR.match(ln)]
        if not body:
            continue
        for ps, pe in _pieces(lines, s, e, cap, overlap):
            chunks.append(
                Chunk(
                    heading=" > ".join(heads),
                    start=ps + first_line,
                    end=pe - 1 + first_line,
                    text="\n".join(lines[ps:pe]).strip("\n"),
                    level=lvl,
                )
            )
    return chunks


def _pieces(lines: list[str], s: int, e: int, cap: int, overlap: int) -> list[tuple[int, int]]:
    """Line ranges [a, b) of at most ``cap`` chars (a single longer line stays whole)."""
    out: list[tuple[int, int]] = []
    a = s
    while a < e:
        size, b = 0, a
        while b < e and (b == a or size + len(lines[b]) + 1 <= cap):
            size += len(lines[b]) + 1
            b += 1
        out.append((a, b))
        if b >= e:
            break
        a = max(b - overlap, a + 1)
    return out


def chunk_id(source_key: str, embed_text: str, seen: dict[str, int]) -> str:
    """Stable id from the file and the embedded text (an occurrence counter separates repeats).

    Unchanged chunks of an edited file keep their id, so they are not embedded again; the
    line numbers are stored beside the id and simply updated.
    """
    import hashlib  # here, not at the top: a search that re-chunks nothing never loads OpenSSL

    h = hashlib.sha1(f"{source_key}\0{embed_text}".encode("utf-8", "surrogatepass")).hexdigest()[:24]
    n = seen.get(h, 0)
    seen[h] = n + 1
    return h if n == 0 else f"{h}-{n}"


def content_hash(data: bytes) -> str:
    import hashlib

    return hashlib.sha1(data).hexdigest()
