"""What every pane shares: the engine context, lazy first load, reload keeping selection, writes.

One pane = one controller (lazygit's model): it owns its widgets, asks the engine for data
in a worker thread, and applies the result on the UI thread. Every write runs in a worker
too (``run_write``) and reports back with a typed message (``WriteDone`` / ``WriteFailed``),
so a slow disk or a held lock never freezes the screen. A write passes the bytes the pane
showed (``expected=``); a ``Conflict`` (the file changed since) is reported and every pane
reloads, so the user sees the change before deciding again. Errors from the engine become
notifications; anything unexpected goes to the app's error modal.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import OptionList, TabbedContent, Tree
from textual.worker import Worker, WorkerState

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.api.text import plural as plural  # the one plural helper, re-exported for the panes
from memsearch_tui.tui.actions import PANE_TITLES, key_of, undoes
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.writes import Outcome as Outcome  # re-exported for the panes
from memsearch_tui.tui.writes import WriteDone as WriteDone
from memsearch_tui.tui.writes import WriteFailed as WriteFailed
from memsearch_tui.tui.writes import Writer

if TYPE_CHECKING:
    from textual.widgets import DataTable

    from memsearch_tui.engine.api.records import Config
    from memsearch_tui.tui.app import MemsearchApp
    from memsearch_tui.tui.widgets.keys import EscInput

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class Context:
    """The two memories the app works on, and the one door to the engine for them
    (``mem``: ``engine.api.Memory``, grouped by noun)."""

    memory_root: Path
    project: Path
    mem: Memory = field(init=False)

    def __post_init__(self) -> None:
        self.memory_root = Path(self.memory_root).expanduser().absolute()
        self.project = Path(self.project).expanduser().absolute()
        self.mem = Memory(self.memory_root, self.project, share=True)  # owns the warm index for other faces

    def store_exists(self) -> bool:
        """Is there a store at the memory root? (The panes offer ``init`` when not.)"""
        return self.mem.entries.exists()

    @property
    def msdir(self) -> Path:
        return self.mem.memsearch_dir

    def config(self) -> Config:
        """The project's memsearch config (``[tui]``, the maintenance tasks), read now."""
        return self.mem.maintenance.config()


def guard(method: F) -> F:
    """Run a pane/app handler; an exception is reported (notify or modal), never fatal."""
    if inspect.iscoroutinefunction(method):

        @functools.wraps(method)
        async def async_wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return await method(self, *args, **kwargs)
            except Exception as exc:
                self.app.report(exc)

        return async_wrapper  # type: ignore[return-value]

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            self.app.report(exc)

    return wrapper  # type: ignore[return-value]


def set_busy(widget: Widget, busy: bool) -> None:
    """Show Textual's loading overlay on ``widget`` while a worker runs.

    Never on the focused widget: a loading widget gives up focus, and Textual would hand
    it to a widget in another tab, which then switches tabs under the user.
    """
    if busy and widget.has_focus:
        return
    widget.loading = busy


