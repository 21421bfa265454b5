"""Chunking at headings, line numbers, caps and overlap; keyword tokens (incl. Chinese)."""

from __future__ import annotations

from memsearch_tui.engine.search.chunking import chunk_markdown, split_frontmatter
from memsearch_tui.engine.search.sources import SourceFile, chunk_file
from memsearch_tui.engine.search.tokenize import query_tokens, tokens


def test_sections_split_at_headings_with_file_line_numbers():
    text = "# Title\n\nintro line\n\n## Part\n\npart text\n### Sub\nsub text\n"
    chunks = chunk_markdown(text)
    assert [(c.heading, c.start, c.end) for c in chunks] == [
        ("# Title", 1, 4),
        ("# Title > ## Part", 5, 7),
        ("# Title > ## Part > ### Sub", 8, 9),
    ]
    assert chunks[1].text.splitlines() == ["## Part", "", "part text"]


def test_heading_only_sections_are_skipped_and_fences_are_not_headings():
    text = "# 2024-05-01\n\n## Session 10:00\n\n### 10:01\n```\n# not a heading\n```\n"
    chunks = chunk_markdown(text)
    assert len(chunks) == 1
    assert chunks[0].heading.endswith("### 10:01")
    assert (chunks[0].start, chunks[0].end) == (5, 8)


def test_long_section_is_capped_with_overlapping_lines():
    lines = [f"line {i:03d} " + "x" * 40 for i in range(100)]
    chunks = chunk_markdown("# Big\n" + "\n".join(lines) + "\n", cap=500, overlap=2)
    assert len(chunks) > 5
    assert all(len(c.text) <= 500 for c in chunks)
    for a, b in zip(chunks, chunks[1:]):
        assert b.start == a.end - 1  # two lines repeated
    assert chunks[-1].end == 101


def test_frontmatter_lines_count_toward_line_numbers(tmp_path):
    text = "---\ntitle: Alpha\ntags: [web]\n---\n# Alpha\n\nbody here\n"
    meta, n = split_frontmatter(text)
    assert meta["title"] == "Alpha" and n == 4
    src = SourceFile(str(tmp_path / "a.md"), "entry", "store", "projects/a")
    (chunk,) = chunk_file(src, text, cap=1500, overlap=2)
    assert (chunk.start, chunk.end) == (5, 7)
    assert "Alpha" in chunk.embed_text and "tags: web" in chunk.embed_text
    assert "title:" not in chunk.text


def test_journal_turns_embed_their_neighbours_but_show_only_themselves(tmp_path):
    text = "# 2024-05-01\n## Session 10:00\n### 10:01\n- one\n### 10:02\n- two\n### 10:03\n- three\n"
    src = SourceFile(str(tmp_path / "2024-05-01.md"), "journal", "/p")
    chunks = chunk_file(src, text, cap=1500, overlap=2, context_turns=1)
    assert [c.text.splitlines()[-1] for c in chunks] == ["- one", "- two", "- three"]
    assert "one" in chunks[1].embed_text and "three" in chunks[1].embed_text
    assert "2024-05-01" in chunks[1].embed_text
    assert "three" not in chunks[0].embed_text


def test_a_journal_turn_embeds_the_day_once_and_no_heading_that_only_tells_the_time(tmp_path):
    """Fewer tokens through the model: a hook-written turn's own text drops ``Session HH:MM``,
    the bare ``HH:MM`` and the ``# day`` heading the prefix already names; words stay."""
    text = (
        "# 2024-05-01\n## Session 10:00\n### 10:01\n<!-- session:s turn:1 -->\n- chose Postgres\n"
        "## Session 14:30 部署\n### 14:31\n- 把订单服务迁到新的数据库\n"
    )
    src = SourceFile(str(tmp_path / "2024-05-01.md"), "journal", "/p")
    chunks = chunk_file(src, text, cap=1500, overlap=2, context_turns=1)
    owns = [c.meta["own"] for c in chunks if c.level >= 3]
    assert owns == ["2024-05-01\n- chose Postgres", "2024-05-01\nSession 14:30 部署\n- 把订单服务迁到新的数据库"]
    assert all(c.heading.startswith("# 2024-05-01 > ## Session") for c in chunks if c.level >= 3)  # shown as written


def test_chunk_ids_are_stable_and_unique_for_repeated_text(tmp_path):
    src = SourceFile(str(tmp_path / "x.md"), "journal", "/p")
    text = "### 1\nsame\n### 2\nsame\n"
    a = chunk_file(src, text, cap=1500, overlap=2, context_turns=0)
    b = chunk_file(src, "\n\n" + text, cap=1500, overlap=2, context_turns=0)
    assert len({c.id for c in a}) == 2
    assert [c.id for c in a] == [c.id for c in b]  # lines moved, ids kept
    assert [c.start for c in b] == [3, 5]


def test_tokens_fold_case_and_split_cjk_into_bigrams():
    assert tokens("Dark THEME") == ["dark", "theme"]
    assert tokens("深色主题") == ["深", "色", "主", "题", "深色", "色主", "主题"]
    assert query_tokens("the 深色主题") == ["深色", "色主", "主题"]
    assert query_tokens("the") == ["the"]  # a stopword-only query still searches


def test_fusions_rank_agreement_first_and_keep_absent_items():
    from memsearch_tui.engine.search.fusion import convex, rrf

    dense = [("a", 0.9), ("b", 0.8), ("c", 0.2)]
    keyword = [("b", 12.0), ("d", 6.0)]
    fused = convex([dense, keyword], [0.5, 0.5])
    assert [i for i, _ in fused][:1] == ["b"]  # strong in both
    assert {i for i, _ in fused} == {"a", "b", "c", "d"}
    scores = dict(fused)
    # an item missing from a list gets that list's floor, not zero: c (dense-only) keeps keyword 0.5
    assert abs(scores["c"] - (0.5 * 0.2 / 0.9 + 0.5 * 0.5)) < 1e-9
    assert [i for i, _ in rrf([["a", "b"], ["b", "a"], ["b"]])][0] == "b"


def test_grep_phrase_then_all_words_and_unicode_case(tmp_path):
    from memsearch_tui.engine.search.grep import grep

    a = tmp_path / "a.md"
    a.write_text("# Notes\n\nThe Deploy runs on Fridays.\nÜber alles: deploy twice.\n", encoding="utf-8")
    b = tmp_path / "b.md"
    b.write_text("fridays are for the weekly deploy\n", encoding="utf-8")
    files = [SourceFile(str(a), "entry", "store", "x/a"), SourceFile(str(b), "entry", "store", "x/b")]
    hits = grep(files, "deploy runs", 5)
    assert [h.id for h in hits] == ["x/a"] and (hits[0].start, hits[0].heading) == (3, "# Notes")
    words = grep(files, "fridays deploy weekly", 5)  # no file has the phrase: all words instead
    assert [h.id for h in words] == ["x/b"]
    assert [h.id for h in grep(files, "über", 5)] == ["x/a"]
    assert grep(files, "DEPLOY", 5)[0].score == 2  # a.md: two occurrences, ranked first


def test_a_corrupt_or_old_manifest_is_rebuilt_not_fatal(tmp_path):
    from memsearch_tui.engine.search.manifest import Manifest

    bad = tmp_path / "m.sqlite3"
    bad.write_bytes(b"this is not a database" * 100)
    m = Manifest(bad)
    assert m.counts()["chunks"] == 0 and (tmp_path / "m.corrupt").exists()
    m.set_meta("schema", "0")
    m.commit()
    m.close()
    assert Manifest(bad).get_meta("schema") != "0"
