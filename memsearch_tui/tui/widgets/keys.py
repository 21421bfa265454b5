"""Small widgets the keyboard model needs: an input box Escape can always leave, a footer
that shows the most useful keys that fit, and the motion keys shared by every list."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.content import Content
from textual.keys import key_to_character
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static, Tree

from memsearch_tui.tui.actions import BY_ID, footer_rank, pretty_keys


class EscInput(Input):
    """An input box that never traps the keyboard: Escape clears it, a second Escape leaves.

    Leaving tells whoever holds the box by a :class:`Leave` message (the box knows no pane):
    a pane focuses its list (``Pane.leave_input``), where digits switch panes and the motion
    keys work again; a dialog its own list, or the next widget.
    """

    BINDINGS = [Binding("escape", "clear_or_leave", "Clear / leave", show=False)]

    class Leave(Message):
        """Escape in the empty box: the pane or dialog holding it takes the focus back."""

        def __init__(self, box: EscInput) -> None:
            super().__init__()
            self.box = box

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key the user's ``[tui.keymap]`` gives to an action (``ctrl+x``: build the index)
        wins over the box's own editing key on it (``ctrl+x``: cut): that editing action steps
        aside, so the key reaches the pane, and the footer names the user's action."""
        if action in self._yielded_actions():
            return False
        return super().check_action(action, parameters)

    def _yielded_actions(self) -> set[str]:
        taken = {k.strip() for keys in getattr(self.app, "keymap", {}).values() for k in str(keys).split(",")}
        return {
            b.action for b in Input.BINDINGS if isinstance(b, Binding) and taken & {k.strip() for k in b.key.split(",")}
        }

    def action_clear_or_leave(self) -> None:
        if self.value:
            self.value = ""
            return
        self.post_message(self.Leave(self))


def move(widget: Widget | None, where: str) -> bool:
    """Apply a motion (down, up, top, bottom, page_down, page_up) to a list, table, tree or
    scrolling view. Returns False when ``widget`` is none of those."""
    from textual.widgets import DataTable  # at a motion key, not for the first frame (it shows none: ~4 ms of import)

    if isinstance(widget, Tree):
        tree = widget
        actions = {
            "down": tree.action_cursor_down,
            "up": tree.action_cursor_up,
            "top": tree.action_scroll_home,
            "bottom": tree.action_scroll_end,
            "page_down": tree.action_page_down,
            "page_up": tree.action_page_up,
        }
    elif isinstance(widget, OptionList):
        actions = {
            "down": widget.action_cursor_down,
            "up": widget.action_cursor_up,
            "top": widget.action_first,
            "bottom": widget.action_last,
            "page_down": widget.action_page_down,
            "page_up": widget.action_page_up,
        }
    elif isinstance(widget, DataTable):
        actions = {
            "down": widget.action_cursor_down,
            "up": widget.action_cursor_up,
            "top": widget.action_scroll_top,
            "bottom": widget.action_scroll_bottom,
            "page_down": widget.action_page_down,
            "page_up": widget.action_page_up,
        }
    elif isinstance(widget, ScrollableContainer):
        actions = {
            "down": widget.action_scroll_down,
            "up": widget.action_scroll_up,
            # a jump lands at once: Textual animates scroll_home/end (~1 s a key in Help)
            "top": lambda: widget.scroll_home(animate=False),
            "bottom": lambda: widget.scroll_end(animate=False),
            "page_down": widget.action_page_down,
            "page_up": widget.action_page_up,
        }
    else:
        return False
    actions[where]()
    return True


def types_text(key: str) -> bool:
    """Would an input box take ``key`` as text (a letter, a digit, ``/``, ``?``, space)?"""
    char = key_to_character(key)
    return len(pretty_keys(key)) == 1 or (char is not None and char.isprintable())


def text_keys_of(widget: Widget | None) -> Callable[[str], bool] | None:
    """Which keys ``widget`` takes as text: an input box every printable key, a widget with
    ``takes_as_text`` (the search hits) its own; ``None`` for a widget that types nothing."""
    if isinstance(widget, Input):
        return types_text
    takes: Callable[[str], bool] | None = getattr(widget, "takes_as_text", None)
    return takes


