"""A store proposal's moves are drawn masked and escaped, like every diff.

The Maintenance pane lists a lifecycle or split proposal's moves (an entry id, its target,
the reason) in the diff view. They are the LLM's words (or a shipped proposal file's): a
token in a reason must not be shown, ``[red]`` is drawn as typed and an escape sequence
cannot reach the terminal. The pane drew them with ``DiffView.update``, which skipped the
masking ``show``/``show_note`` apply; ``update`` now masks what it is given.
"""

from __future__ import annotations

import pytest
from rich.text import Text

from memsearch_tui.engine.review import store_proposals
from memsearch_tui.tui.diffview import DiffView
from tests.helpers import settle, shown

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
REASONS = {
    "en": f"stale for 400 days [red]see[/red] \x1b]0;pwned\x07 token {TOKEN}",
    "zh": f"四百天未用 [bold]旧[/bold] \x1b[2J 令牌 {TOKEN} 已过期",
}


@pytest.mark.parametrize("lang", sorted(REASONS))
def test_a_store_proposals_moves_are_masked_and_escaped(demo, drive, lang) -> None:
    root, _ = demo
    reason = REASONS[lang]
    entry_id = "projects/cli/typer-quirks"
    moves = [{"action": "archive", "id": entry_id, "to": f"archive/{TOKEN}", "reason": reason}]
    prop = store_proposals.propose_lifecycle(root, moves)

    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        plist = app.query_one("#proposals")
        plist.highlighted = [o.id for o in plist.options].index(f"s:{prop['id']}")
        await pilot.pause()
        await settle(pilot, app)
        text = shown(app.query_one("#proposal-diff"))
        assert entry_id in text, text
        assert "ghp_" not in text and "[redacted" in text, text  # in the reason and in the target
        assert "\x1b" not in text and "\x07" not in text, text
        assert "\\x1b" in text, text  # shown, not obeyed
        markup = "[red]see[/red]" if lang == "en" else "[bold]旧[/bold]"
        assert markup in text, text  # drawn as typed
        assert ("四百天未用" if lang == "zh" else "stale for 400 days") in text, text
        assert app.errors == []

    drive(flow)


def test_update_masks_a_string_and_a_styled_text_and_refuses_other_renderables(demo, drive) -> None:
    async def flow(pilot, app):
        await pilot.press("5")
        await settle(pilot, app)
        view = app.query_one("#proposal-diff", DiffView)
        styled = Text("archive ", style="bold")
        styled.append(f"笔记 {TOKEN}\x1b[31m", style="dim")
        for content in (f"[red]x[/red] {TOKEN}", styled):
            view.update(content)
            text = shown(view)
            assert "ghp_" not in text and "\x1b" not in text, text
        assert "archive 笔记 [redacted" in shown(view)
        with pytest.raises(TypeError):
            view.update(Text("a").wrap(app.console, 10))  # a rich Lines: not text this view can mask

    drive(flow)
