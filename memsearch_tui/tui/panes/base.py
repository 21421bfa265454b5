"""What every pane shares: the engine context, lazy first load, reload keeping selection.

One pane = one controller (lazygit's model): it owns its widgets, asks the engine for data
in a worker thread, and applies the result on the UI thread. Errors from the engine become
notifications; anything unexpected goes to the app's error modal.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from textual.containers import Vertical
from textual.widgets import Static

from memsearch_tui.engine.memsearch.project import memsearch_dir
from memsearch_tui.engine.store.store import Store

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class Context:
    """The two memories the app works on, and the engine objects for them."""

    memory_root: Path
    project: Path
    store: Store = field(init=False)

    def __post_init__(self) -> None:
        self.memory_root = Path(self.memory_root).expanduser().absolute()
        self.project = Path(self.project).expanduser().absolute()
        self.store = Store(self.memory_root)

    @property
    def msdir(self) -> Path:
        return memsearch_dir(self.project)

    def config(self):
        from memsearch_tui.engine.memsearch.config import load_config

        return load_config(self.project)


def guard(method: F) -> F:
    """Run a pane/app handler; an exception is reported (notify or modal), never fatal."""
    if inspect.iscoroutinefunction(method):

        @functools.wraps(method)
        async def async_wrapper(self, *args, **kwargs):
            try:
                return await method(self, *args, **kwargs)
            except Exception as exc:
                self.app.report(exc)

        return async_wrapper  # type: ignore[return-value]

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            self.app.report(exc)

    return wrapper  # type: ignore[return-value]


def set_busy(widget, busy: bool) -> None:
    """Show Textual's loading overlay on ``widget`` while a worker runs.

    Never on the focused widget: a loading widget gives up focus, and Textual would hand
    it to a widget in another tab, which then switches tabs under the user.
    """
    if busy and widget.has_focus:
        return
    widget.loading = busy


class Pane(Vertical):
    """Base of the six panes. Subclasses implement ``load`` (worker) and ``apply`` (UI)."""

    pane_id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: path fragments whose change means this pane must reload (see ``wants``)
    watches: ClassVar[tuple[str, ...]] = ()

    def __init__(self, ctx: Context) -> None:
        super().__init__(id=f"pane-{self.pane_id}", classes="pane")
        self.ctx = ctx
        self.loaded = False

    # -- lifecycle -----------------------------------------------------------------
    def activate(self) -> None:
        """Called when the pane's tab is shown: the first time, load its data."""
        if not self.loaded:
            self.loaded = True
            self.reload()

    def reload(self) -> None:
        """Fetch data from the engine in a worker; ``apply`` runs on the UI thread."""
        self.run_worker(
            self._load_then_apply,
            thread=True,
            exclusive=True,
            group=f"load-{self.pane_id}",
            exit_on_error=False,
            name=f"load {self.pane_id}",
        )

    def _load_then_apply(self) -> None:
        data = self.load()
        self.app.call_from_thread(self._apply_guarded, data)

    @guard
    def _apply_guarded(self, data: Any) -> None:
        self.apply(data)

    def load(self) -> Any:
        """Engine calls (worker thread). Must not touch widgets."""
        return None

    def apply(self, data: Any) -> None:
        """Show ``data`` (UI thread), keeping the selection where possible."""

    def wants(self, paths: set[Path]) -> bool:
        """Does a change of these files affect this pane?"""
        return any(part in str(p) for p in paths for part in self.watches) if self.watches else True

    def files_changed(self, paths: set[Path]) -> None:
        if self.loaded and self.wants(paths):
            self.reload()

    #: CSS selector of the widget that gets focus when the pane is shown
    main_widget: ClassVar[str] = ""

    def focus_main(self) -> None:
        if self.main_widget:
            self.query_one(self.main_widget).focus()
        else:
            self.app.set_focus(None)

    def placeholder(self, text: str) -> Static:
        return Static(text, classes="placeholder")
