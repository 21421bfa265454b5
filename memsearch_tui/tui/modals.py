"""Modal screens: confirm, error, text editor, file viewer, new entry, help."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from memsearch_tui.tui.actions import APP, PANE_TITLES, REGISTRY, keys_for, pretty_keys


class ConfirmModal(ModalScreen[bool]):
    """Yes/no for destructive actions; Enter/y confirms, Escape/n cancels."""

    BINDINGS = [Binding("escape,n", "dismiss(False)", "Cancel"), Binding("y", "dismiss(True)", "Confirm")]

    def __init__(self, title: str, message: str, *, confirm: str = "Confirm", danger: bool = True) -> None:
        super().__init__(classes="modal")
        self.title_text, self.message, self.confirm, self.danger = title, message, confirm, danger

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.message, classes="dialog-body", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(f"{self.confirm} (y)", id="yes", variant="error" if self.danger else "primary")
                yield Button("Cancel (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class ErrorModal(ModalScreen[None]):
    """An unexpected error, shown instead of crashing; the app keeps running."""

    BINDINGS = [Binding("escape,enter,q", "dismiss", "Close")]

    def __init__(self, title: str, detail: str) -> None:
        super().__init__(classes="modal")
        self.title_text, self.detail = title, detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(self.title_text, classes="dialog-title error")
            with VerticalScroll(classes="dialog-scroll"):
                yield Static(self.detail, markup=False)
            yield Label("The app is still running. Esc closes this message.", classes="hint")


class TextEditModal(ModalScreen[str | None]):
    """Edit a text in place; ctrl+s saves, Escape cancels."""

    BINDINGS = [Binding("ctrl+s", "save", "Save", priority=True), Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, text: str, *, language: str | None = "markdown") -> None:
        super().__init__(classes="modal")
        self.title_text, self.text, self.language = title, text, language

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog editor"):
            yield Label(self.title_text, classes="dialog-title")
            area = TextArea(self.text, id="editor", show_line_numbers=True, soft_wrap=True)
            try:
                area.language = self.language
            except Exception:  # a language without its tree-sitter grammar: plain text
                pass
            yield area
            yield Label("ctrl+s save · Esc cancel", classes="hint")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ViewerModal(ModalScreen[None]):
    """Read-only text (a transcript, a file) in a scrollable pane."""

    BINDINGS = [Binding("escape,q", "dismiss", "Close")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(classes="modal")
        self.title_text, self.text = title, text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog editor"):
            yield Label(self.title_text, classes="dialog-title")
            yield TextArea(self.text, read_only=True, id="viewer", soft_wrap=True)
            yield Label("Esc closes", classes="hint")


class AddEntryModal(ModalScreen[dict[str, Any] | None]):
    """Category, title, tags and body of a new entry."""

    BINDINGS = [Binding("ctrl+s", "save", "Save", priority=True), Binding("escape", "cancel", "Cancel")]

    def __init__(self, category: str = "") -> None:
        super().__init__(classes="modal")
        self.category = category

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog editor"):
            yield Label("New entry", classes="dialog-title")
            yield Input(self.category, placeholder="category (e.g. projects/web)", id="category")
            yield Input(placeholder="title", id="title")
            yield Input(placeholder="tags, comma separated", id="tags")
            yield TextArea("", id="body", soft_wrap=True)
            yield Label("ctrl+s save · Esc cancel · Tab next field", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#title" if self.category else "#category", Input).focus()

    def action_save(self) -> None:
        tags = [t.strip() for t in self.query_one("#tags", Input).value.split(",") if t.strip()]
        self.dismiss(
            {
                "category": self.query_one("#category", Input).value.strip(),
                "title": self.query_one("#title", Input).value.strip(),
                "tags": tags,
                "body": self.query_one("#body", TextArea).text,
            }
        )

    def action_cancel(self) -> None:
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    """Every action of the registry with its keys (after the user's keymap)."""

    BINDINGS = [Binding("escape,q,f1,question_mark", "dismiss", "Close")]

    def __init__(self, keymap: dict[str, str]) -> None:
        super().__init__(classes="modal")
        self.keymap = keymap

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label("Keys — rebind any of them in [tui.keymap] by id", classes="dialog-title")
            with VerticalScroll(classes="dialog-scroll"):
                yield Static(self._table())
            yield Label("Esc closes · ctrl+p opens the command palette", classes="hint")

    def _table(self) -> Table:
        table = Table(expand=True, box=None, padding=(0, 1))
        table.add_column("Where", style="bold", no_wrap=True)
        table.add_column("Keys", style="bold cyan", no_wrap=True)
        table.add_column("Action")
        table.add_column("Id", style="dim", no_wrap=True)
        last = None
        for spec in REGISTRY:
            where = "Everywhere" if spec.scope == APP else PANE_TITLES.get(spec.scope, spec.scope)
            table.add_row(
                Text(where if where != last else ""),
                pretty_keys(keys_for(spec, self.keymap)),
                spec.description,
                spec.id,
            )
            last = where
        return table
