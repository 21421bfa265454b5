"""Pre-write checks that need the rest of the store: duplicates and same-title entries.

A near-identical body is refused whatever its title (agents love to save the same fact
twice). Candidates come from the catalog (length and a normalised head, no file reads);
only a close candidate's full body is read and compared with rapidfuzz.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from memsearch_tui.engine.core import frontmatter_io as fmio
from memsearch_tui.engine.core.errors import MemsearchError, Refused
from memsearch_tui.engine.core.safe_io import read_capped
from memsearch_tui.engine.core.text import normalise
from memsearch_tui.engine.store.catalog import HEAD_CHARS, Catalog

if TYPE_CHECKING:
    from pathlib import Path

NEAR_RATIO = 95.0  # full normalised bodies at least this similar are duplicates
HEAD_RATIO = 85.0  # cheap pre-filter on the first HEAD_CHARS normalised characters
MIN_FUZZY_LEN = 40  # shorter bodies are only compared exactly


def check_duplicate(root: Path, cat: Catalog, body: str, *, ignore: str | None = None) -> None:
    """Refuse a body that is the same as, or nearly the same as, an existing entry's."""
    norm = normalise(body)
    if not norm:
        return
    digest = hashlib.sha1(norm.encode("utf-8")).hexdigest()
    for s in cat.same_body(digest):
        if s.id != ignore:
            _refuse(s.id, s.title, "the same text")
    n = len(norm)
    if n < MIN_FUZZY_LEN:
        return
    from rapidfuzz import fuzz

    head = norm[:HEAD_CHARS]
    slack = max(8, n // 10)
    for entry_id, title, other_head in cat.similar_length(n - slack, n + slack):
        if entry_id == ignore:
            continue
        if fuzz.ratio(head, other_head, score_cutoff=HEAD_RATIO) and _full_ratio(root, entry_id, norm) >= NEAR_RATIO:
            _refuse(entry_id, title, "nearly the same text")


def _full_ratio(root: Path, entry_id: str, norm: str) -> float:
    """Similarity of ``norm`` to the entry's normalised body. Only the body is read: the
    candidate is a readable entry (catalog), and parsing its YAML would cost the import."""
    path = root / f"{entry_id}.md"
    try:
        body = fmio.body_of(read_capped(path), str(path))
    except (MemsearchError, OSError):
        return 0.0
    from rapidfuzz import fuzz

    return fuzz.ratio(norm, normalise(body))


def _refuse(entry_id: str, title: str, what: str) -> None:
    raise Refused(
        f"duplicate: '{entry_id}' (\"{title}\") already holds {what}; "
        f"change that entry with `memsearch-tui update {entry_id}` instead",
        code="duplicate",
    )


def check_same_title(cat: Catalog, category: str, title: str) -> None:
    """The same title in the same category is the same topic: point to ``update``."""
    same = cat.titled(category, title)
    if same:
        entry_id = min(r[0] for r in same)
        raise Refused(
            f"'{entry_id}' in {category} already has the title \"{title}\"; "
            f"to change it use `memsearch-tui update {entry_id}`",
            code="same_title",
        )
