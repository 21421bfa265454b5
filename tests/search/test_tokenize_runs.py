"""A short text is split into token runs by a walk over its characters, a long one by the
regex: both must give the same runs for every character and any mix of them."""

from __future__ import annotations

import random

from memsearch_tui.engine.search.tokenize import _runs_short, _token_re, query_tokens, tokens


def by_regex(text: str) -> list[str]:
    return [m.group() for m in _token_re().finditer(text)]


def test_every_character_is_classified_as_the_regex_does():
    chars = [chr(c) for c in range(0x30000) if not 0xD800 <= c <= 0xDFFF]
    for c in chars:
        assert list(_runs_short(c)) == by_regex(c), hex(ord(c))
    # neighbours of each kind meet: the run boundaries agree too
    text = "".join(chars[::7])
    assert list(_runs_short(text)) == by_regex(text)
    assert tokens(text) == tokens(text, query=True)  # the indexing path's one findall, too


def test_mixed_strings_give_the_same_runs_and_tokens():
    rng = random.Random(24)
    pool = (
        list("abcXYZ019_-. \t\n'’")
        + list("用户偏好设置東京・大阪ゃーー゠゛")
        + ["é", "ß", "İ", "Ⅻ", "٣", "가나", "\u0301", "🙂"]
    )
    for _ in range(3000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 60)))
        assert list(_runs_short(text)) == by_regex(text), repr(text)
        assert tokens(text, query=True) == tokens(text)
        assert tokens(text + " the and", query=True, drop_stopwords=True) == tokens(
            text + " the and", drop_stopwords=True
        )
    assert query_tokens("用户喜欢深色主题") == ["用户", "户喜", "喜欢", "欢深", "深色", "色主", "主题"]
    assert tokens("Roll-back 回滚") == ["roll", "back", "回", "滚", "回滚"]


def test_script_of_reads_a_text_without_cjk_as_the_full_count_does():
    """The short cut for text without CJK characters gives what counting every letter gave."""
    from memsearch_tui.engine.search.languages import _CJK, _LETTER, CJK_LETTER_EQUIV, script_of

    def counted(text: str) -> str:
        cjk = len(_CJK.findall(text))
        letters = len(_LETTER.findall(text)) - cjk
        if cjk == 0 and letters == 0:
            return "none"
        return "cjk" if cjk * CJK_LETTER_EQUIV >= letters else "alpha"

    rng = random.Random(6)
    pool = list("ab Z9_-.,!?\n") + list("用户偏好・ー가") + ["é", "٣", "🙂", "  "]
    for _ in range(3000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 40)))
        assert script_of(text) == counted(text), repr(text)
