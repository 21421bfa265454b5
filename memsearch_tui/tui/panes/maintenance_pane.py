"""Maintenance pane: every platform × task with its state, and the pending proposals.

Top: one row per task (enabled, provider, last action, last success, last error, due or
why not); ctrl+g runs the highlighted task now in a worker. Bottom: pending proposals of
PROJECT.md / USER.md rewrites, each as a diff of the current file against the proposed
text, with the reason; accept (y), edit then accept (e), reject (x). A target that changed
since the proposal was made is flagged, and accepting it then needs a confirmation.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Label, OptionList, Static
from textual.widgets.option_list import Option

from memsearch_tui.engine.api.errors import MemsearchError
from memsearch_tui.engine.api.proposals import proposal_flag, shown_target
from memsearch_tui.engine.api.text import clip_masked, redact_text
from memsearch_tui.engine.api.types import Proposal, StoreMove
from memsearch_tui.tui.actions import bindings, bound_key, hint
from memsearch_tui.tui.diffview import DiffView
from memsearch_tui.tui.empty_states import no_proposals_hint
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.names import platform_name, task_name, task_words
from memsearch_tui.tui.palette import PALETTE, move_style
from memsearch_tui.tui.panes.base import Context, Outcome, Pane, guard, plural, set_busy
from memsearch_tui.tui.text import Squeezed, home_relative, printable, short_time, untrusted
from memsearch_tui.tui.widgets.work_progress import WorkProgress

if TYPE_CHECKING:
    from memsearch_tui.engine.api.maintenance import SpendReport
    from memsearch_tui.engine.api.records import TaskStatus


HYGIENE_FIXES = ("merge", "redact", "fix-reference")  # hygiene --propose: shown as the body before and after


@dataclass
class MaintData:
    rows: list[TaskStatus] = field(default_factory=list)
    pending: list[Proposal] = field(default_factory=list)  # PROJECT.md / USER.md rewrites, with their text
    current: dict[str, str] = field(default_factory=dict)  # proposal id → target text now
    seen: dict[str, bytes] = field(default_factory=dict)  # proposal id → the target's bytes that text shows
    # store proposals (lifecycle, split, an agent's write), each as listed: what accept's expected= takes
    store_pending: list[Proposal] = field(default_factory=list)
    moves: dict[str, tuple[StoreMove, ...]] = field(default_factory=dict)  # store proposal id → its moves
    problems: list[str] = field(default_factory=list)
    spend: tuple[SpendReport, SpendReport] | None = None  # this month by task, by provider
    #: the first draw: an enabled task's input not digested yet, its "next" shows CHECKING
    #: until the second draw (``MaintenancePane._load_then_apply``) brings the full rows
    checking: bool = False


BARS = " ▁▂▃▄▅▆▇█"


def spend_view(by_task: SpendReport, by_provider: SpendReport) -> Text | None:
    """The spend panel: tokens per UTC day over 30 days as a bar chart (a day with refusals
    in the warning colour, ``×`` when nothing was sent), this month per task and per
    provider, and each budget's use and what is left. None when there is nothing to show
    (no call in 30 days and no budget set)."""
    days = by_task.days
    if not any(tokens or refused for _, tokens, refused in days) and not by_task.budget:
        return None
    top = max((tokens for _, tokens, _ in days), default=0)
    out = Text("Spend ", style="bold")
    out.append(f"{days[0][0][5:]} ", style="dim")
    for _, tokens, refused in days:
        bar = "×" if refused and not tokens else BARS[-(-tokens * (len(BARS) - 1) // top)] if top and tokens else "·"
        out.append(bar, style=PALETTE.warning if refused else PALETTE.accent if tokens else "dim")
    out.append(f" {days[-1][0][5:]}", style="dim")
    out.append(f"  max {top:,} tokens/day", style="dim")
    if any(refused for _, _, refused in days):
        out.append("  (refused by a budget)", style=PALETTE.warning)
    for label, report in (("task", by_task), ("provider", by_provider)):
        parts = [
            f"{r.key} {r.input_tokens + r.output_tokens:,}" + (f" ({r.cost:.2f})" if r.cost else "")
            for r in report.rows
        ]
        out.append(f"\nthis month by {label}: ", style="bold")
        out.append(" · ".join(parts) or "no calls")
    for use in by_task.budget:
        out.append("\nbudget ", style="bold")
        out.append(use.text, style=PALETTE.warning if use.used >= 0.8 * use.allowed else "")
    return out


def flag_mark(p: Proposal) -> Text:
    """``[TAMPERED] `` (or ``[NOT CHECKED] ``) before a rewrite that may not be applied, as
    ``proposals list`` marks it; nothing for one that may."""
    if not p.tampered:
        return Text()
    flag, _why = proposal_flag(p)
    return Text(f"[{flag}] ", style=f"bold {PALETTE.error if flag == 'TAMPERED' else PALETTE.warning}")


def shown_name(p: Proposal) -> str:
    """The rewrite's file name as a dialog or notice shows it: a name from a proposal file,
    so its control characters are shown as escapes, never sent to the terminal."""
    return printable(Path(p.target).name, keep_newlines=False)


DRAWN_WAIT = 1.0  # seconds the first load's worker waits for its first draw's frame
CHECKING = "checking…"  # an enabled task's "next" while its input's digest is being made

#: the task table's columns and widths: task, status, next and last success first (an
#: 80-column pane shows them), the task by its human name ("project review")
TASK_COLUMNS: tuple[tuple[str, int], ...] = (
    ("task", 16),
    ("status", 10),
    ("next", 17),
    ("last success", 16),
    ("platform", 12),
    ("last action", 11),
    ("last error", 25),
    ("provider", 12),
)
#: below this many columns (the app's narrow layout) the table shows only what fits 80
#: columns whole: task, status, next, the day of the last success and the platform (the
#: detail, ``t``, shows the rest); the first three keep their widths at every size
NARROW_BELOW = 110
NARROW_COLUMNS: tuple[tuple[str, int], ...] = (
    ("task", 16),
    ("status", 10),
    ("next", 17),
    ("last success", 12),
    ("platform", 11),
)


def task_columns(width: int) -> tuple[tuple[str, int], ...]:
    """The task table's columns for a pane ``width`` cells wide: all of them at 110 and
    more; at 80 they were cut after "platform", mid-column."""
    return NARROW_COLUMNS if width < NARROW_BELOW else TASK_COLUMNS


def error_cell(error: str, width: int = 25) -> str:
    """A task's last error (masked at load) on one line of ``width`` cells, cut with "…"
    where the room ends, but never inside a ``[redacted: …]`` mask, which is kept whole or
    dropped whole (the cut drew "[redacted: OpenAI API k…", a kind that is not one)."""
    return clip_masked(" ".join(error.split()), width, cell_len, at_word=False)


def task_status(r: TaskStatus) -> Text:
    """One word for where a task stands: off, cannot run (its provider), running, failed, on."""
    if not r.enabled:
        return Text("off", style="dim")
    if r.blocked:
        return Text("cannot run", style=f"bold {PALETTE.error}")
    if r.locked:
        return Text("running", style=PALETTE.warning)
    if r.last_action == "error":
        return Text("failed", style=PALETTE.error)
    return Text("on", style=PALETTE.success)


def next_run(r: TaskStatus) -> str:
    """When the task runs next: ``due now``, the time its interval ends, or why it waits."""
    if r.due:
        return "due now"
    if r.reason == "input unchanged":
        return "on new input"
    if r.last_success_at and r.reason.startswith("not due"):
        try:
            last = datetime.fromisoformat(r.last_success_at.replace("Z", "+00:00"))
        except ValueError:
            return r.reason
        return f"{last + timedelta(hours=r.min_interval_hours):%Y-%m-%d %H:%M}"
    return r.reason


class MaintenancePane(Pane):
    pane_id = "maintenance"
    main_widget = "#proposals"
    BINDINGS = bindings("maintenance")
    watches = (".memsearch",)

    def focus_main(self) -> None:
        """The proposals when any wait, else the task table (t and Enter act on its row)."""
        plist = self.query_one(self.main_widget)
        (plist if plist.display else self.query_one("#tasks", DataTable)).focus()

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.data = MaintData()
        self.selected_pid: str | None = None
        self.pending_task: str | None = None  # "platform.task" to select once loaded
        self.applied = False  # has a load landed yet?
        #: option id → (row, name) of the proposal just rejected: its row stays, the cursor on it
        self.rejected: dict[str, tuple[int, str]] = {}
        self.columns = TASK_COLUMNS  # the task table's now (``compose``, ``on_resize``)

    def compose(self) -> ComposeResult:
        """The task table gets its columns here, not in ``on_mount``: a pane mounting as the
        app exits has its children taken down before its own Mount (NoMatches at exit)."""
        with Vertical():
            yield Label(
                f"Tasks  ({hint(self.app.keymap, 'maintenance.detail', 'maintenance.run')})",
                id="tasks-label",
                classes="section",
            )
            table: DataTable[Text | str] = DataTable(id="tasks", cursor_type="row", zebra_stripes=True)
            # what matters first and at a fixed width, so 80 columns show task, status and next
            # and a reload never moves a column (a narrow pane leaves out what does not fit)
            self.columns = task_columns(self.app.size.width)
            for col, width in self.columns:
                table.add_column(col, key=col, width=width)
            yield table
            yield Label("", id="maint-status", classes="status")
            yield Static(id="spend", classes="meta")
            yield WorkProgress(id="maint-progress")
            yield Label(
                "Pending proposals  "
                f"({hint(self.app.keymap, 'maintenance.accept', 'maintenance.edit', 'maintenance.reject')})",
                classes="section",
            )
            with Horizontal(id="proposal-area", classes="columns"):
                yield OptionList(id="proposals", classes="left-narrow")
                with Vertical(classes="right"):
                    yield Static(id="proposal-head", classes="meta")
                    with VerticalScroll(id="proposal-diff-scroll"):
                        yield DiffView(id="proposal-diff")

    # -- data -----------------------------------------------------------------------
    def _load_then_apply(self) -> None:
        """The first load, when a task is enabled, in two draws (issue 37 item 5): every row
        at once with the enabled tasks' "next" saying CHECKING, then the rows of a full
        ``status``. Only "next" waits on the input digest, which lists and stats every day
        file (10,000 at 10,000 days) in a fresh process: no cheaper proof that no day file
        changed exists before the file watcher has seen the folder. Later loads draw once,
        the rows shown meanwhile being the last full ones."""
        if self.applied:
            self.apply_from_thread(self.load())
            return
        from textual.worker import get_current_worker

        worker = get_current_worker()
        quick = self.load(check_input=False)
        # each draw is skipped once a reload has cancelled this worker (``apply_from_thread``):
        # a cancelled first load's "checking…" drawn over the newer rows would stay for good
        if not self.apply_from_thread(quick):
            return
        if quick.checking and not worker.is_cancelled:
            self._wait_drawn()
            full = self.load_checked(quick)
            self.apply_from_thread(full, self.apply_checked)

    def _wait_drawn(self) -> None:
        """Wait (worker thread, ≤ ``DRAWN_WAIT`` s) until the first draw is on the screen:
        the digest's 10,000 ``stat`` calls take the interpreter back from the UI thread at
        each one, and the frame showing the rows waited for them (the Overview's way)."""
        import threading

        drawn = threading.Event()
        if call_while_shown(self, self.call_after_refresh, drawn.set):
            drawn.wait(DRAWN_WAIT)

    def load_checked(self, quick: MaintData) -> MaintData:
        """``quick`` with the rows of a full ``status``: the same call as every later load's."""
        out = replace(quick, checking=False, problems=list(quick.problems))
        try:
            out.rows = self.ctx.mem.maintenance.status(self.ctx.config(), disabled_digests=False)
        except Exception as exc:  # the config broke since the first draw: said, as ``load`` says it
            out.problems.append(str(exc))
        return out

    def load(self, *, check_input: bool = True) -> MaintData:
        mem = self.ctx.mem
        out = MaintData()
        try:
            cfg = self.ctx.config()
            out.problems += cfg.warnings
            # no digest for a disabled row (none shown, it decides nothing); none at all
            # with ``check_input`` False (the first draw)
            out.rows = mem.maintenance.status(cfg, disabled_digests=False, check_input=check_input)
            out.checking = not check_input and any(r.enabled for r in out.rows)
            out.spend = (mem.maintenance.spend(cfg, by="task"), mem.maintenance.spend(cfg, by="provider"))
        except Exception as exc:  # a broken config must not hide the proposals
            out.problems.append(str(exc))
        listing = mem.proposals.listing("pending")
        for bad in listing.unreadable:  # named, never silently dropped (``proposals list`` lists them too)
            out.problems.append(printable(f"skipped {Path(bad.path).name}: {bad.reason}", keep_newlines=False))
        for listed in listing.proposals:
            try:
                self._load_one(out, listed.id)
            except MemsearchError as exc:  # one bad proposal file must not hide the others nor the tasks
                out.problems.append(printable(f"skipped proposal {listed.id}: {exc}", keep_newlines=False))
        return out

    def _load_one(self, out: MaintData, pid: str) -> None:
        """One pending proposal into ``out``, with its full text (a rewrite) or its moves (a store change)."""
        mem = self.ctx.mem
        p = mem.proposals.get(pid)
        if p.origin == "store":
            out.moves[p.id] = mem.proposals.moves(p.id)
            out.store_pending.append(p)
            return
        seen = mem.proposals.target_bytes(p.id)  # accept passes it back: expected=
        out.seen[p.id], out.current[p.id] = seen, seen.decode("utf-8", errors="replace")
        out.pending.append(p)

    def apply(self, data: MaintData) -> None:
        self.data = data
        table = self.query_one("#tasks", DataTable)
        self._fill(table)
        self.applied = True
        if self.pending_task is not None:
            key, self.pending_task = self.pending_task, None
            self.open_task(key)
        spend = self.query_one("#spend", Static)
        view = spend_view(*data.spend) if data.spend else None
        spend.display = view is not None  # nothing spent, no budget: the pane stays as it was
        spend.update(view or "")
        status = self.query_one("#maint-status", Label)
        status.update(
            Text(" · ".join(data.problems), style=PALETTE.warning)
            if data.problems
            else Text(
                f"{plural(len(data.rows), 'task')} · {plural(len(data.pending) + len(data.store_pending), 'pending proposal')}",
                style="dim",
            )
        )
        plist = self.query_one("#proposals", OptionList)
        plist.clear_options()
        options: list[Option] = []
        for p in data.pending:
            label = Text.assemble(
                flag_mark(p),
                (printable(Path(p.target).name, keep_newlines=False), "bold"),  # a name from a file
                f"  {task_words(p.task)}\n",
                (printable(short_time(p.created), keep_newlines=False), "dim"),
            )
            if p.target_changed:
                label.append("  target changed", style=PALETTE.warning)
            if p.stale:
                label.append("  stale", style=f"bold {PALETTE.warning}")
            options.append(Option(label, id=f"p:{p.id}"))
        for sp in data.store_pending:
            label = Text.assemble(
                (printable(f"store {sp.kind}", keep_newlines=False), "bold"),
                f"  {plural(len(data.moves.get(sp.id, ())), 'move')}\n",
                (short_time(sp.created), "dim"),
            )
            options.append(Option(label, id=f"s:{sp.id}"))
        live = {o.id for o in options}
        for oid, (pos, what) in sorted(self.rejected.items(), key=lambda kv: kv[1][0]):
            if oid not in live:  # kept in place, so the cursor stays on it (a reflex key hits nothing)
                rejected = Text.assemble(
                    (what, "dim strike"), "  ", (f"rejected · {self.key('app.undo')} undoes", "dim")
                )
                options.insert(min(pos, len(options)), Option(rejected, id=oid))
        plist.add_options(options)
        ids = [o.id for o in plist.options if o.id]
        plist.display = bool(ids)  # nothing to list: the guidance gets the whole width
        if not ids:
            if plist.has_focus:  # a hidden list cannot take keys: the tasks can
                self.query_one("#tasks", DataTable).focus()
            self.selected_pid = None
            self.query_one("#proposal-head", Static).update(no_proposals_hint(data.rows, self.app.keymap))
            self.query_one("#proposal-diff", DiffView).show_note("")
            return
        index = ids.index(self.selected_pid) if self.selected_pid in ids else 0
        plist.highlighted = index
        self._show(ids[index])

    def _show(self, option_id: str) -> None:
        self.selected_pid = option_id
        if option_id in self.rejected and not self._live(option_id):
            self.query_one("#proposal-head", Static).update(
                Text(f"rejected · {self.key('app.undo')} undoes it (the undo history)", style="dim")
            )
            self.query_one("#proposal-diff", DiffView).show_note("")
            return
        if option_id.startswith("s:"):
            self._show_store(option_id[2:])
            return
        pid = option_id[2:]
        prop = next((p for p in self.data.pending if p.id == pid), None)
        if prop is None:
            return
        head = Text()
        head.append("reason: ", style="bold")
        head.append_text(untrusted(prop.reason or "—"))  # an LLM's words in a file anyone can drop: masked, escaped
        if prop.tampered:
            self._show_tampered(prop, head)
            return
        if prop.stale:
            head.append(f"\n⚠ stale: {prop.stale}. ", style=f"bold {PALETTE.warning}")
            head.append(self._stale_hint(prop), style=PALETTE.warning)
        if prop.target_changed:
            head.append(
                "\n⚠ the target changed since this proposal was made: the diff is against the "
                "file as it is now; accepting overwrites those changes (asks first).",
                style=f"bold {PALETTE.warning}",
            )
        if prop.new_file:  # a condensed index: the lines it loses go to a new topic file beside it
            head.append(
                f"\n+ creates {printable(prop.new_file, keep_newlines=False)} beside it, holding the lines removed below",
                style="bold",
            )
        self._head(prop, head)
        name = shown_name(prop)
        # shown as `proposals diff` shows it, secrets masked (a host's file may hold a pasted token); written as is
        now, proposed = redact_text(self.data.current.get(pid, "")), redact_text(prop.content or "")
        self.query_one("#proposal-diff", DiffView).show(now, proposed, left=f"{name} now", right=f"{name} proposed")

    def _head(self, prop: Proposal, head: Text) -> None:
        """The detail's head: the id, task → target, then ``head`` (reason, flags)."""
        where = Squeezed(shown_target(prop), "dim", prefix=printable(f"{task_name(prop.author, prop.task)} → "))
        self.query_one("#proposal-head", Static).update(Group(Squeezed(prop.id, "bold"), where, head))

    def _show_tampered(self, prop: Proposal, head: Text) -> None:
        """A rewrite that may not be applied (``proposals list`` marks it ``[TAMPERED]``):
        why, in the head; no diff (its target is never read, so a diff would show the
        proposed text against nothing, as if it were a new PROJECT.md)."""
        flag, why = proposal_flag(prop)
        head.append(f"\n⚠ {flag}: ", style=f"bold {PALETTE.error}")
        head.append_text(untrusted(why, PALETTE.error))  # names the file's target (from ~ already): escaped, masked
        reject = self.key("maintenance.reject")
        if flag == "TAMPERED":
            head.append(f"\nIt is never applied: {reject} rejects it.", style=PALETTE.error)
            note = "no diff: a tampered proposal's target is never read"
        else:
            head.append(f"\nNothing is applied until then; {reject} rejects it.", style=PALETTE.warning)
            note = "no diff until the config loads: the target cannot be checked before"
        self._head(prop, head)
        self.query_one("#proposal-diff", DiffView).show_note(note)

    def _show_store(self, pid: str) -> None:
        sp = next((p for p in self.data.store_pending if p.id == pid), None)
        if sp is None:
            return
        head = Text()
        head.append(f"{sp.id}\n", style="bold")
        head.append_text(untrusted(f"{sp.summary}\n", "dim"))
        head.append("why: ", style="bold")
        head.append_text(untrusted(sp.reason or "—"))
        if sp.kind in (
            "remember",
            "revise",
            "forget",
            *HYGIENE_FIXES,
        ):  # a body rewrite: all of it, as accept writes it
            self._show_agent(pid, head)
            return
        self.query_one("#proposal-head", Static).update(head)
        moves = Text()  # ids, targets and reasons are the LLM's: DiffView.update masks and escapes them
        for m in self.data.moves.get(pid, ()):
            moves.append(f"{m.action:<8} ", style=move_style(m.action))
            moves.append(m.id)
            if m.to:
                moves.append(f" → {m.to}", style=PALETTE.accent)
            if m.reason:
                moves.append(f"  {m.reason}", style="dim")
            moves.append("\n")
        self.query_one("#proposal-diff", DiffView).update(moves)

    def _live(self, option_id: str) -> bool:
        """Is ``option_id`` still pending (not just the kept row of a rejected one)?"""
        return any(f"p:{p.id}" == option_id for p in self.data.pending) or any(
            f"s:{sp.id}" == option_id for sp in self.data.store_pending
        )

    def _show_agent(self, pid: str, head: Text) -> None:
        """The changed fields in the head, the whole body before and after in the diff view
        (``mem.proposals.review``: nothing accept writes is left out)."""
        diff = self.query_one("#proposal-diff", DiffView)
        try:
            r = self.ctx.mem.proposals.review(pid)
        except MemsearchError as exc:
            self.query_one("#proposal-head", Static).update(head)
            diff.show_note(exc.message)
            return
        for field_name, now, new in r.fields:
            head.append(f"\n{field_name}: ", style="bold")
            head.append(f"{now or '—'} → {new or '—'}")
        if r.note:
            head.append(f"\n{r.note}", style="dim")
        self.query_one("#proposal-head", Static).update(head)
        target = r.proposal.target
        diff.show(r.before, r.after, left=f"{target} now", right=f"{target} proposed")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "proposals" and event.option.id:
            if event.option.id not in self.rejected:  # moved on: a rejected row is not kept any longer
                self.rejected.clear()
            self._show(event.option.id)

    # -- opened from the Overview -----------------------------------------------------
    def open_proposal(self, option_id: str) -> None:
        """Highlight proposal ``p:<id>`` or ``s:<id>`` (selected when the first load lands)."""
        self.selected_pid = option_id
        plist = self.query_one("#proposals", OptionList)
        ids = [o.id for o in plist.options]
        if option_id in ids:
            plist.highlighted = ids.index(option_id)
            self._show(option_id)
        plist.focus()

    def open_task(self, key: str) -> None:
        """Put the task table's cursor on ``platform.task`` and focus it."""
        if not self.applied:  # ``apply`` comes back here
            self.pending_task = key
            return
        keys = [f"{r.platform}.{r.task}" for r in self.data.rows]
        if key not in keys:
            self.app.notify(f"no task {key} in the configuration now", severity="warning")
            return
        table = self.query_one("#tasks", DataTable)
        table.move_cursor(row=keys.index(key))
        if self.is_shown():  # focusing a hidden pane would switch tabs
            table.focus()

    def _fill(self, table: DataTable[Any], keep: int | None = None) -> None:
        """The task table's rows from ``self.data``, in its columns now, the cursor kept."""
        keep = table.cursor_row if keep is None else keep
        table.clear()
        for r in self.data.rows:
            cells = self._cells(r)
            table.add_row(*(cells[col] for col, _ in self.columns), key=f"{r.platform}.{r.task}")
        if self.data.rows:
            table.move_cursor(row=min(keep, len(self.data.rows) - 1))

    def on_resize(self) -> None:
        """Across the narrow layout's edge the table takes the other columns (and its rows
        again): 80 columns show whole columns, not one cut mid-way."""
        super().on_resize()
        columns = task_columns(self.app.size.width)
        if columns == self.columns:
            return
        self.columns = columns
        table = self.query_one("#tasks", DataTable)
        keep = table.cursor_row
        table.clear(columns=True)
        for col, width in columns:
            table.add_column(col, key=col, width=width)
        self._fill(table, keep)

    def _cells(self, r: TaskStatus) -> dict[str, Text | Squeezed | str]:
        """The task table's cells of ``r`` by column (``TASK_COLUMNS``; a narrow table's
        last success is its day)."""
        err = Text(error_cell(r.last_error), style=PALETTE.error) if r.last_error else Text("—", style="dim")
        action = Text(r.last_action or "never", style=PALETTE.error if r.last_action == "error" else "")
        success = short_time(r.last_success_at)
        return {
            "task": Squeezed(task_words(r.task)),
            "status": task_status(r),
            "next": self._next_run(r),
            "last success": Text(success[:10] if self.columns is NARROW_COLUMNS else success),  # a str cell is markup
            "platform": Squeezed(platform_name(r.platform)),
            "last action": action,
            "last error": err,
            "provider": Text(r.provider),
        }

    @guard
    def apply_checked(self, data: MaintData) -> None:
        """The first load's second draw: the same tasks, enabled as drawn, and no new
        problem (the proposals, spend and status line were drawn from the same answer):
        only the table's cells are set again, the proposals' diff is not redrawn; else
        the whole ``apply``."""
        drawn = [(r.platform, r.task, r.enabled) for r in self.data.rows]
        if drawn != [(r.platform, r.task, r.enabled) for r in data.rows] or data.problems != self.data.problems:
            self._apply_guarded(data)
            return
        self._data = self.data = data
        table = self.query_one("#tasks", DataTable)
        for r in data.rows:
            cells = self._cells(r)
            for col, _width in self.columns:
                table.update_cell(f"{r.platform}.{r.task}", col, cells[col])

    def _next_run(self, r: TaskStatus) -> Text:
        if not r.enabled:  # the detail says how to enable it
            return Text(f"{self.key('maintenance.detail')}: how to enable", style="dim")
        if self.data.checking:
            return Text(CHECKING, style="dim italic")
        return Text(next_run(r), style=f"bold {PALETTE.success}" if r.due else "dim")

    # -- actions --------------------------------------------------------------------
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "tasks":
            self.action_task_detail()

    @guard
    def action_task_detail(self) -> None:
        from memsearch_tui.tui.screens.task_detail import TaskDetailScreen

        if not self.data.rows:
            self.app.notify("no maintenance task configured", severity="warning")
            return
        row = self.data.rows[min(self.query_one("#tasks", DataTable).cursor_row, len(self.data.rows) - 1)]
        self.app.push_screen(TaskDetailScreen(row, self.ctx.mem))

    def _decided(self) -> bool:
        """The cursor is on a row rejected a moment ago: say so, act on nothing."""
        sel = self.selected_pid or ""
        if sel in self.rejected and not self._live(sel):
            self.app.notify(f"already rejected · {self.key('app.undo')} undoes it", severity="warning")
            return True
        return False

    def _prop(self) -> Proposal | None:
        sel = self.selected_pid or ""
        prop = next((p for p in self.data.pending if f"p:{p.id}" == sel), None)
        if prop is None and not sel.startswith("s:"):
            self.app.notify("no pending proposal selected", severity="warning")
        return prop

    def _store_pid(self) -> str | None:
        sel = self.selected_pid or ""
        return sel[2:] if sel.startswith("s:") else None

    @guard
    def action_accept(self) -> None:
        if self._decided():
            return
        if (spid := self._store_pid()) is not None:
            bar = self.query_one(WorkProgress)
            shown = next((p for p in self.data.store_pending if p.id == spid), None)
            count = len(self.data.moves.get(spid, ()))

            def accept() -> Outcome:
                try:  # refused (Conflict) if the proposal file no longer reads as shown
                    self.ctx.mem.proposals.accept(
                        spid, expected=shown, progress=lambda d, t: bar.report(d, t, f"moving entries: {d}/{t}")
                    )
                finally:
                    call_while_shown(bar, bar.finish)
                return Outcome(f"accepted {spid}: {plural(count, 'move')} ({self.undoes})")

            bar.start(f"accepting {spid}…")
            self.run_write("accept", accept)
            return
        prop = self._prop()
        if prop is not None:
            self._accept(prop, None)

    @guard
    def action_edit_accept(self) -> None:
        from memsearch_tui.tui.modals import TextEditModal  # a dialog: not for the first frame

        if self._decided():
            return
        if self._store_pid() is not None:
            self.app.notify("a store proposal is a list of moves: accept or reject it", severity="information")
            return
        prop = self._prop()
        if prop is None:
            return
        if prop.tampered:  # the engine refuses its accept whatever the text: refused before the editor opens
            flag, why = proposal_flag(prop)
            self.app.notify(f"{flag.lower()}: {why}", title="Edit+accept", severity="error", timeout=10)
            return
        if prop.stale:  # refused before the editor opens: no edit is lost
            self.app.notify(f"stale: {self._stale_hint(prop)}", title="Edit+accept", severity="warning", timeout=10)
            return

        def done(text: str | None) -> None:
            if text is not None:
                self.app.call_later(self._accept, prop, text)

        self.app.push_screen(
            TextEditModal(
                f"Edit the proposed {shown_name(prop)}, then {bound_key(TextEditModal.BINDINGS, 'save')} accepts",
                prop.content or "",
                what=f"the proposed {shown_name(prop)}",  # "Discard your changes to the proposed …?"
            ),
            done,
        )

    def _stale_hint(self, prop: Proposal) -> str:
        """What a stale proposal offers, with the keys that do it (never a CLI flag)."""
        return (
            f"{self.key('maintenance.accept')} accepts it anyway (asks first) · "
            f"{self.key('maintenance.run')} re-runs {prop.task} on the journals as they are now · "
            f"{self.key('maintenance.reject')} rejects it"
        )

    def _target_changed(self, prop: Proposal) -> bool:
        """Has the rewrite's target changed since the proposal was made, as of now (read at
        the key press, not at the last load: a change made since must ask first)?"""
        return self.ctx.mem.proposals.get(prop.id).target_changed

    def _accept_stale(self, prop: Proposal, stale: str) -> None:
        """Accept anyway, once confirmed: the forgotten text may come back with it."""
        from memsearch_tui.tui.modals import AcceptAnywayModal  # a dialog: not for the first frame

        def done(ok: bool | None) -> None:
            if ok:
                self.app.call_later(self._do_accept, prop, None, True)

        also = "\nThe target also changed since; accepting overwrites that too."
        changed = also if self._target_changed(prop) else ""
        self.app.push_screen(
            AcceptAnywayModal(
                "Accept a stale proposal",
                f"This proposal was {stale}.\nIt may bring back what was forgotten.{changed} ({self.undoes})",
                confirm="Accept anyway",
            ),
            done,
        )

    @guard
    def _accept(self, prop: Proposal, content: str | None) -> None:
        from memsearch_tui.tui.modals import OverwriteModal  # a dialog: not for the first frame

        if prop.tampered:  # never applied: no "accept anyway?" first; the engine refuses it and says why
            self._do_accept(prop, content, False)
            return
        if prop.stale:
            self._accept_stale(prop, prop.stale)
            return
        if self._target_changed(prop):

            def done(ok: bool | None) -> None:
                if ok:
                    self.app.call_later(self._do_accept, prop, content, True)

            self.app.push_screen(
                OverwriteModal(
                    "Target changed",
                    f"{printable(home_relative(prop.target), keep_newlines=False)} changed since this proposal was made.\n"
                    f"Accepting replaces it, including those changes. ({self.undoes})",
                    confirm="Overwrite",
                ),
                done,
            )
            return
        self._do_accept(prop, content, False)

    @guard
    def _do_accept(self, prop: Proposal, content: str | None, force: bool) -> None:
        expected = self.data.seen.get(prop.id)  # the target as the diff showed it

        def accept() -> Outcome:
            self.ctx.mem.proposals.accept(prop.id, content=content, force=force, expected=expected)
            return Outcome(f"accepted: {shown_name(prop)} replaced ({self.undoes})")

        self.run_write("accept", accept)

    @guard
    def action_reject(self) -> None:
        from memsearch_tui.tui.modals import RejectModal  # a dialog: not for the first frame

        if self._decided():
            return
        spid = self._store_pid()
        prop = None if spid is not None else self._prop()
        if spid is None and prop is None:
            return

        def reject() -> Outcome:
            if spid is not None:
                self.ctx.mem.proposals.reject(spid, note="rejected in the TUI")
                return Outcome(f"rejected {spid}")
            assert prop is not None
            self.ctx.mem.proposals.reject(prop.id, note="rejected in the TUI")
            return Outcome(f"rejected {prop.id}; it will not be proposed again for this input")

        what = printable(spid, keep_newlines=False) if spid else (shown_name(prop) if prop else "")
        oid = self.selected_pid or ""

        def done(ok: bool | None) -> None:
            if ok:
                plist = self.query_one("#proposals", OptionList)
                self.rejected = {oid: (plist.highlighted or 0, what)}
                self.run_write("reject", reject)

        self.app.push_screen(
            RejectModal(
                "Reject proposal",
                f"Reject the proposal for {what}? The file stays as it is, and the same input is not proposed again.",
                confirm="Reject",
            ),
            done,
        )

    def can_run(self, action_id: str) -> bool:
        """Accept, reject and edit need a pending proposal; run and detail need a task."""
        if not self.applied:
            return True
        if action_id in ("maintenance.accept", "maintenance.reject", "maintenance.edit"):
            return bool(self.data.pending or self.data.store_pending)
        return bool(self.data.rows)

    def _task_row(self) -> TaskStatus:
        """The task ctrl+g runs: the selected proposal's (on the proposals list), else the
        task table's row under the cursor."""
        table = self.query_one("#tasks", DataTable)
        plist = self.query_one("#proposals", OptionList)
        prop = next((p for p in self.data.pending if f"p:{p.id}" == self.selected_pid), None)
        if plist.has_focus and prop is not None:
            row = next((r for r in self.data.rows if (r.platform, r.task) == (prop.author, prop.task)), None)
            if row is not None:
                return row
        return self.data.rows[min(table.cursor_row, len(self.data.rows) - 1)]

    @guard
    def action_run_task(self) -> None:
        table = self.query_one("#tasks", DataTable)
        if not self.data.rows:
            self.app.notify("no maintenance task configured", severity="warning")
            return
        row = self._task_row()
        self.query_one("#maint-status", Label).update(
            Text(f"running {row.platform}.{row.task}…", style=PALETTE.warning)
        )
        set_busy(table, True)
        platform, task = row.platform, row.task

        def run() -> Outcome:
            try:
                (result,) = self.ctx.mem.maintenance.run(self.ctx.config(), task=task, platforms=[platform], force=True)
            finally:
                call_while_shown(table, set_busy, table, False)
            return Outcome(  # refused: a budget stopped it before any request; the reason says which
                f"{platform}.{task}: {result.result} {result.reason}".strip(),
                severity={"error": "error", "refused": "warning"}.get(result.result, "information"),
            )

        self.run_write(f"run {platform}.{task}", run)
