"""The base of every dialog: a ``ModalScreen`` that knows it lives in the memsearch app,
and draws the dimmed screen under it once, not at every frame of the dialog.

Textual types ``screen.app`` as a plain ``App``; the dialogs call the app's own methods
(``report``, ``refresh_panes``, ``keymap``), so this base tells the type checker which
app it is.

The dimmed background: a dialog's translucent background (``.modal``: ``$background
60%``) makes Textual draw the whole screen under it again and tint every cell, each time
the dialog's screen is repainted, and opening a dialog repaints it at each layout of its
content (six times for the undo history): ~1/3 of opening one. ``Modal`` keeps the
tinted lines until the screen under it changes (Textual then repaints the dialog's
screen in the changed regions: ``refresh`` with regions), the size or the tint changes.

The layouts: a screen shown for the first time gets a ``Resize`` for the size it was just
laid out at, and Textual lays it out again — and every screen under it; opening a dialog
laid out and drew the dialog and the app's screen twice more for nothing. ``OneLayoutPerSize``
(on every dialog and on the app's own screen, ``MainScreen``) skips a re-layout at the
size a screen is laid out at already.

The size classes: Textual gives a screen its breakpoint classes (``-wide``, ``-short``…)
at its first ``Resize``, after the screen was styled and laid out: the app's own screen was
styled, laid out and drawn a second time for them before its first frame settled (~1/8 of
the app's start). ``OneLayoutPerSize`` is made with the classes of the app's size, so that
``Resize`` finds nothing to change.

The notices: Textual draws its toasts over whatever screen is on top, so a toast posted
while a dialog is up covered the dialog's own text. A dialog shows no toast (``app.tcss``
hides the toast rack on a ``Modal``; toasts posted before it opened come back when it
closes), and a notice posted while it is up is drawn inside it, on its message line
(``Modal.say``, called by the app's ``notify``): it stays until the dialog's next action
replaces or clears it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import App
from textual.geometry import Region
from textual.message import Message
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.style import Style
from textual.types import NoActiveAppError
from textual.visual import RenderOptions, RichVisual, Visual
from textual.widgets import Label

from memsearch_tui.tui.text import safe
from memsearch_tui.tui.textual_private import LaidOutOncePerSize, ResultT

if TYPE_CHECKING:
    from typing import Self

    from textual.css.styles import RulesMap

    from memsearch_tui.tui.app import MemsearchApp
    from memsearch_tui.tui.widgets.keys import EscInput


class KeptBackground(Visual):
    """Textual's tinted screen-under-the-dialog (``BackgroundScreen``), its strips kept on
    the dialog for as long as the key (size, tint, changes under it) stays the same."""

    def __init__(self, owner: Modal[Any], tinted: BackgroundScreen) -> None:
        self.owner, self.tinted = owner, tinted

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        key = (width, height, self.tinted.color, style, self.owner.changes_under)
        kept = self.owner.kept_background
        if kept is None or kept[0] != key:
            strips = RichVisual(self.owner, self.tinted).render_strips(width, height, style, options)
            kept = self.owner.kept_background = (key, strips)
        return kept[1]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.owner.size.height


def size_classes(app: App[Any]) -> list[str]:
    """The breakpoint classes Textual's ``Screen`` sets at a ``Resize`` to the app's size:
    for each axis, the class of the largest breakpoint the size reaches."""
    width, height = app.size
    out = []
    for size, points in ((width, app.HORIZONTAL_BREAKPOINTS), (height, app.VERTICAL_BREAKPOINTS)):
        out += [next((name for at, name in sorted(points or [], reverse=True) if size >= at), "")]
    return [name for name in out if name]


class OneLayoutPerSize(LaidOutOncePerSize[ResultT]):
    """A screen that is not laid out again at the size it is laid out at, and is styled
    for the app's size from the start (its size classes: see the module)."""

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        try:
            sized = size_classes(self.app)
        except NoActiveAppError:  # made outside a running app: the first Resize sets them
            sized = []
        super().__init__(name=name, id=id, classes=" ".join([classes or "", *sized]).strip() or None)

    def on_esc_input_leave(self, message: EscInput.Leave) -> None:
        """Escape left an input box no pane holds: a dialog's own ``leave_input`` (its
        list), else the next widget."""
        message.stop()
        leave = getattr(self, "leave_input", None)
        if callable(leave):
            leave()
        else:
            self.focus_next()


