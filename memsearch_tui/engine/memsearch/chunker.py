"""memsearch 0.4.23's Markdown chunker, line for line (``memsearch/chunker.py``).

memsearch is not a runtime dependency, yet after a forget or redact we must delete exactly
the chunks of *its* index that its next ``memsearch index`` would delete: those whose
``(start_line, end_line, content_hash)`` no longer comes out of chunking the file. That
needs its chunk boundaries, so this is its algorithm (headings split sections; a section
over ``max_chunk_size`` splits at paragraphs, then lines, then sentences, with
``overlap_lines`` carried over). ``tests/interop`` compares it with memsearch's own on
the same texts.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

_HEADING_RE = re.compile(r"^(#{1,6})\s+(.+)$", re.MULTILINE)
_HTML_COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)
_MIN_MEANINGFUL_LEN = 2
_SENTENCE_END_RE = re.compile(
    r"(?:……|…|[。\uFF01\uFF1F\uFF1B]\s*|[.!?;](?=\s|$|[\u4E00-\u9FFF\u3040-\u30FF\uAC00-\uD7AF])\s*)"
)


@dataclass(frozen=True)
class MemsearchChunk:
    """One chunk's identity in memsearch's index (its id adds the source and the model)."""

    start_line: int
    end_line: int
    content_hash: str


def content_hash(content: str) -> str:
    """memsearch's ``Chunk.content_hash``: sha256 of the stored content, 16 hex digits."""
    return hashlib.sha256(content.encode()).hexdigest()[:16]


def chunk_ids(text: str, *, max_chunk_size: int = 1500, overlap_lines: int = 2) -> set[MemsearchChunk]:
    """The chunks memsearch's ``chunk_markdown`` makes of ``text``."""
    return {MemsearchChunk(s, e, content_hash(c)) for c, s, e in chunk_markdown(text, max_chunk_size, overlap_lines)}


def decode(data: bytes) -> str:
    """memsearch's ``read_utf8_text_replace``."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace")


def _meaningful(text: str) -> bool:
    stripped = _HTML_COMMENT_RE.sub("", text)
    body = "\n".join(ln for ln in stripped.splitlines() if not _HEADING_RE.match(ln)).strip()
    return len(body) >= _MIN_MEANINGFUL_LEN


def chunk_markdown(text: str, max_chunk_size: int, overlap_lines: int) -> list[tuple[str, int, int]]:
    """``(content, start_line, end_line)`` of every chunk, as memsearch's ``chunk_markdown``."""
    lines = text.split("\n")
    heads = [i for i, line in enumerate(lines) if _HEADING_RE.match(line)]
    sections: list[tuple[int, int]] = []
    if not heads or heads[0] > 0:
        sections.append((0, heads[0] if heads else len(lines)))
    sections += [(h, heads[n + 1] if n + 1 < len(heads) else len(lines)) for n, h in enumerate(heads)]
    out: list[tuple[str, int, int]] = []
    for start, end in sections:
        section = "\n".join(lines[start:end]).strip()
        if not section or not _meaningful(section):
            continue
        if len(section) <= max_chunk_size:
            out.append((section, start + 1, end))
        else:
            out += _split_large_section(lines[start:end], start, max_chunk_size, overlap_lines)
    return out


def _split_large_section(lines: list[str], base: int, max_size: int, overlap: int) -> list[tuple[str, int, int]]:
    """memsearch's ``_split_large_section``: paragraph > line > sentence/character breaks."""
    out: list[tuple[str, int, int]] = []

    def emit_bounded(content: str, start: int, end: int) -> None:
        content = content.strip()
        if not content:
            return
        parts = _split_long_text(content, max_size) if len(content) > max_size else [content]
        out.extend((p.strip(), start, end) for p in parts if p.strip())

    current: list[str] = []
    current_start = 0
    for i, line in enumerate(lines):
        current.append(line)
        text = "\n".join(current)
        paragraph_break = line.strip() == "" and i + 1 < len(lines)
        if len(text) >= max_size and paragraph_break:
            emit_bounded(text, base + current_start + 1, base + i + 1)
            current = current[max(0, len(current) - overlap) :]
            current_start = i + 1 - len(current)
            continue
        if len(text) >= max_size and not paragraph_break and len(current) > 1:
            current.pop()
            emit_bounded("\n".join(current).strip(), base + current_start + 1, base + i)
            current = [*current[max(0, len(current) - overlap) :], line]
            current_start = i - len(current) + 1
            continue
        if len(text) >= max_size and len(current) == 1:
            out.extend(
                (p.strip(), base + current_start + 1, base + i + 1)
                for p in _split_long_text(text, max_size)
                if p.strip()
            )
            current, current_start = [], i + 1
            continue
        if i == len(lines) - 1:
            emit_bounded(text, base + current_start + 1, base + i + 1)
            current = []
    if current and "\n".join(current).strip():
        emit_bounded("\n".join(current), base + current_start + 1, base + len(lines))
    return out


def _split_long_text(text: str, max_size: int) -> list[str]:
    parts: list[str] = []
    while len(text) > max_size:
        best = -1
        for m in _SENTENCE_END_RE.finditer(text, 0, max_size):
            best = m.end()
        cut = best if best > 0 else max_size
        parts.append(text[:cut])
        text = text[cut:]
    if text:
        parts.append(text)
    return parts
