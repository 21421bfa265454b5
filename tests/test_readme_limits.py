"""The size limits README states are the ones the code enforces (QA: README said "2 MB" in
one place and "~1 MB" in another; the real limit is ``safe_io.MAX_ENTRY_BYTES``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memsearch_tui.engine.core.errors import EntryTooLarge, InvalidInput
from memsearch_tui.engine.core.safe_io import MAX_ENTRY_BYTES, read_capped
from memsearch_tui.engine.store.store import MAX_BODY_BYTES

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# "an entry file over 1,064,000 bytes", "a file over 2 MB", "entry files over ~1 MB" …
ENTRY_SIZE = re.compile(
    r"\b(?:entry )?files? (?:over|above|bigger than|larger than)\s+(~?[\d.,]+\s*(?:[KMG]i?B|bytes))"
)


def _claims() -> list[tuple[str, str]]:
    out = []
    for doc in DOCS:
        text = " ".join(doc.read_text(encoding="utf-8").split())  # a claim may wrap across lines
        for m in ENTRY_SIZE.finditer(text):
            before = text[max(0, m.start() - 12) : m.start()].lower()
            if "day " in before or "journal" in before:  # day files: MAX_JOURNAL_BYTES, not an entry
                continue
            out.append((doc.name, m.group(1)))
    return out


def test_every_entry_size_claim_is_the_enforced_limit() -> None:
    claims = _claims()
    assert len([c for c in claims if c[0] == "README.md"]) >= 2, claims  # both places README states it
    assert all(size == f"{MAX_ENTRY_BYTES:,} bytes" for _, size in claims), claims


def test_readme_states_the_body_limit_too() -> None:
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"{MAX_ENTRY_BYTES:,} bytes (a {MAX_BODY_BYTES:,}-byte body plus frontmatter)" in text


def test_the_stated_limit_is_where_reading_stops(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_bytes(b"x" * MAX_ENTRY_BYTES)
    assert len(read_capped(path)) == MAX_ENTRY_BYTES
    path.write_bytes(b"x" * (MAX_ENTRY_BYTES + 1))
    with pytest.raises((EntryTooLarge, InvalidInput), match=f"{MAX_ENTRY_BYTES:,}"):
        read_capped(path)
