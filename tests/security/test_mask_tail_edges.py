"""Where a wrapped token ends: a complete token's next line is shown, at any length.

Session 19 left two edges of masking a token found with lines joined
(:mod:`memsearch_tui.engine.core.secret_wraps`):

- a one-word line with a digit (``v2``, ``sha256``) right after a *complete* token was
  masked as the token's wrapped rest, hiding it from the person reviewing a proposal; a
  token as long as a real one of its kind (``ghp_`` and 36) now ends there;
- a token written one character a line that is whole only after more than 128 lines was
  masked whole, with the next line's first word.
"""

from __future__ import annotations

import pytest

from memsearch_tui.engine.core.secrets import redact, secret_spans

TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # 36 after the prefix, as GitHub issues them
MASK = "[redacted: GitHub token]"
KEY = ("sk-proj-" + "aB3cD4eF5g" * 16)[:164]  # as long as OpenAI's project keys
OPENAI = "[redacted: OpenAI API key]"


@pytest.mark.parametrize("word", ["v2", "sha256", "utf8mb4", "x86"])
def test_a_word_with_a_digit_after_a_complete_token_is_shown(word):
    assert redact(f"CI token {TOKEN}\n{word}\nend\n") == f"CI token {MASK}\n{word}\nend\n"


@pytest.mark.parametrize("word", ["v2", "md5", "sha256"])
def test_chinese_the_next_line_after_a_complete_token_is_shown(word):
    text = f"令牌：{TOKEN}\n{word}\n下一行说明\n"
    assert redact(text) == f"令牌：{MASK}\n{word}\n下一行说明\n"
    assert [text[h.start : h.end] for h in secret_spans(text)] == [TOKEN]


def test_a_token_wrapped_to_its_full_length_ends_there():
    """Wrapped in two, then ``v2``: the two halves are the token, ``v2`` is not."""
    out = redact(f"export GH={TOKEN[:24]}\n{TOKEN[24:]}\nv2\n")
    assert out == f"export GH={MASK}\n{MASK}\nv2\n", out


def test_a_long_key_cut_short_by_the_terminal_keeps_its_rest_masked():
    """An ``sk-proj-`` key's first line is a whole match but shorter than a real key: its
    next lines are its rest (masked), and the line after the full key is shown."""
    lines = [KEY[:76], KEY[76:156], KEY[156:]]
    out = redact(f"OPENAI_API_KEY={lines[0]}\n{lines[1]}\n{lines[2]}\nv2\n下一行\n")
    assert out == f"OPENAI_API_KEY={OPENAI}\n{OPENAI}\n{OPENAI}\nv2\n下一行\n", out
    assert not any(part in out for part in lines)
    # ``ghp_`` and 40: not a length GitHub issues, so a mixed one-word line after it may be
    # its rest, and is masked as before (a token is never shown half)
    out = redact(f"{TOKEN}Z9y8\nQ7r8S9t0\nend\n")
    assert "Q7r8S9t0" not in out and out.endswith("\nend\n") and out.count("\n") == 3, out


JWT = "eyJ" + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" * 5 + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlX3NpZ25hdHVyZQ"


@pytest.mark.parametrize("after", ["\nabc def", "\n下一行 说明", "\nv2 版本"])
def test_a_token_one_character_a_line_over_many_lines_keeps_the_next_word(after):
    """The JWT's header one character a line (168 lines): whole only at its last line."""
    head, rest = JWT[: JWT.index(".")], JWT[JWT.index(".") :]
    assert len(head) > 128
    text = "\n".join(head) + rest + after
    out = redact(text)
    assert out.endswith(after) and out.count("\n") == text.count("\n"), out[-80:]
    assert "hbGci" not in out.replace("\n", "") and "c2lnbmF0" not in out
    assert max(h.end for h in secret_spans(text)) == len(text) - len(after)


def test_the_line_cut_holds_for_a_token_of_thousands_of_lines():
    head = "eyJ" + "a1B2c3D4" * 500  # 4003 lines
    text = "\n".join(head) + ".eyJ" + "e" * 12 + "." + "f" * 12 + "\nkeep me\n"
    out = redact(text)
    assert out.endswith("\nkeep me\n") and out.count("\n") == text.count("\n")
    assert "a1B2" not in out.replace("\n", "")
