"""A token longer than the exact-length table says (a GitHub refresh token, an OpenAI user key, a routable GitLab PAT) is masked whole when it wraps."""

from memsearch_tui.engine.core.secrets import redact

# GitHub's own documented refresh token (docs.github.com, "Generating a user access token"): 80 characters
GHR = "ghr_1B4a2e77838347a7E420ce178F2E7c6912E169246c34E1ccbF66C46812d16D5B1A9Dc86A1498"
SK_NONE = "sk-None-" + ("aB3cD4eF5g" * 16)[:156]  # an OpenAI user key (sk-None-), 164 characters
GLPAT = "glpat-" + ("x1Y2z3W4v5" * 4)[:37]  # a routable GitLab PAT is 43-316 characters


def test_github_refresh_token_wrapped_at_40_is_masked_whole():
    assert len(GHR) == 80
    out = redact(f"{GHR[:40]}\n{GHR[40:]}\nend\n")
    assert GHR[40:] not in out, out


def test_openai_user_key_wrapped_after_51_characters_is_masked_whole():
    text = f"KEY={SK_NONE[:51]}\n{SK_NONE[51:131]}\n{SK_NONE[131:]}\n下一行\n"
    out = redact(text)
    assert SK_NONE[51:131] not in out and SK_NONE[131:] not in out, out


def test_chinese_lead_routable_gitlab_token_wrapped_at_26_is_masked_whole():
    out = redact(f"令牌：{GLPAT[:26]}\n{GLPAT[26:]}\n说明\n")
    assert GLPAT[26:] not in out, out


OLD = "sk-" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn" + "T3BlbkFJ" + "Op7Qr8St9Uv0Wx1Yz2Ab"  # an old OpenAI key: 51


def test_a_word_after_an_old_openai_key_is_still_shown():
    assert len(OLD) == 51
    assert redact(f"key {OLD}\nv2\nend\n") == "key [redacted: OpenAI API key]\nv2\nend\n"


KEY = ("sk-proj-" + "aB3cD4eF5g" * 16)[:164]


def test_a_fixed_length_key_one_character_a_line_is_masked_to_its_end():
    """Pre-existing: each line after the rule's shortest match needed letters and digits, so
    a 164-character key one character a line showed 136 of its characters."""
    for sep in ("\n", "\r\n"):
        text = sep.join(KEY) + f"{sep}下一行 说明{sep}"
        out = redact(text)
        shown = [line for line in out.split(sep) if line and line in KEY]
        assert not shown and out.endswith(f"{sep}下一行 说明{sep}"), shown[:5]
