"""Import notes into the store (``memsearch-tui import PATH``) with a progress bar.

An agent's MEMORY.md or a folder of notes becomes entries of one category; items already
there, secrets and near-duplicates are skipped and counted. The import is a write of
the pane that opened the dialog (``Pane.run_write``: one logged transaction, so ``u`` undoes
it) and reports each item to the bar.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from memsearch_tui.engine.api.errors import MemsearchError
from memsearch_tui.engine.api.types import ImportResult
from memsearch_tui.tui.actions import bound_key, undoes
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.screens.modal import Modal
from memsearch_tui.tui.text import home_relative, untrusted
from memsearch_tui.tui.widgets.work_progress import WorkProgress
from memsearch_tui.tui.writes import Outcome, WriteFailed, WritePath


class ImportScreen(Modal[ImportResult | None]):
    """Path and category in, the outcome shown here; the import itself is a write of the
    pane that opened it (``pane.run_write``: reported, reloaded and undoable like any)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(self, pane: WritePath) -> None:
        super().__init__(classes="modal")
        self.pane = pane
        self.result: ImportResult | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="import"):
            yield Label("Import notes into the store", classes="dialog-title")
            yield Input(placeholder="file or folder, e.g. ~/.claude/CLAUDE.md or ~/notes", id="import-path")
            yield Input("imported", placeholder="category", id="import-category")
            yield WorkProgress(id="import-progress")
            yield Static("", id="import-outcome", classes="dialog-body")
            with Horizontal(classes="buttons"):
                yield Button("Import", id="go", variant="primary")
                yield Button(f"Close ({bound_key(self.BINDINGS, 'dismiss(None)')})", id="close")

    def on_mount(self) -> None:
        self.query_one("#import-path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "go":
            self.start()
        else:
            self.dismiss(self.result)

    def start(self) -> None:
        path = self.query_one("#import-path", Input).value.strip()
        category = self.query_one("#import-category", Input).value.strip() or "imported"
        if not path:
            self.query_one("#import-outcome", Static).update(Text("Name a file or folder to import.", style="bold"))
            return
        bar = self.query_one(WorkProgress)
        bar.start(f"importing {home_relative(path)}…")
        source, mem = Path(path).expanduser(), self.pane.ctx.mem

        def write() -> Outcome:
            try:
                out = mem.layout.import_path(source, category, progress=lambda d, t: bar.report(d, t, f"item {d}/{t}"))
            finally:
                call_while_shown(bar, bar.finish)
            self.result = out
            return Outcome(f"{len(out.imported)} imported into {out.category}, {len(out.skipped)} skipped")

        def failed(message: WriteFailed) -> None:
            if isinstance(message.error, MemsearchError):  # said here; the dialog stays open
                self.query_one("#import-outcome", Static).update(untrusted(str(message.error), "bold"))
            else:
                self.app.report(message.error)

        self.pane.run_write("import", write, failed=failed, done=lambda _: self._show())

    def _show(self) -> None:
        out = self.result
        if out is None or not self.is_attached:
            return
        text = Text(f"{len(out.imported)} imported into {out.category}", style="bold")
        text.append(f" · {len(out.skipped)} skipped ({undoes(self.app.keymap)} the import)\n")
        for s in out.skipped[:8]:
            text.append_text(untrusted(f"  {s.title}: {s.reason}\n", "dim"))
        self.query_one("#import-outcome", Static).update(text)
