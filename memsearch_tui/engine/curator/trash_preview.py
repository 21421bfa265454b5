"""Read a trashed entry for a preview, without restoring it (read-only, bounded)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import InvalidInput
from memsearch_tui.engine.core.safe_io import MAX_ENTRY_BYTES
from memsearch_tui.engine.store.trash_index import TrashItem

MAX_BYTES = 200_000


@dataclass
class TrashPreview:
    meta: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    problem: str = ""  # non-empty: the file is gone or unreadable as an entry
    # the whole file as read (None: gone, or larger than an entry): what the person saw,
    # passed back as ``expected=`` by restore and purge
    raw: bytes | None = None


def preview(item: TrashItem) -> TrashPreview:
    """Frontmatter and body of ``item`` (the body cut at ``MAX_BYTES``)."""
    try:
        with Path(item.path).open("rb") as fh:
            whole = fh.read(MAX_ENTRY_BYTES + 1)
    except OSError as exc:
        return TrashPreview(problem=f"{item.path}: {exc.strerror or exc}")
    seen = whole if len(whole) <= MAX_ENTRY_BYTES else None
    raw = whole[: MAX_BYTES + 1]
    cut = len(raw) > MAX_BYTES
    try:
        doc = fmio.parse(raw[:MAX_BYTES], str(item.path))
    except InvalidInput as exc:
        return TrashPreview(body=raw[:MAX_BYTES].decode("utf-8", errors="replace"), problem=str(exc), raw=seen)
    return TrashPreview(dict(doc.meta), doc.body + ("\n… (cut)" if cut else ""), raw=seen)
