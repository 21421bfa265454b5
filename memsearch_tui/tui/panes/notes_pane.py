"""Notes pane (key 7): PROJECT.md and USER.md rendered, and every proposal made for them.

Left: the two note files (a pending proposal is flagged), then the proposal history
(pending, accepted, rejected, superseded; newest first). Right: a note file rendered as
Markdown — with the pending proposal's diff beside it when there is one — or a history
item's reason, decision and diff against the text it would have replaced. Accepting and
rejecting stay in the Maintenance pane; this pane only reads.

A proposal file may come with a cloned repository: its target, reason and text are
untrusted. A tampered one is flagged as the Maintenance pane flags it (``proposal_flag``),
is never "the proposal waiting" for a note and has no diff (the engine never reads its
target); every name and text is drawn escaped, secrets masked.

The note is drawn as its plain text first, and Textual's ``Markdown`` replaces it once
made: that widget's import (markdown-it, linkify, pygments: ~50–100 ms loaded) and its
first mount were most of this pane's first key (issue 37 item 5). The import runs in a
worker thread after the text is on screen; a missing note's message needs no Markdown.
The first visit's frame waits for the first load (at most ``HOLD_FIRST_FRAME``): the pane
was drawn twice, empty then with its data, each draw ~100-200 ms at 100k entries loaded,
and the load (a few ms once imported) landed only after the empty one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from memsearch_tui.engine.api.proposals import proposal_flag, record_name
from memsearch_tui.tui.actions import bindings
from memsearch_tui.tui.diffview import DiffView
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.panes.base import Context, Pane, guard
from memsearch_tui.tui.text import Squeezed, home_relative, printable, safe, short_time, tone, untrusted
from memsearch_tui.tui.widgets.lists import SteadyList

if TYPE_CHECKING:
    from textual.widgets import Markdown

    from memsearch_tui.engine.api.records import NoteHistoryItem
    from memsearch_tui.engine.api.types import Proposal

HOLD_FIRST_FRAME = 0.2  # seconds the first visit's frame may wait for the first load (then drawn without)
STACK_BELOW = 110  # columns: narrower panes show the note above the diff, not beside it
STATUS_TONE = {"pending": "warning", "accepted": "success", "rejected": "error", "superseded": "secondary"}


@dataclass
class NotesData:
    files: list[tuple[str, Path, str | None]] = field(default_factory=list)  # (task, path, text)
    unread: dict[Path, str] = field(default_factory=dict)  # a note not read: why ("not written yet", …)
    history: list[NoteHistoryItem] = field(default_factory=list)


def flag_of(h: NoteHistoryItem) -> tuple[str, str]:
    """``("TAMPERED" | "NOT CHECKED", why)`` for a proposal that may not be applied, as
    the Maintenance pane and ``proposals list`` say it; ``("", "")`` for one that may.
    (``proposal_flag`` reads only ``id`` and ``tampered``, which the engine record has.)"""
    p = h.proposal
    return proposal_flag(cast("Proposal", p)) if p.tampered else ("", "")


def name_of(target: str) -> str:
    """A target's file name on one line, escapes shown (it comes from the proposal file)."""
    return printable(Path(target).name, keep_newlines=False)


def waiting_for(history: list[NoteHistoryItem], path: Path) -> NoteHistoryItem | None:
    """The pending, unflagged proposal for note ``path`` (a tampered one naming it is not it)."""
    return next(
        (
            h
            for h in history
            if h.proposal.status == "pending" and not h.proposal.tampered and h.proposal.target == str(path)
        ),
        None,
    )


