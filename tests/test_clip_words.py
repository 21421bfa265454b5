"""The one word-boundary cut (engine.core.text.clip_words): labels and version summaries
end at a whole word with "…", CJK text (no spaces) by cell width."""

from __future__ import annotations

from memsearch_tui.engine.core.text import cell_width, clip_words
from memsearch_tui.engine.curator.versions import short


def test_a_long_title_is_cut_at_a_word_with_an_ellipsis():
    assert clip_words("09:05 Alpha dashboard redesign kickoff", 20) == "09:05 Alpha…"
    assert clip_words("Alpha dashboard", 15) == "Alpha dashboard"
    assert clip_words("the analytics replica", 15) == "the analytics…"  # the cut falls on the space


def test_cjk_text_is_cut_by_cell_width():
    cut = clip_words("决定使用新的日志库来替换旧的日志系统", 11)
    assert cut == "决定使用新…" and cell_width(cut) <= 11
    assert clip_words("abc 决定使用新的日志库", 9) == "abc 决定…"


def test_one_long_word_is_cut_rather_than_dropped():
    assert clip_words("Supercalifragilistic", 8) == "Superca…"


def test_a_version_history_summary_ends_at_a_word():
    text = "Production runs Postgres 16 with logical replication to the analytics replica."
    assert short(text) == "Production runs Postgres 16 with logical replication to the analytics…"
