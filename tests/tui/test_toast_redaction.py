"""What the TUI shows passes through the engine's one redactor and terminal rule."""

from __future__ import annotations

from memsearch_tui.tui.text import safe, untrusted

KEY = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def test_a_secret_in_a_toast_or_label_is_masked_and_escapes_are_shown() -> None:
    text = f"failed: token {KEY} \x1b[2J in title"
    out = safe(text)
    assert KEY not in out and "[redacted: GitHub token]" in out
    assert "\x1b" not in out and "\\x1b" in out
    label = untrusted(text, "bold").plain
    assert KEY not in label and "\x1b" not in label
