"""First run: no store at the memory root yet. Say what the two memories are and offer ``init``.

Shown instead of an empty Index with a muted status line: it names the folder ``init``
would create (the ``--memory-root`` in effect), what goes there, and that the project
memory (journals, PROJECT.md, USER.md) is memsearch's and needs nothing from us.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from memsearch_tui.engine.api.text import plural
from memsearch_tui.tui.actions import bound_key
from memsearch_tui.tui.screens.modal import Modal
from memsearch_tui.tui.text import home_relative


def first_run_text(memory_root: Path, project: Path, journals: int, keys: tuple[str, str] = ("i", "Esc")) -> Text:
    root, proj = home_relative(memory_root), home_relative(project)
    out = Text()
    out.append("memsearch-tui works on two memories:\n", style="bold")
    out.append("1. Structured memory ", style="bold")
    out.append(f"{root} — not created yet\n")
    out.append("   Entries in categories that you and your agents add, version, archive, forget.\n", style="dim")
    out.append("2. Project memory ", style="bold")
    out.append(f"{proj}/.memsearch — ")
    out.append(f"{plural(journals, 'journal day')}\n" if journals else "no journals yet\n")
    out.append("   Journals, PROJECT.md, USER.md: written by memsearch's agent hooks.\n\n", style="dim")
    out.append(f"{keys[0]} creates the store at ", style="bold")
    out.append(root, style="bold")
    out.append(f" (INDEX.md + config.md, as `memsearch-tui init`); {keys[1]} looks around first.")
    out.append("\nAnother place: restart with --memory-root DIR.", style="dim")
    return out


class FirstRunScreen(Modal[bool]):
    """Offer ``init``; dismisses with True when the user asked to create the store."""

    BINDINGS = [
        Binding("i,y", "dismiss(True)", "Create the store"),
        Binding("escape,n,q", "dismiss(False)", "Not now"),
    ]

    def __init__(self, memory_root: Path, project: Path, journals: int = 0) -> None:
        super().__init__(classes="modal")
        self.memory_root, self.project, self.journals = memory_root, project, journals

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog first-run", id="first-run"):
            yield Label("Welcome: no memory store yet", classes="dialog-title")
            keys = (bound_key(self.BINDINGS, "dismiss(True)"), bound_key(self.BINDINGS, "dismiss(False)"))
            yield Static(first_run_text(self.memory_root, self.project, self.journals, keys), classes="dialog-body")
            with Horizontal(classes="buttons"):
                yield Button(f"Create {home_relative(self.memory_root)} ({keys[0]})", id="init", variant="primary")
                yield Button(f"Not now ({keys[1]})", id="later")

    def on_mount(self) -> None:
        self.query_one("#init", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "init")
