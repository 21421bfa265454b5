"""Journal pane: days newest first → sessions → turns with their bullets and anchors.

Only the list of day files is read up front; a day is parsed (engine ``load_journal``) when
it is expanded or selected; a day row's session and turn counts are parsed (in a worker)
only once the row is drawn (``DayTree``); the rows past the first ``DAY_SLICE`` are made
after the first frame. Counting every day up front read 10,000 files (~20 s of CPU while
the pane was in use, issue 37).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Label, Static, Tree
from textual.widgets.tree import TreeNode

from memsearch_tui.engine.api.errors import MemsearchError
from memsearch_tui.tui.actions import bindings, bound_key
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.modals import DiscardModal
from memsearch_tui.tui.palette import PALETTE
from memsearch_tui.tui.panes.base import Context, Outcome, Pane, guard, plural
from memsearch_tui.tui.screens.modal import Modal
from memsearch_tui.tui.text import Squeezed, home_relative, printable, untrusted
from memsearch_tui.tui.textual_private import add_rows
from memsearch_tui.tui.widgets.fitted_tree import FittedTree

if TYPE_CHECKING:
    from memsearch_tui.engine.api.records import Anchor, Day, Session, Turn


@dataclass
class JNode:
    kind: str  # "day" | "session" | "turn"
    path: Path
    day: Day | None = None
    session: Session | None = None
    turn: Turn | None = None
    raw: bytes | None = None  # the day file's bytes as parsed for the tree (``expected=`` of d / x)


#: day rows made before the pane's first frame; the older ones follow, this many between
#: two frames (``JournalPane._add_rest``): 10,000 rows take ~0.5 s to make at load 10
DAY_SLICE = 1000


class DayTree(FittedTree[JNode]):
    """The days tree: a day row drawn asks ``wanted`` for its counts, so only the rows on
    screen are ever counted (a toolong-style virtual list: scrolling draws, and so counts,
    the rows it reaches)."""

    def __init__(self, label: str, wanted: Callable[[TreeNode[JNode]], None], *, id: str) -> None:
        super().__init__(label, id=id)
        self._wanted = wanted

    def action_scroll_home(self) -> None:
        """To the newest day at once: Tree animates the jump, and every frame of it drew (and
        so counted, reading the file) the rows it passed: ~250 of 450 days on an idle machine."""
        self.cursor_line = 0
        self.scroll_to_line(self.cursor_line, animate=False)

    def action_scroll_end(self) -> None:
        """To the oldest day at once (``action_scroll_home``)."""
        self.cursor_line = self.last_line
        self.scroll_to_line(self.cursor_line, animate=False)

    def process_label(self, label: str | Text) -> Text:
        """A one-line ``Text`` as it is: ``Tree`` splits every label into lines to keep the
        first, a copy of each day's label (~40% of making 10,000 day rows)."""
        if isinstance(label, Text) and "\n" not in label.plain:
            return label
        return super().process_label(label)

    def render_label(self, node: TreeNode[JNode], base_style: Style, style: Style) -> Text:
        if node.data is not None and node.data.kind == "day" and node.data.day is None:
            self._wanted(node)
        return super().render_label(node, base_style, style)


def transcript_path(anchor: Anchor | None) -> Path | None:
    if anchor is None or not anchor.source:
        return None
    return Path(anchor.source).expanduser()


def anchor_table(anchor: Anchor, open_key: str = "o") -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold dim", no_wrap=True)
    table.add_column()
    table.add_row("agent", untrusted(anchor.agent))  # an anchor's values: secrets masked, never markup
    if anchor.session_id:
        table.add_row("session", untrusted(anchor.session_id))
    src = transcript_path(anchor)
    if src is not None:
        exists = src.is_file()
        table.add_row(
            "transcript",
            Group(
                Squeezed(printable(anchor.source)),
                Text(f"{open_key} opens it" if exists else "file not here", PALETTE.success if exists else "dim"),
            ),
        )
    extra = {k: v for k, v in anchor.fields.items() if k not in ("session", "transcript", "rollout", "db")}
    for k, v in extra.items():
        table.add_row(untrusted(k), untrusted(v))
    return table


def bullets_text(bullets: list[str]) -> Text:
    out = Text()
    for b in bullets:
        out.append("• ", style=PALETTE.accent)
        out.append(printable(b, keep_newlines=False) + "\n")
    return out


