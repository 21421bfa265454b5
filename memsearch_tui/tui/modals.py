"""Modal screens: confirm, error, text editor, file viewer, new entry, conflict, diff, help.

The editor and the new-entry dialog save through a ``Saver``, as a write of the pane that
opened them (``Pane.run_write``, the one write path): a refusal keeps
the dialog open with the error shown inline and the text kept; a ``Conflict`` (the file
changed on disk while it was being edited) opens ``ConflictModal``: keep mine, take
theirs, or look at both as a diff first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Static, TextArea

from memsearch_tui.engine.api.errors import Conflict, MemsearchError
from memsearch_tui.engine.api.types import HistoryItem
from memsearch_tui.tui.actions import APP, PANE_TITLES, REGISTRY, bound_key, key_of, keys_for, pretty_keys
from memsearch_tui.tui.diffview import DiffView
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.screens.modal import Modal
from memsearch_tui.tui.text import safe, untrusted
from memsearch_tui.tui.widgets.columns import Columns, ColumnsView
from memsearch_tui.tui.writes import Outcome, WriteFailed, WritePath


class Saver(Protocol):
    """How a dialog saves (worker thread) and what it offers when the file changed meanwhile."""

    def save(self, value: Any) -> Outcome: ...
    def theirs(self) -> str: ...
    def take_mine(self) -> None: ...


W = TypeVar("W", bound=Widget)


def hidden(widget: W) -> W:
    """``widget``, not shown until its ``display`` is set: hidden before it is mounted,
    not in ``on_mount``, it costs the dialog no second layout as it opens."""
    widget.display = False
    return widget


def save_hint(bindings: list[BindingType]) -> str:
    """'ctrl+s save · Esc cancel' of an editing dialog, from its own bindings."""
    return f"{bound_key(bindings, 'save')} save · {bound_key(bindings, 'cancel')} cancel"


class Question(Modal[bool]):
    """A yes/no question; each subclass binds its own confirm key (``dismiss(True)``)."""

    def __init__(self, title: str, message: str, *, confirm: str = "Confirm", danger: bool = True) -> None:
        super().__init__(classes="modal")
        self.title_text, self.message, self.confirm, self.danger = title, message, confirm, danger

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.title_text), classes="dialog-title")
            yield Static(Text(self.message), classes="dialog-body")
            with Horizontal(classes="buttons"):
                yes, no = bound_key(self.BINDINGS, "dismiss(True)"), bound_key(self.BINDINGS, "dismiss(False)")
                yield Button(f"{self.confirm} ({yes})", id="yes", variant="error" if self.danger else "primary")
                yield Button(f"Cancel ({no})", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class ConfirmModal(Question):
    """Yes/no for destructive actions; y confirms, Escape/n cancels."""

    BINDINGS = [Binding("n,escape", "dismiss(False)", "Cancel"), Binding("y", "dismiss(True)", "Confirm")]


class RejectModal(Question):
    """Reject's question: confirmed by ``r``, not accept's ``y``, so a reflex ``y`` (the
    accept key) on the question can never reject, nor a second one accept the next row."""

    BINDINGS = [Binding("n,escape", "dismiss(False)", "Cancel"), Binding("r", "dismiss(True)", "Reject")]


class AcceptAnywayModal(Question):
    """Accepting a stale proposal: confirmed by ``a``, not accept's ``y``, so the reflex
    ``y y`` that opened the question cannot also answer it."""

    BINDINGS = [Binding("n,escape", "dismiss(False)", "Cancel"), Binding("a", "dismiss(True)", "Accept anyway")]


class OverwriteModal(Question):
    """Accepting over a target that changed since: confirmed by ``o`` (overwrite), not
    accept's ``y``, for the same reason as :class:`AcceptAnywayModal`."""

    BINDINGS = [Binding("n,escape", "dismiss(False)", "Cancel"), Binding("o", "dismiss(True)", "Overwrite")]


class DiscardModal(Question):
    """Escape in an editing dialog with typed text: discard it (``d``) or keep editing."""

    BINDINGS = [Binding("n,escape", "dismiss(False)", "Keep editing"), Binding("d", "dismiss(True)", "Discard")]

    def __init__(self, what: str) -> None:
        super().__init__(f"Discard your changes to {what}?", "What you typed is not saved.", confirm="Discard")


