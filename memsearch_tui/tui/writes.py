"""The app's one write path: a pane's writes, and those of the dialogs it opens.

Every write runs in a worker (``run_write``) and reports back with a typed message
(``WriteDone`` / ``WriteFailed``), so a slow disk or a held lock never freezes the screen;
a ``Conflict`` (the file changed since it was shown) is reported and every pane reloads.
A dialog names the pane that opened it by :class:`WritePath` (what it needs of it), never
by the pane base.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from textual.message import Message
from textual.widget import Widget

from memsearch_tui.engine.api.errors import Conflict

if TYPE_CHECKING:
    from memsearch_tui.engine.api import Memory
    from memsearch_tui.tui.app import MemsearchApp


@dataclass
class Outcome:
    """What a finished write tells the user, and what the pane does next."""

    note: str
    select: str | None = None  # an entry id to show afterwards
    refresh: bool = True  # reload every pane (the write changed files)
    severity: str = "information"  # of the notification: information | warning | error
    title: str | None = None  # of the notification; None: the pane's name


@dataclass(eq=False)
class Write:
    """One write: what it does and who handles its end. The messages carry it, so each
    finished write finds its own handlers (two writes of the same name never swap them)."""

    name: str  # what the user is told it was ("save", "undo", …)
    work: Callable[[], Outcome]  # runs in a worker thread
    failed: Callable[[WriteFailed], None] | None = None  # instead of the default report
    done: Callable[[Outcome], None] | None = None  # before the default handling of a success


class WriteDone(Message):
    """A write of ``pane`` finished (posted from its worker thread)."""

    def __init__(self, write: Write, outcome: Outcome) -> None:
        super().__init__()
        self.write, self.outcome = write, outcome

    @property
    def name(self) -> str:
        return self.write.name


class WriteFailed(Message):
    """A write of ``pane`` raised; the pane shows it (notification or modal)."""

    def __init__(self, write: Write, error: BaseException) -> None:
        super().__init__()
        self.write, self.error = write, error

    @property
    def name(self) -> str:
        return self.write.name


class HasMemory(Protocol):
    mem: Memory


class WritePath(Protocol):
    """What a dialog needs of the pane that opened it: its write path, name and engine."""

    @property
    def label(self) -> str: ...

    @property
    def ctx(self) -> HasMemory: ...

    def run_write(
        self,
        name: str,
        write: Callable[[], Outcome],
        *,
        failed: Callable[[WriteFailed], None] | None = None,
        done: Callable[[Outcome], None] | None = None,
    ) -> None: ...


class Writer(Widget):
    """The write half of a pane (:class:`..panes.base.Pane`): ``run_write`` and the
    handling of its messages."""

    if TYPE_CHECKING:  # what the pane provides
        pane_id: ClassVar[str]

        @property
        def app(self) -> MemsearchApp: ...  # type: ignore[override]

        @property
        def label(self) -> str: ...

    def run_write(
        self,
        name: str,
        write: Callable[[], Outcome],
        *,
        failed: Callable[[WriteFailed], None] | None = None,
        done: Callable[[Outcome], None] | None = None,
    ) -> None:
        """Run an engine write in a worker; the result comes back as a typed message.

        The one write path of the app: every write a pane, or a dialog it opened, makes
        (and the app's undo, redo and ``init``) runs here, so each is told the same way,
        reloads what it changed, and a refusal (``Conflict``: the file changed since it
        was shown) reloads every pane.

        Writes share one non-exclusive group per pane, so a second write cancels nothing:
        each one is reported. ``failed`` handles a failure instead of the default report;
        ``done`` runs before the default handling of a success (a dialog closes itself, so
        the note is a toast over the pane; a dialog still open shows it on its own line).
        """
        self.run(Write(name, write, failed, done))

    def run(self, write: Write) -> None:
        """Run ``write`` in a worker (``run_write``); its messages carry it back."""

        def work() -> None:
            try:
                outcome = write.work()
            except Exception as exc:  # reported on the UI thread, never lost
                self.post_message(WriteFailed(write, exc))
                return
            self.post_message(WriteDone(write, outcome))

        self.run_worker(work, thread=True, group=f"write-{self.pane_id}", exit_on_error=False, name=write.name)

    def on_write_done(self, message: WriteDone) -> None:
        message.stop()
        out = message.outcome
        if message.write.done is not None:  # first: a dialog that closes itself is gone before the note is told
            message.write.done(out)
        title = self.label if out.title is None else out.title
        self.app.notify(out.note, title=title, severity=out.severity)  # type: ignore[arg-type]  # notify masks it
        self.after_write(out)
        if out.refresh:
            self.app.refresh_panes()

    def after_write(self, outcome: Outcome) -> None:
        """A pane's own follow-up to a finished write (select the new entry, …)."""

    def on_write_failed(self, message: WriteFailed) -> None:
        message.stop()
        if message.write.failed is not None:
            message.write.failed(message)
            return
        if isinstance(message.error, Conflict):  # refused: what was shown is not on disk any more
            self.app.report(message.error, title=f"{self.label}: {message.name} refused, changed meanwhile")
            self.app.refresh_panes()  # show what is there now; the key can be pressed again
            return
        self.app.report(message.error, title=f"{self.label}: {message.name} failed")
