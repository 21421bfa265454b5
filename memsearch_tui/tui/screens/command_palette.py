"""The command palette with the app's Escape rule: the first Escape clears what was typed,
the next closes (docs/tui.md, "Escape leaves any input box"). Textual's closes at once and
drops the typed text; the rest of its palette is used as it is."""

from __future__ import annotations

from textual.command import CommandInput, CommandPalette


class ClearingPalette(CommandPalette):
    """:class:`CommandPalette` whose Escape clears a non-empty query before it closes."""

    def _action_escape(self) -> None:
        box = self.query_one(CommandInput)
        if box.value:
            box.value = ""
            return
        super()._action_escape()
