"""The redactor's own words are not a secret: masking masked text changes nothing (a face
masks what its caller may have masked already), and a hygiene fix's ``[secret removed: …]``
is not refused as a secret. "password [redacted: .netrc password]" was a .netrc password."""

from __future__ import annotations

import pytest

from memsearch_tui.engine.core.secrets import find_secret, redact
from tests.security.test_secret_formats import FORMATS


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_masking_twice_is_masking_once(name):
    text = FORMATS[name][0] + "\n之后的一行 after"
    once = redact(text)
    assert once != text and redact(once) == once, (once, redact(once))
    removed = redact(text, "[secret removed: {kind}]")
    assert find_secret(removed) is None and redact(removed) == removed, redact(removed)


def test_a_marker_does_not_hide_a_secret_behind_it():
    """Only a whole marker naming a known kind is ours: a secret after one is still found."""
    secret = "machine a.example login bob password [redacted: x]Zq8vK2mP9xW4"
    assert find_secret(secret) is not None
    assert find_secret("machine a.example login bob password [redacted: .netrc password]") is None