def textual_quit_keys() -> str:
    """The key Textual's own App binds to quit (``ctrl+q``): no input box takes it."""
    return next((b.key for b in App.BINDINGS if isinstance(b, Binding) and b.action == "quit"), "")


class KeyFooter(Static):
    """The keys that work here, most useful first (registry ``rank``), as many as fit whole.

    Textual's own footer lays every binding out and lets the terminal cut the line; this
    one measures and drops the least useful keys instead, so no word is ever cut.
    """

    DEFAULT_CSS = "KeyFooter { dock: bottom; height: 1; }"

    _drawn: tuple[str, list[Any]] | None = None  # the line on screen (text, styles): not drawn twice

    def on_mount(self) -> None:
        self._due = False  # its keys changed while a dialog covered it: redraw when back on top
        self.screen.bindings_updated_signal.subscribe(self, lambda _screen: self.redraw())
        self.app.screen_change_signal.subscribe(self, lambda _screen: self._redraw_if_due())
        self.redraw()

    def _redraw_if_due(self) -> None:
        if self._due:
            self.redraw()

    def on_resize(self) -> None:
        self.redraw()

    def items(self) -> list[tuple[str, str]]:
        """(keys, description) of every shown binding of the focused chain, by rank. Where
        the focused widget takes a key as text (an input box: every printable key; the
        search hits: letters), that key is not offered, and Quit is shown by the key that
        still quits there (Textual's own quit key)."""
        text_key = text_keys_of(self.screen.focused)
        seen: set[str] = set()
        found = []
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not binding.show or not enabled or binding.action in seen:
                continue
            keys = binding.key
            if text_key is not None:
                keys = ",".join(k for k in keys.split(",") if not text_key(k.strip()))
            if not keys:
                continue
            seen.add(binding.action)
            found.append((footer_rank(binding.id), keys, binding.description))
        if text_key is not None and "quit" not in seen and (quit_keys := textual_quit_keys()):
            found.append((footer_rank("app.quit"), quit_keys, BY_ID["app.quit"].description))
        found.sort(key=lambda f: f[0])
        return [(pretty_keys(key), description) for _rank, key, description in found]

    #: always kept, whatever the width: how to leave and how to learn the rest
    PINNED = ("Help", "Quit")

    def line_for(self, width: int) -> Content:
        """The footer line for ``width`` columns (styled by the theme's footer variables).

        Help and Quit are kept first (room is made for them), then the most useful keys that
        still fit; everything is shown in rank order."""
        items = self.items()
        size = [Content(f" {k} {d} ").cell_length for k, d in items]
        pinned = [i for i, (_k, d) in enumerate(items) if d in self.PINNED]
        chosen, used = set(pinned), sum(size[i] for i in pinned)
        for i in range(len(items)):
            if i not in chosen and used + size[i] <= width:  # a shorter, less useful one may still fit
                chosen.add(i)
                used += size[i]
        parts: list[tuple[str, str] | str] = []
        for i in sorted(chosen):
            keys, description = items[i]
            parts += [(f" {keys} ", "bold $footer-key-foreground"), f"{description} "]
        return Content.assemble(*parts)

    def redraw(self) -> None:
        """Draw the keys in force. Not while a dialog covers this footer's screen (opening
        one changes the focus, hence the keys): the dialog's screen would be drawn again
        for a footer dimmed under it; it is redrawn when its screen is back on top."""
        if not self.is_attached:
            return
        if self.app.screen is not self.screen:
            self._due = True
            return
        self._due = False
        line = self.line_for(self.size.width or self.app.size.width)
        drawn = (line.plain, list(line.spans))  # Content's == compares the text only
        if drawn == self._drawn:
            return
        self._drawn = drawn
        # one line, docked: its size never changes, so no layout of the screen (a focus
        # change redraws the footer, and a layout then cost a pane switch a second frame)
        self.update(line, layout=False)
