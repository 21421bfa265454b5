"""Text that starts like our marker does not hide the real secret after it."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.core.secrets import find_secret, redact

HIDDEN = [
    "password=[redacted]Hunter2x",
    "DB_PASSWORD=[redacted:Hunter22Real]",
    'api_key: "[redacted]sk9Xq2LmN8pQ"',
    "the password is [redacted]Hunter22",
    "--password [redacted]Hunter22",
    'password: "[redacted: Anthropic API key]Hunter22"',
    "密码 password=[redacted]口令Hunter22",
]


@pytest.mark.parametrize("text", HIDDEN)
def test_a_marker_glued_to_a_password_does_not_hide_it(text: str) -> None:
    assert find_secret(text) is not None
    assert "Hunter2" not in redact(text) and "sk9Xq2" not in redact(text)


@pytest.mark.parametrize(
    "text",
    ["password=[redacted]", "password: [redacted: .netrc password]", 'token = "[secret removed: GitHub token]"'],
)
def test_our_markers_alone_are_still_placeholders(text: str) -> None:
    assert find_secret(text) is None and redact(text) == text