class ErrorModal(Modal[None]):
    """An unexpected error, shown instead of crashing; the app keeps running."""

    BINDINGS = [Binding("escape,enter,q", "dismiss", "Close")]

    def __init__(self, title: str, detail: str) -> None:
        super().__init__(classes="modal")
        self.title_text, self.detail = title, detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(Text(self.title_text), classes="dialog-title error")
            with VerticalScroll(classes="dialog-scroll"):
                yield Static(Text(self.detail))
            yield Label(
                f"The app is still running. {bound_key(self.BINDINGS, 'dismiss')} closes this message.", classes="hint"
            )


class DiffModal(Modal[None]):
    """Two texts as a diff (side by side when wide); Escape closes."""

    BINDINGS = [Binding("escape,q", "dismiss", "Close")]

    def __init__(self, title: str, old: str, new: str, *, left: str, right: str) -> None:
        super().__init__(classes="modal")
        self.title_text, self.texts = title, (old, new, left, right)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog editor"):
            yield Label(Text(self.title_text), classes="dialog-title")
            with VerticalScroll(classes="dialog-scroll"):
                yield DiffView(id="conflict-diff")
            yield Label(f"{bound_key(self.BINDINGS, 'dismiss')} goes back", classes="hint")

    def on_mount(self) -> None:
        old, new, left, right = self.texts
        self.query_one(DiffView).show(old, new, left=left, right=right)