class MainScreen(OneLayoutPerSize[None]):
    """The app's own screen (``MemsearchApp.get_default_screen``)."""

    shown = False  # its first ScreenResume has been posted

    def post_message(self, message: Message) -> bool:
        if isinstance(message, events.ScreenResume) and not self.shown:
            # Textual restyles every widget as a screen is first shown (~14 ms at 100k,
            # issue 37 item 5); each was styled as it mounted, with the app's CSS then
            # (``refresh_css`` restyles the screen itself), and a pseudo-class change since
            # restyled its own widget: the first show has nothing left to restyle.
            self.shown = True
            message.refresh_styles = False
        return super().post_message(message)


class Modal(OneLayoutPerSize[ResultT], ModalScreen[ResultT]):
    """A dialog of the memsearch app."""

    if TYPE_CHECKING:

        @property
        def app(self) -> MemsearchApp: ...  # type: ignore[override]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.changes_under = 0  # bumped when the screen under the dialog changed
        self.kept_background: tuple[tuple[Any, ...], list[Strip]] | None = None
        self.unsaid: list[tuple[str, str]] = []  # notices sent before the dialog was composed

    def render(self) -> RenderableType | Visual:  # type: ignore[override]
        drawn = super().render()
        return KeptBackground(self, drawn) if isinstance(drawn, BackgroundScreen) else drawn

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if regions:  # Textual's word that the screen under the dialog changed there
            self.changes_under += 1
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def on_mount(self) -> None:
        """Say what arrived between the push and the compose (see ``say``), once drawn."""
        if self.unsaid:
            self.call_after_refresh(self.say_unsaid)

    def say_unsaid(self) -> None:
        """The notices kept while the dialog had no ``.dialog`` yet, in the order sent."""
        unsaid, self.unsaid = self.unsaid, []
        for message, severity in unsaid:
            self.say(message, severity=severity)

    def message_line(self) -> Label | None:
        """The dialog's one message line (its ``.dialog-error`` label: a refusal, a notice),
        added after the dialog's text, above its key hint, for a dialog without one; None
        while the dialog is not composed yet (pushed, not mounted)."""
        found = self.query(".dialog-error").results(Label)
        line = next(found, None)
        if line is not None:
            return line
        dialog = next(self.query(".dialog").results(), None)
        if dialog is None:
            return None
        line = Label("", classes="dialog-error")
        hints = dialog.query_children(".hint")
        if hints:
            dialog.mount(line, before=hints.last())
        else:
            dialog.mount(line)
        return line

    def heard(self) -> None:
        """A notice from outside the dialog reached it (a write that finished while it was
        up): a dialog that lists what is written reads it again (``UndoModal``)."""

    def say(self, message: str, *, severity: str = "information") -> None:
        """A notice for the person at this dialog, inside it: masked and shown as text
        (``safe``), an error in the error colour, anything else as a plain note.

        A notice can arrive after the dialog was pushed but before it was composed (a
        write's result landing as ``u`` opens the undo history, seen under load): it is
        kept and said once the dialog is mounted, never a crash on the missing ``.dialog``."""
        line = self.message_line()
        if line is None and not self.is_mounted:
            self.unsaid.append((message, severity))
            return
        if self.unsaid:  # kept ones not said yet (their refresh is still to come): older, so first
            self.say_unsaid()
        if line is None:  # mounted with no ``.dialog`` to hold it: a toast, as without a dialog
            App.notify(self.app, safe(message), severity=severity, markup=False)  # type: ignore[arg-type]
            return
        line.update(Text(safe(message)))  # Text: never parsed as markup
        line.set_class(severity != "error", "-note")
        line.display = True