class JournalPane(Pane):
    pane_id = "journal"
    main_widget = "#journal-tree"
    BINDINGS = bindings("journal")
    watches = (".memsearch",)

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.selected: JNode | None = None
        self.pending_open: tuple[Path, int] | None = None  # a search hit to show once loaded
        #: day file → ((mtime_ns, size), sessions, turns): a drawn day's counts, parsed once per change
        self._counts: dict[Path, tuple[tuple[int, int], int, int]] = {}
        self._checked: set[Path] = set()  # days whose counts were checked against the disk since the last load
        self._asked: set[Path] = set()  # days drawn without a check yet: the next counting worker's
        self._asking = False  # a counting worker is scheduled
        self._files: list[Path] = []  # the days listed by the last load, newest first
        self._day_nodes: dict[Path, TreeNode[JNode]] = {}  # the rows made of them so far (a prefix)
        self._today = ""  # YYYY-MM-DD by the engine's clock at the last load: later days are marked

    def compose(self) -> ComposeResult:
        with Horizontal(classes="columns"):
            with Vertical(classes="left"):
                tree: Tree[JNode] = DayTree("Journals", self._want_counts, id="journal-tree")
                tree.show_root = False
                yield tree
                yield Label("loading…", id="journal-status", classes="status")
            with VerticalScroll(classes="right", id="journal-detail-scroll"):
                yield Static(id="journal-detail")

    def load(self) -> list[Path]:
        self._today = self.ctx.mem.journal.today()
        return list(self.ctx.mem.journal.files())

    def apply(self, files: list[Path]) -> None:
        tree = self.query_one("#journal-tree", Tree)
        keep_path = self.selected.path if self.selected else None
        keep_line = self._selected_line()
        expanded = {n.data.path for n in tree.root.children if n.data and n.is_expanded}
        tree.clear()
        self._checked.clear()  # a load: each drawn day's counts are checked again (a day may have changed)
        self._files, self._day_nodes = files, {}
        at = {path: i for i, path in enumerate(files)}
        keep = [keep_path, self.pending_open[0] if self.pending_open else None, *expanded]
        self._add_days(max([DAY_SLICE] + [at[p] + 1 for p in keep if p in at]))
        if len(files) > len(self._day_nodes):
            self.run_worker(self._add_rest(), exclusive=True, group="journal-rows", name="journal rows")
        status = self.query_one("#journal-status", Label)
        if not files:
            status.update(f"no journals in {self.ctx.msdir / 'memory'}")
            self.query_one("#journal-detail", Static).update(
                Text("Journals appear here when an agent hook writes .memsearch/memory/YYYY-MM-DD.md", style="dim")
            )
            return
        newest = f"{day_name(files[0])}{FUTURE if is_future(files[0], self._today) else ''}"
        days = f"{len(files)} day{'' if len(files) == 1 else 's'}"
        status.update(Text(f"{days} · newest {newest}"))  # a name is anyone's text: no markup
        for node in tree.root.children:
            if node.data and node.data.path in expanded:
                self._fill_day(node)
                node.expand()
        if self.pending_open is not None:
            path, line = self.pending_open
            self.pending_open = None
            self.open_at(path, line)
        elif keep_path is not None:
            self._reselect(keep_path, keep_line)
        if tree.cursor_line < 0:
            tree.cursor_line = 0

    def _add_days(self, upto: int, *, redraw: bool = True) -> None:
        """The day rows up to the ``upto``-th day (newest first), after those added already;
        ``redraw``: the tree's lines rebuilt now to show them (else by the next change)."""
        tree = self.query_one("#journal-tree", Tree)
        new = self._files[len(self._day_nodes) : upto]
        rows = [(self._day_label(path), JNode("day", path)) for path in new]
        self._day_nodes.update(zip(new, add_rows(tree.root, rows, redraw=redraw), strict=True))

    async def _add_rest(self) -> None:
        """The older days, ``DAY_SLICE`` rows between two frames, drawn once all are made:
        the pane is shown and takes keys meanwhile (rebuilding the tree's lines after each
        slice would cost O(days²))."""
        while len(self._day_nodes) < len(self._files):
            await asyncio.sleep(0)
            upto = len(self._day_nodes) + DAY_SLICE
            self._add_days(upto, redraw=upto >= len(self._files))

    def _add_through(self, path: Path) -> None:
        """Make sure the row of ``path`` exists (a search hit or a chart day far down)."""
        if path not in self._day_nodes and path in self._files:
            self._add_days(self._files.index(path) + 1)

    def _day_label(self, path: Path) -> Text:
        """The day, with its session and turn counts once they are known."""
        label = self._name_label(path)
        counts = self._counts.get(path)
        if counts is not None:
            _stamp, sessions, turns = counts
            label.append(day_counts(sessions, turns), style="dim")
        return label

    def _name_label(self, path: Path) -> Text:
        """The day's name, marked when it is dated after today (listed first, newest)."""
        label = Text(day_name(path), style="bold")
        if is_future(path, self._today):
            label.append(FUTURE, style="dim italic")
        return label

    def _want_counts(self, node: TreeNode[JNode]) -> None:
        """A day row is drawn: count it (with the other rows drawn now) in a worker, once
        per load."""
        path = node.data.path if node.data is not None else None
        if path is None or path in self._checked or path in self._asked:
            return
        self._asked.add(path)
        if not self._asking:
            self._asking = True
            self.call_later(self._count_asked)  # after this frame: every row it draws is asked by then

    def _count_asked(self) -> None:
        self._asking = False
        files, self._asked = list(self._asked), set()
        self._checked.update(files)
        self.run_worker(
            lambda: self._counts_for(files),
            thread=True,
            group="journal-counts",
            exit_on_error=False,
            name="journal counts",
        )

    def _counts_for(self, files: list[Path]) -> None:
        fresh: dict[Path, tuple[tuple[int, int], int, int]] = {}
        for path in files:
            try:
                st = path.stat()
                stamp = (st.st_mtime_ns, st.st_size)
                old = self._counts.get(path)
                if old is not None and old[0] == stamp:
                    continue
                day = self.ctx.mem.journal.read(path)[0]
            except OSError:
                continue  # gone or unreadable since the list was read: the row keeps no counts
            except MemsearchError:
                continue  # refused (over the size limit, …): told once, when the day is selected
            fresh[path] = (stamp, len(day.sessions), len(day.turns))
        if fresh:
            call_while_shown(self, self._show_counts, fresh)

    def _show_counts(self, counts: dict[Path, tuple[tuple[int, int], int, int]]) -> None:
        self._counts.update(counts)
        for path in counts:
            node = self._day_nodes.get(path)
            if node is not None and node.data is not None and node.data.day is None:  # a parsed day has its own label
                node.set_label(self._day_label(path))

    def _selected_line(self) -> int:
        sel = self.selected
        if sel is None:
            return 0
        return sel.turn.line if sel.turn else sel.session.line if sel.session else 0

    def _reselect(self, path: Path, line: int) -> None:
        tree = self.query_one("#journal-tree", Tree)
        self._add_through(path)
        for node in tree.root.children:
            if node.data and node.data.path == path:
                target = node
                if line:
                    self._fill_day(node)
                    node.expand()
                    for s in node.children:
                        sess = s.data.session if s.data else None
                        if sess and sess.line <= line <= max(sess.end_line, sess.line):
                            target = s
                        for t in s.children:
                            turn = t.data.turn if t.data else None
                            if turn and turn.line <= line <= max(turn.end_line, turn.line):
                                s.expand()
                                target = t
                _ = tree.last_line  # rebuild the line map so newly added nodes have line numbers
                tree.move_cursor(target)
                tree.scroll_to_node(target, animate=False)
                if target.data is not None:  # the cursor may not have moved: no highlight event
                    self.selected = target.data  # the rebuilt node, holding the day as read now
                    self.query_one("#journal-detail", Static).update(self._detail(target.data))
                return

    def open_at(self, path: Path, line: int) -> None:
        """Select the turn of ``path`` that holds ``line`` (a search hit); line 0 selects
        the day itself, opened to show its sessions (the Overview's chart)."""
        self._reselect(Path(path), line)
        tree = self.query_one("#journal-tree", Tree)
        node = tree.cursor_node
        if not line and node is not None and node.data is not None and node.data.path == Path(path):
            self._fill_day(node)
            node.expand()
        tree.focus()

    def _fill_day(self, node: TreeNode[JNode]) -> Day | None:
        data = node.data
        if data is None or data.kind != "day":
            return None
        if data.day is None:
            data.day, data.raw = self.ctx.mem.journal.read(data.path)
            day = data.day
            label = self._name_label(data.path)
            label.append(day_counts(len(day.sessions), len(day.turns)), style="dim")
            node.set_label(label)
            for session in day.sessions:
                s_label = Text(f"Session {session.time}", style=PALETTE.accent)
                if session.title:
                    s_label.append(f" {printable(session.title, keep_newlines=False)}", style="dim")
                s_label.append(f"  {_count(len(session.turns), 'turn')}", style="dim")
                s_node = node.add(s_label, JNode("session", data.path, day=day, session=session, raw=data.raw))
                for turn in session.turns:
                    t_label = Text(turn.time, style="bold")
                    t_label.append(
                        " " + printable(turn.title or (turn.bullets[0] if turn.bullets else ""), keep_newlines=False)
                    )
                    s_node.add_leaf(
                        t_label, JNode("turn", data.path, day=day, session=session, turn=turn, raw=data.raw)
                    )
        return data.day

    @guard
    def on_tree_node_expanded(self, event: Tree.NodeExpanded[JNode]) -> None:
        self._fill_day(event.node)

    @guard
    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[JNode]) -> None:
        data = event.node.data
        if data is None:
            return
        self.selected = data
        if data.kind == "day":
            self._fill_day(event.node)
        self.query_one("#journal-detail", Static).update(self._detail(data))

    def _detail(self, data: JNode) -> Any:
        if data.kind == "day":
            day = data.day or self.ctx.mem.journal.read(data.path)[0]
            parts: list[Any] = [
                Text(day.date or day_name(data.path), style="bold"),
                Squeezed(home_relative(data.path), "dim"),
                Text(""),
            ]
            for s in day.sessions:
                parts.append(
                    Text.assemble(
                        (f"Session {s.time} ", PALETTE.accent),
                        (printable(s.title, keep_newlines=False), "dim"),
                        (f"  {_count(len(s.turns), 'turn')}", "dim"),
                    )
                )
                for t in s.turns:
                    first = t.bullets[0] if t.bullets else ""
                    parts.append(Text.assemble(("   " + t.time + " ", "bold"), printable(first, keep_newlines=False)))
            if day.bullets:
                parts += [Text(""), bullets_text(day.bullets)]
            return Group(*parts)
        if data.kind == "session" and data.session is not None:
            s = data.session
            parts = [
                Text(f"Session {s.time} {printable(s.title)}", style=f"bold {PALETTE.accent}"),
                Squeezed(f"{home_relative(data.path)}:{s.line}", "dim"),
                Text(""),
            ]
            for a in s.anchors:
                parts.append(anchor_table(a, self.key("journal.open")))
            if s.bullets:
                parts.append(bullets_text(s.bullets))
            for t in s.turns:
                parts += [Text(f"{t.time} {printable(t.title)}", style="bold"), bullets_text(t.bullets)]
            return Group(*parts)
        if data.turn is not None:
            t = data.turn
            parts = [
                Text(f"{t.time} {printable(t.title)}", style="bold"),
                Squeezed(f"{home_relative(data.path)}:{t.line}", "dim"),
                Text(""),
            ]
            if t.anchor is not None:
                parts += [anchor_table(t.anchor, self.key("journal.open")), Text("")]
            parts.append(bullets_text(t.bullets))
            for line, other in t.other:
                parts.append(Text(f"{line}: {printable(other)}", style="dim"))
            return Group(*parts)
        return Text("")

    # -- actions --------------------------------------------------------------------
    @guard
    def action_open_transcript(self) -> None:
        sel = self.selected
        anchors: list[Anchor] = []
        if sel is not None and sel.turn is not None and sel.turn.anchor is not None:
            anchors = [sel.turn.anchor]
        elif sel is not None and sel.session is not None:
            anchors = list(sel.session.anchors) + [t.anchor for t in sel.session.turns if t.anchor]
        path = next((p for p in map(transcript_path, anchors) if p is not None), None)
        if path is None:
            self.app.notify("this turn has no transcript anchor", severity="warning")
            return
        if not path.is_file():
            self.app.notify(f"transcript not found: {home_relative(path)}", severity="warning")
            return
        from memsearch_tui.tui.screens.transcript import TranscriptScreen

        turn = next((a.fields.get("turn", "") for a in anchors if transcript_path(a) == path), "")
        self.app.push_screen(TranscriptScreen(self.ctx.mem.journal.transcript(path), turn))

    # -- curation: d forgets the turn, x redacts text in it (engine: api.journal_curation) --
    def _selected_turn(self) -> JNode | None:
        sel = self.selected
        if sel is None or sel.turn is None or sel.session is None:
            self.app.notify("select a turn first", severity="warning")
            return None
        return sel

    @guard
    def action_forget_turn(self) -> None:
        sel = self._selected_turn()
        if sel is None or sel.turn is None:
            return
        title = f"Forget turn {sel.turn.time} of {day_name(sel.path)} (to the trash; {self.undoes})"
        self.app.push_screen(
            AskModal(title, ["reason"], what="the forget"), lambda got: self._curate(sel, "forget", got)
        )

    @guard
    def action_redact_turn(self) -> None:
        sel = self._selected_turn()
        if sel is None or sel.turn is None:
            return
        title = f"Redact text in turn {sel.turn.time} of {day_name(sel.path)} (original to the trash)"
        self.app.push_screen(
            AskModal(title, ["text to redact", "reason"], what="the redaction"),
            lambda got: self._curate(sel, "redact", got),
        )

    def _curate(self, sel: JNode, action: str, answers: list[str] | None) -> None:
        """A write of this pane (``run_write``): the engine refreshes the search index, every
        pane reloads; a day changed since it was drawn is refused and shown as it is now.
        ``answers``: what the dialog asked (None: cancelled, nothing to do)."""
        if not answers or sel.turn is None or sel.session is None:
            return
        turn_id = sel.turn.anchor.fields.get("turn", "") if sel.turn.anchor else ""
        session, turn = sel.session.time, turn_id or sel.turn.time
        journal, day = self.ctx.mem.journal, str(sel.path)
        expected = sel.raw  # the day as the tree shows it: a turn appended since refuses

        def write() -> Outcome:
            if action == "forget":
                out = journal.forget(day, session=session, turn=turn, reason=answers[0], expected=expected)
            else:
                out = journal.redact(
                    day, pattern=answers[0], session=session, turn=turn, reason=answers[1], expected=expected
                )
            verb = "forgot" if out.action == "forget" else "redacted"
            stale = f"; {plural(len(out.stale_proposals), 'proposal')} marked stale" if out.stale_proposals else ""
            return Outcome(f"{verb} {out.removed.turn} of {out.day} (trash: {out.trash_key}){stale}")

        self.run_write(action, write)


