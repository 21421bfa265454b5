"""A hit's snippet masked with its whole file's secret spans, not the shown text alone.

A snippet is one line (grep) or a 200-character window of a chunk (the index, vectors,
hybrid). Redacting that text on its own misses what only the file around it says is a
secret: a line of a private key's body holds no BEGIN line, and a key block cut by a
chunk boundary or a snippet window is base64 nobody can tell from prose. So the rules run on
the whole file (:func:`~memsearch_tui.engine.core.secrets.secret_spans`), and whatever part
of a span falls in the shown region is replaced by ``[redacted: <kind>]`` before the snippet
is cut. Every face (CLI, app, MCP) gets its snippets through the two functions here.

The file is scanned only when the shown text holds a run of 12 or more token characters
with a digit in it (a key body line, a piece of a token): ordinary prose is shown as it is,
and a literal search that races ``grep -ri`` does not scan every hit's file (~2 ms per 8 KB).

Files are read bounded and never block (:func:`~memsearch_tui.engine.core.safe_io.read_bounded`);
the few files of one search's hits are kept by (path, size, mtime), so hits of one file
read it once. A file that cannot be read is masked on the chunk's own text.
"""

from __future__ import annotations

import bisect
import functools
import os
import re

from memsearch_tui.engine.core.contained import READ_LIMIT
from memsearch_tui.engine.core.safe_io import read_bounded
from memsearch_tui.engine.core.secrets import Hit, mask_spans, redact, secret_spans

_RUN = re.compile(r"[A-Za-z0-9+/=_\-]{12,}")


def _suspect(text: str) -> bool:
    """Whether ``text`` holds what could be part of a secret seen without its context."""
    return any(any(c.isdigit() for c in m.group()) for m in _RUN.finditer(text))


class _File:
    """A file's text, where its lines start and its secret spans."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans: list[Hit] = secret_spans(text)
        self.starts = [0]
        if self.spans:
            at = text.find("\n")
            while at >= 0:
                self.starts.append(at + 1)
                at = text.find("\n", at + 1)

    def region(self, first: int, last: int) -> tuple[int, int]:
        """Character offsets of lines ``first``..``last`` (1-based, inclusive)."""
        a = self.starts[min(max(first, 1), len(self.starts)) - 1]
        b = self.starts[last] - 1 if last < len(self.starts) else len(self.text)
        return a, max(a, b)

    def masked(self, a: int, b: int) -> str | None:
        """``text[a:b]`` with the parts of secret spans inside masked; None if none touch it."""
        i = bisect.bisect_left([h.end for h in self.spans], a + 1)
        inside = [Hit(h.kind, max(h.start, a) - a, min(h.end, b) - a) for h in self.spans[i:] if h.start < b]
        return mask_spans(self.text[a:b], inside) if inside else None


@functools.lru_cache(maxsize=32)
def _cached(path: str, size: int, mtime_ns: int) -> _File | None:
    try:
        return _File(read_bounded(path, READ_LIMIT).decode("utf-8", "replace"))
    except OSError:
        return None


def _file(path: str) -> _File | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return _cached(path, st.st_size, st.st_mtime_ns)


def masked_line(text: str, line_no: int) -> str | None:
    """Line ``line_no`` of ``text`` (a whole file, already read) masked with the file's
    secret spans, or None when no secret touches it (the line is shown as it is)."""
    lines = text.split("\n", line_no)
    line = lines[line_no - 1] if 1 <= line_no <= len(lines) else ""
    if not _suspect(line):
        return None
    f = _File(text)
    return f.masked(*f.region(line_no, line_no)) if f.spans else None


def chunk_text(path: str, start: int, end: int, text: str) -> str:
    """What a chunk's snippet is cut from: ``text`` itself, or, when a secret of the file
    ``path`` reaches into lines ``start``..``end``, those lines with it masked."""
    if not _suspect(text):
        return text
    f = _file(path)
    if f is None:
        return redact(text)
    if not f.spans:
        return text
    masked = f.masked(*f.region(start, end))
    return text if masked is None else masked
