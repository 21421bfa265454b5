"""Our copy of memsearch's chunker cuts every text exactly as memsearch 0.4.23 does: the
scrub of its index deletes a chunk only when memsearch's next ``index`` would."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from memsearch.chunker import chunk_markdown as theirs

from memsearch_tui.engine.memsearch.chunker import chunk_markdown as ours

LINES = st.sampled_from(
    [
        "",
        "# Title",
        "## Session 09:00",
        "### 09:05",
        "<!-- session:s1 turn:t1 -->",
        "- a short note",
        "A sentence. Another one! A third? 中文句子。再一句！",
        "x" * 120,
        "word " * 40,
        "   ",
        "#not a heading",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=60), st.sampled_from([40, 100, 300, 1500]), st.integers(0, 3))
def test_same_chunks_as_memsearch(lines, size, overlap):
    text = "\n".join(lines)
    expected = [(c.content, c.start_line, c.end_line) for c in theirs(text, max_chunk_size=size, overlap_lines=overlap)]
    assert ours(text, size, overlap) == expected