class AskModal(Modal[list[str] | None]):
    """One line of text per field; Enter in the last field answers, Escape cancels: at once
    when nothing was typed, else after asking (docs/tui.md: typed text is never dropped by
    one key)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, fields: list[str], *, what: str = "this answer") -> None:
        super().__init__(classes="modal")
        self.title_text, self.fields, self.what = title, fields, what

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(untrusted(self.title_text), classes="dialog-title")  # names a day file: drawn as typed
            for i, name in enumerate(self.fields):
                yield Input(placeholder=name, id=f"ask-{i}")
            yield Label("", id="ask-error", classes="dialog-error")
            yield Label(f"Enter confirms · {bound_key(self.BINDINGS, 'cancel')} cancels", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#ask-error").display = False
        self.query_one("#ask-0", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Every field is required: an empty one is named and focused (Enter never just
        does nothing)."""
        values = [self.query_one(f"#ask-{i}", Input).value.strip() for i in range(len(self.fields))]
        empty = next((i for i, v in enumerate(values) if not v), None)
        if empty is not None:
            error = self.query_one("#ask-error", Label)
            error.update(f"the {self.fields[empty]} is required")
            error.display = True
            self.query_one(f"#ask-{empty}", Input).focus()
            return
        self.dismiss(values)

    def on_input_changed(self, event: Input.Changed) -> None:
        """The "is required" line goes as soon as the field it named holds text."""
        error = self.query_one("#ask-error", Label)
        if error.display and event.value.strip() and event.input.has_focus:
            error.display = False

    def action_cancel(self) -> None:
        if not any(i.value.strip() for i in self.query(Input)):
            self.dismiss(None)
            return
        self.app.push_screen(DiscardModal(self.what), lambda discard: discard and self.dismiss(None))