class NotesPane(Pane):
    pane_id = "notes"
    title = "Notes"
    main_widget = "#notes-list"
    BINDINGS = bindings("notes")
    watches = (".memsearch",)

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.data = NotesData()
        self.selected: str | None = None
        self.pending_note: Path | None = None  # a note to select once the first load lands
        self.markdown: Markdown | None = None  # made once a note's text is first shown
        self.doc_source: str | None = None  # the Markdown the doc shows (None: a message)
        self.markdown_ready = False  # the Markdown widget's first render is done
        self.markdown_asked = False  # its import runs (or ran) in a worker
        self.held: Any = None  # the app's frames held for the first load (``activate``)

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(classes="left-narrow"):
                yield SteadyList(id="notes-list")
                yield Label("", id="notes-status", classes="status")
            with Vertical(classes="right"):
                yield Static(id="notes-head", classes="meta")
                with Horizontal(id="notes-body"):
                    with VerticalScroll(id="notes-doc-scroll"):
                        yield Static(id="notes-text")  # the text until the Markdown is made
                    with VerticalScroll(id="notes-diff-scroll"):
                        yield DiffView(id="notes-diff")

    def on_resize(self) -> None:
        """Side by side when there is room; the file above its proposal's diff otherwise."""
        wide = self.size.width >= STACK_BELOW
        body = self.query_one("#notes-body")
        body.styles.layout = "horizontal" if wide else "vertical"
        body.set_class(not wide, "stacked")

    def activate(self) -> None:
        """The first time: no frame until the first load is drawn in it (or for at most
        ``HOLD_FIRST_FRAME``), so the pane is drawn once, with its notes, not empty first."""
        first = not self.loaded
        super().activate()
        if first and self.held is None:
            self.held = self.app.batch_update()  # Textual's own "suspend all repaints"
            self.held.__enter__()
            self.set_timer(HOLD_FIRST_FRAME, self.release_frames)

    def release_frames(self) -> None:
        """Frames again (after the first ``apply``, or at the timer): drawn at the next refresh."""
        held, self.held = self.held, None
        if held is not None:
            held.__exit__(None, None, None)
            self.app.screen.refresh()  # as ``App.delay_update`` ends its hold

    # -- data -----------------------------------------------------------------------
    def load(self) -> NotesData:
        out = NotesData()
        seen: set[Path] = set()
        outputs = self._output_files()
        for task, default in (("project_review", "PROJECT.md"), ("user_profile", "USER.md")):
            path = outputs.get(task) or self.ctx.msdir / default
            if path not in seen:
                seen.add(path)
                text = self.ctx.mem.proposals.read_note(path)
                out.files.append((task, path, text))
                if text is None:
                    out.unread[path] = self.ctx.mem.proposals.why_unread(path)
        out.history = self.ctx.mem.proposals.history()
        return out

    def _output_files(self) -> dict[str, Path]:
        """Each task's output file (the first platform's that names one). Not from ``status``:
        that digested every day file (10,000 stats at issue 37's scale) for two paths."""
        try:
            return self.ctx.mem.maintenance.output_files(self.ctx.config())
        except Exception:  # a broken config: fall back to memsearch's default places
            return {}

    def apply(self, data: NotesData) -> None:
        self.data = data
        lst = self.query_one("#notes-list", OptionList)
        lst.clear_options()
        pending = sum(1 for h in data.history if h.proposal.status == "pending")  # proposals, not targets
        lst.add_option(Option(Text("Notes", style=tone(self, "primary", "bold")), disabled=True))
        for i, (_task, path, text) in enumerate(data.files):
            label = Text(name_of(str(path)), style="bold")
            if text is None:
                label.append(f"  {data.unread.get(path, 'not written yet')}", style="dim")
            if waiting_for(data.history, path) is not None:
                label.append("  proposal waiting", style=tone(self, "warning"))
            lst.add_option(Option(label, id=f"f:{i}"))
        lst.add_option(None)
        lst.add_option(
            Option(Text(f"Proposal history · {len(data.history)}", style=tone(self, "primary", "bold")), disabled=True)
        )
        if not data.history:
            lst.add_option(Option(Text("none yet", style="dim"), disabled=True))
        for i, h in enumerate(data.history):
            p = h.proposal
            label = Text(f"{p.status:<10}", style=tone(self, STATUS_TONE.get(p.status, "secondary")))
            if flag := flag_of(h)[0]:
                label.append(f"[{flag}] ", style=tone(self, "error" if flag == "TAMPERED" else "warning", "bold"))
            label.append(printable(record_name(p), keep_newlines=False), style="bold")
            label.append(f"\n{short_time(p.created)}", style="dim")
            lst.add_option(Option(label, id=f"h:{i}"))
        if self.pending_note is not None:
            note, self.pending_note = self.pending_note, None
            self.selected = self._file_option(note) or self.selected
        ids = [o.id for o in lst.options if o.id]
        pick = self.selected if self.selected in ids else ids[0]
        lst.highlighted = next(n for n, o in enumerate(lst.options) if o.id == pick)
        self._show(pick)
        decided = sum(1 for h in data.history if h.proposal.status != "pending")
        self.query_one("#notes-status", Label).update(
            Text(f"{decided} decided · {pending} pending · y/x in Maintenance", style="dim")
        )
        self.release_frames()

    def _file_option(self, path: Path) -> str | None:
        """The list's option id of note file ``path`` (None: not one of the two notes)."""
        want = Path(path).resolve()
        return next((f"f:{i}" for i, (_t, p, _x) in enumerate(self.data.files) if p.resolve() == want), None)

    def open_note(self, path: Path) -> None:
        """Select note file ``path`` (a PROJECT.md / USER.md search hit opens it here)."""
        if not self.loaded or not self.data.files:
            self.pending_note = Path(path)
            return
        option_id = self._file_option(Path(path))
        if option_id is None:
            return
        lst = self.query_one("#notes-list", OptionList)
        lst.highlighted = next(n for n, o in enumerate(lst.options) if o.id == option_id)
        self._show(option_id)

    # -- drawing --------------------------------------------------------------------
    def _show(self, option_id: str) -> None:
        self.selected = option_id
        kind, _, n = option_id.partition(":")
        if kind == "f":
            self._show_file(int(n))
        else:
            self._show_history(int(n))

    def _show_file(self, i: int) -> None:
        task, path, text = self.data.files[i]
        head = Text()
        waiting = waiting_for(self.data.history, path)
        if text is None:
            self._show_message(path, task)
        else:
            self._show_doc(printable(text))
        diff = self.query_one("#notes-diff-scroll")
        diff.display = waiting is not None
        if waiting is not None:
            head.append("proposal waiting (diff shown with the file): ", style=tone(self, "warning", "bold"))
            head.append_text(untrusted(waiting.proposal.reason, keep_newlines=False))
            self.query_one("#notes-diff", DiffView).show(
                safe(text or ""), safe(waiting.proposal.content), left=f"{name_of(str(path))} now", right="proposed"
            )
        self.query_one("#notes-doc-scroll").display = True
        where = Squeezed(home_relative(path), "dim", suffix=f" · written by {task}")
        parts: list[RenderableType] = [Text(name_of(str(path)), style="bold"), where, *([head] if head.plain else [])]
        self.query_one("#notes-head", Static).update(Group(*parts))

    def _show_history(self, i: int) -> None:
        h = self.data.history[i]
        p = h.proposal
        head = Text()
        head.append(p.status, style=tone(self, STATUS_TONE.get(p.status, "secondary"), "bold"))
        if p.decided_at:
            head.append(f" {short_time(p.decided_at)}")
        if p.decision_note:
            head.append(" · ")
            head.append_text(untrusted(p.decision_note, keep_newlines=False))
        head.append("\nreason: ", style="bold")
        head.append_text(untrusted(p.reason or "—"))
        where = Squeezed(
            home_relative(p.target), "dim", prefix=printable(f"{p.platform}.{p.task} → ", keep_newlines=False)
        )
        if flag_of(h)[0]:
            self._show_flagged(h, head)
            self.query_one("#notes-head", Static).update(Group(Squeezed(p.id, "bold"), where, head))
            return
        same = h.base_text == p.content
        self.query_one("#notes-doc-scroll").display = same
        self.query_one("#notes-diff-scroll").display = not same
        if same:  # nothing to compare it with: show the text it proposed
            head.append(f"\n(same as the {h.base_label}: the proposed text is shown)", style="dim")
            self._show_doc(printable(p.content))
        else:
            self.query_one("#notes-diff", DiffView).show(
                safe(h.base_text), safe(p.content), left=f"{name_of(p.target)} ({h.base_label})", right="proposed"
            )
        self.query_one("#notes-head", Static).update(Group(Squeezed(p.id, "bold"), where, head))

    def _show_flagged(self, h: NoteHistoryItem, head: Text) -> None:
        """A proposal that may not be applied: the flag and why in the head, no diff (its
        target is never read), as the Maintenance pane shows it."""
        flag, why = flag_of(h)
        colour = "error" if flag == "TAMPERED" else "warning"
        head.append(f"\n⚠ {flag}: ", style=tone(self, colour, "bold"))
        head.append_text(untrusted(why, tone(self, colour)))  # names the target (from ~ already): escaped, masked
        note = (
            "no diff: a tampered proposal's target is never read"
            if flag == "TAMPERED"
            else "no diff until the config loads: the target cannot be checked before"
        )
        self.query_one("#notes-doc-scroll").display = False
        self.query_one("#notes-diff-scroll").display = True
        self.query_one("#notes-diff", DiffView).show_note(note)

    def _show_message(self, path: Path, task: str) -> None:
        """A note that was not read: why, as text (no Markdown to make for it)."""
        why = self.data.unread.get(path, "not written yet")
        msg = Text()
        if why == "not written yet":
            msg.append(f"{name_of(str(path))} does not exist yet.", style="italic")
            msg.append(" The ")
            msg.append(task, style="bold")
            msg.append(
                " maintenance task writes it when it runs (turned on or off in the Maintenance pane's task detail, "
            )
            msg.append(f"{self.key('maintenance.detail')}).")
        else:
            msg.append(f"{name_of(str(path))}: {why}.", style="italic")
            msg.append(" A note is read only from a regular file (a FIFO or device could block the app).")
        self.doc_source = None
        self._doc_shown(msg, markdown=False)

    def _show_doc(self, source: str) -> None:
        """Markdown ``source`` in the doc: drawn by the Markdown widget once it exists, as
        its plain text until then (the true text at once, its rendering a moment later)."""
        self.doc_source = source
        if self.markdown is not None and self.markdown_ready:
            self.markdown.update(source)
            self._doc_shown(None, markdown=True)
            return
        self._doc_shown(Text(source), markdown=False)
        if self.markdown is None and not self.markdown_asked:  # (made: its first render picks it up)
            self.markdown_asked = True
            self.run_worker(self._import_markdown, thread=True, exclusive=True, group="notes-markdown")

    def _doc_shown(self, text: Text | None, *, markdown: bool) -> None:
        plain = self.query_one("#notes-text", Static)
        if text is not None:
            plain.update(text)
        plain.display = not markdown
        if self.markdown is not None:
            self.markdown.display = markdown

    def _import_markdown(self) -> None:
        """Worker thread: import Textual's Markdown (its parser and highlighter) off the UI
        thread, then make the widget there."""
        from textual.widgets import Markdown  # noqa: F401  (the import is the work)

        if not call_while_shown(self, self._make_markdown):
            self.markdown_asked = False  # the pane left the screen first: its next note asks again

    def _make_markdown(self) -> None:
        if self.markdown is None:
            from textual.widgets import Markdown

            self.markdown = Markdown(id="notes-doc")
            self.markdown.display = False  # shown once its blocks are in: no blank frame
            self.run_worker(self._fill_markdown(self.markdown), exclusive=True, group="notes-markdown-fill")

    async def _fill_markdown(self, md: Markdown) -> None:
        """Mount the new widget and render the shown source in it (the source may change
        meanwhile: the latest is drawn); the plain text gives way once it is drawn."""
        await self.query_one("#notes-doc-scroll").mount(md)
        while self.doc_source is not None and md.source != self.doc_source:
            await md.update(self.doc_source)
        self.markdown_ready = True
        if self.doc_source is not None:
            self._doc_shown(None, markdown=True)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "notes-list" and event.option.id:
            self._show(event.option.id)

    @guard
    def action_cursor(self, where: str) -> None:
        lst = self.query_one("#notes-list", OptionList)
        lst.focus()
        lst.action_cursor_down() if where == "down" else lst.action_cursor_up()
