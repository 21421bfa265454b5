"""Import notes into the store (``memsearch-tui import PATH``) with a progress bar.

An agent's MEMORY.md or a folder of notes becomes entries of one category; items already
there, secrets and near-duplicates are skipped and counted. The import runs in a worker
(one logged transaction, so ``u`` undoes it) and reports each item to the bar.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from memsearch_tui.engine.api.errors import MemsearchError
from memsearch_tui.tui.actions import bound_key, undoes
from memsearch_tui.tui.screens.modal import Modal
from memsearch_tui.tui.text import home_relative, untrusted
from memsearch_tui.tui.widgets.work_progress import WorkProgress


class ImportScreen(Modal[dict[str, Any] | None]):
    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(self, store) -> None:
        super().__init__(classes="modal")
        self.store = store
        self.result: dict[str, Any] | None = None

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
        self.query_one(WorkProgress).start(f"importing {home_relative(path)}…")
        self.run_worker(
            lambda: self._import(Path(path).expanduser(), category),
            thread=True,
            exclusive=True,
            group="import",
            exit_on_error=False,
            name="import",
        )

    def _import(self, source: Path, category: str) -> None:
        from memsearch_tui.engine.curator.importer import import_path

        bar = self.query_one(WorkProgress)
        try:
            out = import_path(self.store, source, category, progress=lambda d, t: bar.report(d, t, f"item {d}/{t}"))
        except MemsearchError as exc:
            self.app.call_from_thread(self._show, None, str(exc))
            return
        finally:
            self.app.call_from_thread(bar.finish)
        self.app.call_from_thread(self._show, out, "")

    def _show(self, out: dict[str, Any] | None, problem: str) -> None:
        body = self.query_one("#import-outcome", Static)
        if out is None:
            body.update(untrusted(problem, "bold"))
            return
        self.result = out
        text = Text(f"{len(out['imported'])} imported into {out['category']}", style="bold")
        text.append(f" · {len(out['skipped'])} skipped ({undoes(self.app.keymap)} the import)\n")
        for s in out["skipped"][:8]:
            text.append_text(untrusted(f"  {s['title']}: {s['reason']}\n", "dim"))
        body.update(text)
        self.app.refresh_panes()
