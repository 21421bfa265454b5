"""The diff view masks what it draws (defence in depth): a caller that forgets to mask a
token (Versions, a store proposal's review, the conflict dialog passed texts as they were)
still never draws it, and text a caller masked already is not masked a second time."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App, ComposeResult

from memsearch_tui.engine.api.text import redact_text
from memsearch_tui.tui.diffview import DiffView
from tests.helpers import shown

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
OTHER = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
NETRC = "machine api.example.com login alice password Zq8vK2mP9xW4"


class One(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView(id="d")


def drawn(old: str, new: str, *, left: str, right: str, width: int, mode: str) -> str:
    """What a DiffView ``width`` columns wide shows for ``old`` → ``new`` in ``mode``."""

    async def main() -> str:
        app = One()
        async with app.run_test(size=(width, 30)) as pilot:
            view = app.query_one(DiffView)
            view.mode = mode
            view.show(old, new, left=left, right=right)
            await pilot.pause()
            return shown(view)

    return asyncio.run(main())


@pytest.mark.parametrize("mode", ["unified", "split"])
def test_a_token_on_both_sides_is_masked_in_either_layout(mode):
    old = f"# 部署\n\nexport GH_TOKEN={TOKEN}\n旧的一行\nkeep\n"
    new = f"# 部署\n\nexport GH_TOKEN={OTHER}\n新的一行\nkeep\n"
    text = drawn(old, new, left=f"notes/{TOKEN} v1", right="v2", width=160, mode=mode)
    assert TOKEN not in text and OTHER not in text and "ghp_" not in text, text
    assert "[redacted: " in text and ("新的一行" in text and "旧的一行" in text), text


@pytest.mark.parametrize("mode", ["unified", "split"])
def test_text_masked_by_its_caller_is_drawn_as_the_caller_masked_it(mode):
    """A .netrc password "[redacted: .netrc password]" was masked again: masked twice it
    read "[redacted: .netrc password] .netrc password]"; a note and a control character
    are drawn escaped."""
    old, new = redact_text(f"{NETRC}\n第一行\n"), redact_text(f"{NETRC}\n第二行 \x1b[2J\n")
    assert old.count("[redacted: ") == 1
    text = drawn(old, new, left="a", right="b", width=160, mode=mode)
    masks = text.count("[redacted: .netrc password]")
    assert masks == (2 if mode == "split" else 1) == text.count("[redacted: "), text  # the unchanged line
    assert "password] .netrc" not in text and "\\x1b[2J" in text and "\x1b" not in text, text


def test_a_note_in_place_of_the_diff_is_masked_too():
    async def main() -> str:
        app = One()
        async with app.run_test(size=(80, 10)) as pilot:
            view = app.query_one(DiffView)
            view.show_note(f"cannot read v2: token {TOKEN} in the way")
            await pilot.pause()
            return shown(view)

    text = asyncio.run(main())
    assert TOKEN not in text and "[redacted: " in text
