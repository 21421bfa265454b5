"""The ``grep`` strategy: a literal, case-insensitive scan of the files themselves.

No index, no model: right for small memories and always up to date. An ASCII query is
matched on raw bytes with a case-insensitive regex (no decoding of files that do not
match, which is what keeps it as fast as ``grep -ri``); other queries are matched on the
lower-cased text, so Chinese substrings match anywhere. A phrase that occurs nowhere
falls back to files containing every word of it.
"""

from __future__ import annotations

import re
from pathlib import Path

from .results import Hit
from .sources import SourceFile

_HEADING = re.compile(r"^#{1,6}\s+(.*)$")


def grep(files: list[SourceFile], query: str, k: int) -> list[Hit]:
    q = query.strip()
    if not q:
        return []
    needles = [q]
    found = _scan(files, needles)
    if not found and len(q.split()) > 1:
        needles = q.split()
        found = _scan(files, needles)
    found.sort(key=lambda t: (-t[0], t[1].file))
    # only the hits shown are decoded and located: at 10k files most matches are not
    return [_hit(f, data.decode("utf-8", "replace"), needles, n) for n, f, data in found[:k]]


def _scan(files: list[SourceFile], needles: list[str]) -> list[tuple[int, SourceFile, bytes]]:
    """(occurrences of the first needle, file, bytes) of every file containing all needles."""
    if all(n.isascii() for n in needles):
        pats = [re.compile(re.escape(n.encode()), re.I) for n in needles]
        first, rest = pats[0], pats[1:]

        def count(data: bytes) -> int:
            n = len(first.findall(data))
            return n if n and all(p.search(data) for p in rest) else 0
    else:
        lowered = [n.lower() for n in needles]

        def count(data: bytes) -> int:
            text = data.decode("utf-8", "replace").lower()
            n = text.count(lowered[0])
            return n if n and all(x in text for x in lowered[1:]) else 0

    out: list[tuple[int, SourceFile, bytes]] = []
    for f in files:
        try:
            with open(f.file, "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        n = count(data)
        if n:
            out.append((n, f, data))
    return out


def _hit(f: SourceFile, text: str, needles: list[str], n: int) -> Hit:
    """A hit at the first matching line, with the heading above it."""
    lines = text.split("\n")
    first = needles[0].lower()
    heading, line_no, snippet = "", 1, ""
    for i, line in enumerate(lines):
        m = _HEADING.match(line)
        if m:
            heading = line.strip()
        if first in line.lower():
            line_no, snippet = i + 1, line.strip()
            break
    return Hit(
        id=f.entry_id or f.file,
        path=f.file,
        source=f.source,
        kind=f.kind,
        heading=heading,
        start=line_no,
        end=line_no,
        score=float(n),
        snippet=_clip(snippet, first),
    )


def _clip(line: str, needle: str, width: int = 200) -> str:
    if len(line) <= width:
        return line
    at = max(0, line.lower().find(needle) - width // 3)
    return ("…" if at else "") + line[at : at + width] + "…"


def snippet_of(text: str, query_terms: list[str], width: int = 200) -> str:
    """The most relevant window of a chunk: around the first query term found, one line."""
    body = [ln.strip() for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith(("<!--", "#"))]
    flat = " ".join(body) or " ".join(ln.strip() for ln in text.split("\n") if ln.strip())
    low = flat.lower()
    at = -1
    for t in query_terms:
        at = low.find(t.lower())
        if at >= 0:
            break
    if len(flat) <= width:
        return flat
    start = max(0, at - width // 3) if at >= 0 else 0
    return ("…" if start else "") + flat[start : start + width] + "…"


__all__ = ["grep", "snippet_of", "Path"]