class Pane(Vertical, Writer):
    """Base of the panes. Subclasses implement ``load`` (worker) and ``apply`` (UI)."""

    pane_id: ClassVar[str] = ""
    #: path fragments whose change means this pane must reload (see ``wants``)
    watches: ClassVar[tuple[str, ...]] = ()
    #: CSS selector of the widget that gets focus when the pane is shown
    main_widget: ClassVar[str] = ""
    #: CSS selector of the list an Escape from this pane's input box moves to
    list_widget: ClassVar[str] = ""

    if TYPE_CHECKING:  # a pane only ever lives in the memsearch app: say so to the type checker

        @property
        def app(self) -> MemsearchApp: ...  # type: ignore[override]

    def __init__(self, ctx: Context) -> None:
        super().__init__(id=f"pane-{self.pane_id}", classes="pane")
        self.ctx = ctx
        self.loaded = False
        self._data: Any = None  # the last load's answer: a theme change re-draws it, no reload
        self._restyle_due = False  # the theme changed while this pane was hidden
        self._reload_due = False  # its files changed while it was hidden (``reload_when_shown``)

    @property
    def label(self) -> str:
        """The pane's title (toast titles)."""
        return PANE_TITLES.get(self.pane_id, self.pane_id)

    def key(self, action_id: str) -> str:
        """The key the user presses for ``action_id`` (registry + keymap): for hints."""
        return key_of(self.app.keymap, action_id)

    @property
    def undoes(self) -> str:
        """'u undoes' with the user's undo key: the tail of a note about a write."""
        return undoes(self.app.keymap)

    def can_run(self, action_id: str) -> bool:
        """Could ``action_id`` act now (the palette hides those that could not)? A pane
        that was never shown does not know yet, so it offers everything."""
        return True

    # -- lifecycle -----------------------------------------------------------------
    def activate(self) -> None:
        """Called when the pane's tab is shown: the first time, load its data."""
        if not self.loaded:
            self.loaded = True
            self.reload()
        elif self._reload_due:
            self._restyle_due = False  # the reload draws in the current theme
            self.reload()
        elif self._restyle_due:
            self.restyle()

    def reload_when_shown(self) -> None:
        """Reload now if this pane is on screen, else when it is next shown (``activate``).
        An undo in the undo history reloaded all eight panes behind the list, two thirds of
        the key's time; only the one drawn behind it needs its data now."""
        if not self.loaded:
            return
        if self.is_shown():
            self.reload()
        else:
            self._reload_due = True

    def restyle(self) -> None:
        """The theme changed: labels and diffs carry the old colours. The shown pane draws
        its last answer again at once (no engine call: a reload of every pane took up to
        1.5 s under load); a hidden one does it when next shown."""
        if not self.loaded or self._data is None:
            return
        if not self.is_shown():
            self._restyle_due = True
            return
        self._restyle_due = False
        self._apply_guarded(self._data)

    def reload(self) -> None:
        """Fetch data from the engine in a worker; ``apply`` runs on the UI thread."""
        self._reload_due = False
        self.run_worker(
            self._load_then_apply,
            thread=True,
            exclusive=True,
            group=f"load-{self.pane_id}",
            exit_on_error=False,
            name=f"load {self.pane_id}",
        )

    def _load_then_apply(self) -> None:
        self.apply_from_thread(self.load())

    def apply_from_thread(self, data: Any, apply: Callable[[Any], None] | None = None) -> bool:
        """Worker thread: ``apply`` this answer (``self.apply`` by default) on the UI thread,
        unless the app has begun to exit by then (the pane's widgets may be gone:
        ``from_thread``), or this load's worker was cancelled by then (a reload since: its
        newer answer is drawn, and an older one arriving after it would stay on screen);
        whether the app still showed the pane."""
        from textual.worker import NoActiveWorker, get_current_worker

        draw = apply or self._apply_guarded
        try:
            worker = get_current_worker()
        except NoActiveWorker:  # called outside a worker: nothing can supersede it
            return call_while_shown(self, draw, data)
        return call_while_shown(self, self._apply_unless_cancelled, worker, draw, data)

    @staticmethod
    def _apply_unless_cancelled(worker: Any, draw: Callable[[Any], None], data: Any) -> None:
        """(UI thread, where a reload cancels the older load: no answer slips in between.)"""
        if not worker.is_cancelled:
            draw(data)

    @guard
    def _apply_guarded(self, data: Any) -> None:
        self._data = data
        self.apply(data)
        self.call_after_refresh(self.keep_cursor_visible)  # a reload after $EDITOR, a write

    def on_resize(self) -> None:
        """A resize must not leave the selected row off screen (the lists' own scroll stays)."""
        self.call_after_refresh(self.keep_cursor_visible)

    def keep_cursor_visible(self) -> None:
        """Scroll each shown list, tree and table of this pane just enough that its cursor
        row is in view (after a reload or a resize; a row already in view does not move)."""
        for widget in self.query("Tree, OptionList, DataTable"):
            if not widget.display or not widget.size.height:
                continue
            if isinstance(widget, Tree):
                if widget.cursor_line >= 0:
                    widget.scroll_to_line(widget.cursor_line, animate=False)
            elif isinstance(widget, OptionList):
                widget.scroll_to_highlight()
            else:  # a DataTable, by the query (not named here: the first frame shows none, ~4 ms of import)
                table = cast("DataTable[Any]", widget)
                if table.row_count:
                    table.move_cursor(row=table.cursor_row, column=table.cursor_column, animate=False, scroll=True)

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

    def is_shown(self) -> bool:
        """Is this pane's tab the one on screen? (Focusing a hidden pane switches tabs.)"""
        return self.app.query_one("#tabs", TabbedContent).active == self.pane_id

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A pane's worker failed: report it (``StateChanged`` does not bubble to the app,
        so without this a failed load, search or index build would pass unseen)."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            name = event.worker.name
            self.app.report(event.worker.error, title=f"{name} failed" if name else None)

    # -- focus -----------------------------------------------------------------------
    def focus_main(self) -> None:
        if self.main_widget:
            self.query_one(self.main_widget).focus()
        else:
            self.app.set_focus(None)

    def on_esc_input_leave(self, message: EscInput.Leave) -> None:
        message.stop()
        self.leave_input()

    def leave_input(self) -> None:
        """Escape from an input box of this pane: focus its list."""
        self.query_one(self.list_widget or self.main_widget).focus()