class ConflictModal(Modal[str | None]):
    """The file changed on disk during an edit: keep mine, take theirs, or compare first.

    Returns ``"mine"`` or ``"theirs"``; ``None`` (Escape) goes back to the edit.
    """

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Back"),
        Binding("m", "choose('mine')", "Keep mine"),
        Binding("t", "choose('theirs')", "Take theirs"),
        Binding("d", "diff", "Diff"),
    ]

    def __init__(self, what: str, mine: str, theirs: str) -> None:
        super().__init__(classes="modal")
        self.what, self.mine, self.theirs = what, mine, theirs

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(f"{self.what} changed meanwhile"), classes="dialog-title error")
            yield Static(
                Text(
                    "Someone else (an agent, the CLI, a hook) saved this file while you were editing it. "
                    "Nothing was written."
                ),
                classes="dialog-body",
            )
            with Horizontal(classes="buttons"):
                mine, theirs = (bound_key(self.BINDINGS, f"choose('{c}')") for c in ("mine", "theirs"))
                yield Button(f"Keep mine ({mine})", id="mine", variant="error")
                yield Button(f"Take theirs ({theirs})", id="theirs", variant="primary")
                yield Button(f"Diff ({bound_key(self.BINDINGS, 'diff')})", id="diff")

    def on_mount(self) -> None:
        self.query_one("#diff", Button).focus()

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    def action_diff(self) -> None:
        self.app.push_screen(DiffModal(self.what, self.theirs, self.mine, left="theirs (on disk)", right="mine"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "diff":
            self.action_diff()
        else:
            self.dismiss(event.button.id)


class SavingModal(Modal[Any]):
    """A dialog that saves through a ``Saver`` and stays open on a refusal. It answers the
    ``Outcome`` of the save, or (no saver: the caller saves) the value typed, or None.

    The save is a write of the pane that opened the dialog (``pane.run_write``: the app's
    one write path, so it is reported, reloads the panes and is undoable like any other);
    the dialog closes once it is done, or shows the refusal and keeps the text."""

    def __init__(self, saver: Saver | None, what: str, pane: WritePath | None = None) -> None:
        super().__init__(classes="modal")
        self.saver, self.what, self.pane = saver, what, pane
        self.saving = False
        self.initial: Any = None  # the value as the dialog opened (Escape asks when it changed)

    def on_mount(self) -> None:
        self.show_error("")
        self.initial = self.value()

    def value(self) -> Any:
        raise NotImplementedError

    def show_error(self, message: str) -> None:
        """The refusal in place of the key hint (the hint comes back when it is cleared), so
        the text field loses as few rows as the refusal needs beyond the hint's."""
        label = self.query_one("#dialog-error", Label)
        label.update(Text(message))
        label.display = bool(message)
        for hint in self.query(".hint"):
            hint.display = not message

    def action_save(self) -> None:
        value = self.value()
        if self.saver is None or self.pane is None:
            self.dismiss(value)
            return
        if self.saving:
            return
        self.saving = True
        self.show_error("")
        saver = self.saver

        def write() -> Outcome:
            try:
                return saver.save(value)
            except Conflict as exc:
                exc.theirs = saver.theirs()  # type: ignore[attr-defined]  # deleted meanwhile: that error instead
                raise

        self.pane.run_write("save", write, failed=self._failed, done=self._done)

    def _done(self, outcome: Outcome) -> None:
        self.saving = False
        self.dismiss(outcome)

    def _failed(self, message: WriteFailed) -> None:
        self.saving = False
        exc = message.error
        if isinstance(exc, Conflict) and hasattr(exc, "theirs"):
            self.show_error(str(exc))
            self.app.push_screen(ConflictModal(self.what, str(self.value()), exc.theirs), self._resolved)
        elif isinstance(exc, MemsearchError):
            self.show_error(str(exc))  # the dialog stays open, the text is kept
        else:
            self.app.report(exc)

    def _resolved(self, choice: str | None) -> None:
        if choice == "mine" and self.saver is not None:
            self.saver.take_mine()
            self.action_save()
        elif choice == "theirs":
            note = f"kept the version on disk; your edit of {self.what} was dropped"
            self.dismiss(None)  # first: the note is told over the pane, not in this closing dialog
            self.app.notify(note, title=self.pane.label if self.pane is not None else "Edit")
            self.app.refresh_panes()  # the version on disk, drawn again

    def action_cancel(self) -> None:
        """Escape: closes at once when nothing was typed, else asks before dropping it."""
        if self.value() == self.initial:
            self.dismiss(None)
            return
        self.app.push_screen(DiscardModal(self.what), lambda discard: discard and self.dismiss(None))


class TextEditModal(SavingModal):
    """Edit a text in place; ctrl+s saves, Escape cancels."""

    BINDINGS = [Binding("ctrl+s", "save", "Save", priority=True), Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        text: str,
        *,
        saver: Saver | None = None,
        pane: WritePath | None = None,
        what: str = "",
        language: str | None = "markdown",
    ) -> None:
        super().__init__(saver, what or title, pane)
        self.title_text, self.text, self.language = title, text, language

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog editor"):
            yield Label(Text(self.title_text), classes="dialog-title")
            area = TextArea(self.text, id="editor", show_line_numbers=True, soft_wrap=True)
            try:
                area.language = self.language
            except Exception:  # a language without its tree-sitter grammar: plain text
                pass
            yield area
            yield Label("", id="dialog-error", classes="dialog-error")
            yield Label(save_hint(self.BINDINGS), classes="hint")

    def on_mount(self) -> None:  # SavingModal.on_mount runs too (Textual calls each class's)
        self.query_one(TextArea).focus()

    def value(self) -> str:
        return self.query_one(TextArea).text


class ViewerModal(Modal[None]):
    """Read-only text (a transcript, a file) in a scrollable pane."""

    BINDINGS = [Binding("escape,q", "dismiss", "Close")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(classes="modal")
        self.title_text, self.text = title, text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog editor"):
            yield Label(untrusted(self.title_text, keep_newlines=False), classes="dialog-title")
            yield TextArea(self.text, read_only=True, id="viewer", soft_wrap=True)
            yield Label(f"{bound_key(self.BINDINGS, 'dismiss')} closes", classes="hint")


class AddEntryModal(SavingModal):
    """Category, title, tags and body of a new entry."""

    BINDINGS = [Binding("ctrl+s", "save", "Save", priority=True), Binding("escape", "cancel", "Cancel")]

    def __init__(self, category: str = "", *, saver: Saver | None = None, pane: WritePath | None = None) -> None:
        super().__init__(saver, "the new entry", pane)
        self.category = category

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog editor"):
            yield Label("New entry", classes="dialog-title")
            # select_on_focus off: tabbing back to a typed field must not let the next key replace it
            yield Input(self.category, placeholder="category (e.g. projects/web)", id="category", select_on_focus=False)
            yield Input(placeholder="title", id="title", select_on_focus=False)
            yield Input(placeholder="tags, comma separated", id="tags", select_on_focus=False)
            yield TextArea("", id="body", soft_wrap=True)
            yield Label("", id="dialog-error", classes="dialog-error")
            yield Label(f"{save_hint(self.BINDINGS)} · Tab next field", classes="hint")

    def on_mount(self) -> None:  # SavingModal.on_mount runs too (Textual calls each class's)
        first_empty = next((i for i in self.query(Input) if not i.value.strip()), None)  # always: the first empty field
        (first_empty or self.query_one("#body", TextArea)).focus()

    def value(self) -> dict[str, Any]:
        tags = [t.strip() for t in self.query_one("#tags", Input).value.split(",") if t.strip()]
        return {
            "category": self.query_one("#category", Input).value.strip(),
            "title": self.query_one("#title", Input).value.strip(),
            "tags": tags,
            "body": self.query_one("#body", TextArea).text,
        }


class HelpScreen(Modal[None]):
    """Every action of the registry with its keys (after the user's keymap), the current
    pane's first; ``j k g G PgUp PgDn`` scroll, ``/`` filters (Esc leaves the filter)."""

    BINDINGS = [
        Binding("escape,q,f1,question_mark", "dismiss", "Close"),
        Binding("slash", "filter", "Filter"),
        Binding("j,down", "scroll('down')", "Down", show=False),
        Binding("k,up", "scroll('up')", "Up", show=False),
        Binding("g,home", "scroll('top')", "First", show=False),
        Binding("G,end", "scroll('bottom')", "Last", show=False),
        Binding("pagedown", "scroll('page_down')", "Page down", show=False),
        Binding("pageup", "scroll('page_up')", "Page up", show=False),
    ]

    def __init__(self, keymap: dict[str, str], scope: str = APP, unlisted: frozenset[str] = frozenset()) -> None:
        """``unlisted``: ids of actions that cannot run in this memory at all (``init`` once
        the store exists), left out so the list does not offer them."""
        super().__init__(classes="modal")
        self.keymap, self.scope, self.unlisted = keymap, scope, unlisted

    def compose(self) -> ComposeResult:
        from memsearch_tui.tui.widgets.keys import EscInput

        with Vertical(classes="dialog wide"):
            yield Label("Keys — rebind any of them in [tui.keymap] by id", classes="dialog-title")
            yield hidden(EscInput(placeholder="filter: key, action or id", id="help-filter", select_on_focus=False))
            yield ColumnsView(self._table(""), id="help-table", classes="dialog-scroll")
            yield Label(
                "Esc leaves an input box (the first press clears it) · digits switch panes · "
                f"{key_of(self.keymap, 'app.palette')} commands · "
                f"{bound_key(self.BINDINGS, 'filter')} filters this list",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one("#help-table", ColumnsView).focus()

    def action_filter(self) -> None:
        box = self.query_one("#help-filter", Input)
        box.display = True
        box.focus()

    def action_scroll(self, where: str) -> None:
        from memsearch_tui.tui.widgets.keys import move

        move(self.query_one("#help-table", ColumnsView), where)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#help-table", ColumnsView).update(self._table(event.value))

    def leave_input(self) -> None:
        """Escape from the filter (``EscInput``): back to the list, the filter hidden."""
        box = self.query_one("#help-filter", Input)
        box.display = False
        self.query_one("#help-table", ColumnsView).focus()

    def _specs(self) -> list[Any]:
        """The current pane's actions first, then everything else in registry order."""
        shown = [s for s in REGISTRY if s.id not in self.unlisted]
        return [s for s in shown if s.scope == self.scope] + [s for s in shown if s.scope != self.scope]

    def _table(self, needle: str) -> Columns:
        rows: list[tuple[Text, ...]] = []
        last = None
        want = needle.strip().lower()
        for spec in self._specs():
            where = "Everywhere" if spec.scope == APP else PANE_TITLES.get(spec.scope, spec.scope)
            keys = pretty_keys(keys_for(spec, self.keymap))
            if want and not any(want in t.lower() for t in (where, keys, spec.description, spec.id)):
                continue
            rows.append(
                (
                    Text(where if where != last else "", style="bold"),
                    Text(keys, style="bold"),
                    Text(spec.description),
                    Text(spec.id, style="dim"),
                )
            )
            last = where
        return Columns(("Where", "Keys", "Action", "Id"), rows, stretch=2)


BY_WIDTH = 24  # the undo list's "by" column: "mcp:claude-code" fits, a long acceptance note is cut


class UndoModal(Modal[None]):
    """The operation log, newest first: who did what, when; ``u`` undoes the newest one,
    ``r`` redoes the most recently undone one.

    Only the operation marked on screen is undone or redone: an agent's write that lands
    while the list is open is listed (and ends the redo chain), never acted on blind.
    """

    BINDINGS = [
        Binding("u,enter", "undo", "Undo newest"),
        Binding("r", "redo", "Redo"),
        Binding("escape,q", "dismiss", "Close"),
    ]

    def __init__(
        self,
        load: Callable[[], list[HistoryItem]],
        undo: Callable[[int], Outcome],
        redo: Callable[[int], Outcome],
        writer: WritePath,
    ) -> None:
        super().__init__(classes="modal")
        self.load, self.undo, self.redo = load, undo, redo
        self.writer = writer  # the pane on screen: undo and redo are its writes (``run_write``)
        self.records: list[HistoryItem] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label("Undo history (newest first)", classes="dialog-title")
            yield ColumnsView(id="undo-list", classes="dialog-scroll")
            yield hidden(Label("", id="dialog-error", classes="dialog-error"))
            undo, redo = bound_key(self.BINDINGS, "undo"), bound_key(self.BINDINGS, "redo")
            yield Label(
                f"{undo} undoes the newest change (← {undo}) · {redo} redoes (← {redo}) · "
                f"{bound_key(self.BINDINGS, 'dismiss')} closes",
                classes="hint",
            )

    def on_mount(self) -> None:
        self._reload()

    def heard(self) -> None:
        """A write's notice reached the list: that write may have landed after the list was
        read (``y`` then ``u`` at once), so it is read again and ``← u`` never points at the
        change before it. Before the mount, ``on_mount``'s read comes after it anyway."""
        if self.is_mounted:
            self._reload()

    def newest(self) -> HistoryItem | None:
        return next((r for r in self.records if not r.undone and r.kind != "init"), None)

    def redo_target(self) -> HistoryItem | None:
        return next((r for r in self.records if r.redoable), None)

    def _shown(self) -> bool:
        """Still on the screen stack? An undo or a reload can finish after Escape closed the
        list: its outcome is still told and the panes reload, but there is no list to draw."""
        return self.is_attached and self in self.app.screen_stack

    def _draw(self) -> None:
        from memsearch_tui.tui.palette import PALETTE

        if not self._shown():
            return
        top, redo = self.newest(), self.redo_target()
        undo_key, redo_key = bound_key(self.BINDINGS, "undo"), bound_key(self.BINDINGS, "redo")
        rows: list[tuple[Text, ...]] = []
        for r in self.records[:200]:
            state = Text("undone", style="dim") if r.undone else Text("")
            if r is top:
                state = Text(f"← {undo_key}", style=f"bold {PALETTE.accent}")
            elif r is redo:
                state = Text(f"undone ← {redo_key}", style=f"bold {PALETTE.accent}")
            style = "dim" if r.undone else ""
            rows.append(
                (
                    Text(str(r.seq)),
                    Text(r.at.replace("T", " ").removesuffix("Z")[:16], style=style),
                    Text(safe(r.by or "—"), style=style or "dim"),  # who: tui, cli, hook, mcp:<client>
                    Text(safe(r.summary), style=style),
                    state,
                )
            )
        if not self.records:
            self.query_one("#undo-list", ColumnsView).update(Text("Nothing has been logged yet.", style="dim"))
            return
        self.query_one("#undo-list", ColumnsView).update(
            Columns(("#", "when", "by", "what", ""), rows, stretch=3, caps={2: BY_WIDTH})
        )

    def _done(self, outcome: Outcome) -> None:
        """An undo or redo finished: its note is told by the write path (on the list's own
        message line while the list is up, a toast over the pane once it was closed)."""
        self.app.refresh_panes(lazily=True)  # the pane behind the list now, the others when shown
        if self._shown():
            self._reload()

    def _failed(self, message: WriteFailed) -> None:
        if not self._shown():
            self.app.report(message.error)
            return
        self.say(str(message.error), severity="error")
        if not isinstance(message.error, MemsearchError):
            self.app.report(message.error)
        self._reload()

    def _reload(self) -> None:
        def work() -> None:
            try:
                self.records = self.load()
            except Exception as exc:
                self.app.call_from_thread(self._list_failed, exc)
                return
            call_while_shown(self, self._draw)

        self.run_worker(work, thread=True, group="undo-list", exclusive=True, exit_on_error=False)

    def action_undo(self) -> None:
        top = self.newest()
        if top is None:
            self.say("nothing to undo")
            return
        self._run("undo", self.undo, top.seq)

    def action_redo(self) -> None:
        target = self.redo_target()
        if target is None:
            self.say("nothing to redo: no undo since the last change")
            return
        self._run("redo", self.redo, target.seq)

    def _list_failed(self, error: BaseException) -> None:
        """The history could not be read: said on the list's line, reported when unexpected."""
        if not self._shown():
            self.app.report(error)
            return
        self.say(str(error), severity="error")
        if not isinstance(error, MemsearchError):
            self.app.report(error)

    def _run(self, action: str, step: Callable[[int], Outcome], seq: int) -> None:
        """Undo or redo operation ``seq``: a write of the pane on screen (the one write
        path); the list reloads either way."""
        self.writer.run_write(action, lambda: step(seq), done=self._done, failed=self._failed)


def redo_hint() -> str:
    """The undo history's redo key, for the note after an undo ('r')."""
    return bound_key(UndoModal.BINDINGS, "redo")
