"""The command palette with the app's Escape rule: the first Escape clears what was typed,
the next closes (docs/tui.md, "Escape leaves any input box"). Textual's closes at once and
drops the typed text; the rest of its palette is used as it is."""

from __future__ import annotations

from textual.binding import Binding
from textual.command import CommandInput, CommandPalette


class ClearingPalette(CommandPalette):
    """:class:`CommandPalette` whose Escape clears a non-empty query before it closes."""

    BINDINGS = [Binding("escape", "clear_or_close", "Clear / exit the command palette", show=False)]

    async def action_clear_or_close(self) -> None:
        box = self.query_one(CommandInput)
        if box.value:
            box.value = ""
            return
        await self.run_action("escape")  # the palette's own documented ``escape`` action: it closes