def day_name(path: Path) -> str:
    """The day as its file names it; an undated file's name is anyone's bytes: its control
    characters shown as escapes, the same in the tree and in the detail pane. A dated name
    (nearly every day file) has nothing to escape or mask: it skips the redactor's scan
    (~50 µs a name: 0.5 s for the 10,000 rows of a big journal)."""
    stem = path.stem
    if _DATED.fullmatch(stem):
        return stem
    return printable(stem, keep_newlines=False)


_DATED = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

FUTURE = "  future"  # the tag of a day dated after today


def is_future(path: Path, today: str) -> bool:
    """Is ``path`` a day dated after ``today`` (YYYY-MM-DD; "" before the first load)? A
    skewed clock or a hand-made name (2031-01-01.md): listed first as the newest day, while
    the Overview's chart stops at today, so the row says so. The rule is the API's, which
    ``journal list`` marks by too."""
    from memsearch_tui.engine.api.journal import dated_after

    return dated_after(path.stem, today)


def day_counts(sessions: int, turns: int) -> str:
    """A day's counts in the tree: turns first (a narrow list cuts the sessions), and the
    sessions only when there are several (one session says nothing a narrow list needs)."""
    if sessions == 1:
        return f"  {_count(turns, 'turn')}"
    return f"  {_count(turns, 'turn')} · {_count(sessions, 'session')}"


def _count(n: int, noun: str) -> str:
    """'1 session', '2 sessions'."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
