"""Trash pane: trashed entries (title, from, trashed, days until purge); restore, purge; the lifecycle plan.

Restore is undoable; purge is the one irreversible step, so it always asks first. The
lifecycle plan (what would be archived, expired, trashed or purged, and why) is computed
in a worker and applied as one logged operation after a confirmation. Every write passes
what the pane showed (``expected``: the previewed file, the planned files as they were
when the plan was computed), so a change made since is refused, never acted on unseen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Label, Markdown, Static

from memsearch_tui.engine.api import CopyRestored
from memsearch_tui.engine.api.types import Move
from memsearch_tui.tui.actions import bindings, hint, key_of
from memsearch_tui.tui.empty_states import no_store, trash_empty
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.modals import ConfirmModal
from memsearch_tui.tui.palette import PALETTE, move_style
from memsearch_tui.tui.panes.base import Context, Outcome, Pane, guard, plural, set_busy
from memsearch_tui.tui.panes.trash_preview import preview_parts
from memsearch_tui.tui.text import Squeezed, home_relative, untrusted
from memsearch_tui.tui.widgets.work_progress import WorkProgress

if TYPE_CHECKING:
    from memsearch_tui.engine.api.records import TrashItem, TrashPreview


@dataclass
class TrashData:
    items: list[TrashItem] = field(default_factory=list)
    missing: str = ""


SCROLLBAR = 2  # the table's vertical scrollbar, when its rows overflow
CELL_PAD = 2  # DataTable's cell padding, one cell each side
MIN_SHARED = 10
MAX_SHARED = 36  # a title or reason wider than this is cut, so the dates show on a wide terminal


def fresh_columns(table: DataTable[Any], columns: tuple[tuple[str, int], ...]) -> None:
    """Empty the table and add its columns anew at the given widths: an auto-width column
    only ever grows, so a long title seen once (a forgotten turn's excerpt, then undone)
    would keep pushing the purge date and reason off screen after it is gone."""
    table.clear(columns=True)
    for name, width in columns:
        table.add_column(name, key=name, width=width)


def shared_widths(
    total: int, fixed: dict[str, int], shared: tuple[str, ...], names: tuple[str, ...], scrollbar: int = SCROLLBAR
) -> tuple[tuple[str, int], ...]:
    """Column widths for a table ``total`` cells wide: the ``fixed`` ones as given, the
    ``shared`` ones splitting what is left of the width (so the most useful columns end
    inside the table, cut with "…" rather than by the table's edge), the rest at their
    ``fixed`` width further right. ``scrollbar``: the cells the vertical scrollbar takes
    (0 when the rows fit: else the next column's first letter showed there, a header "t")."""
    pad = CELL_PAD
    in_view = names[: max(names.index(n) for n in shared) + 1]  # up to the last shared column
    room = total - scrollbar - sum(fixed[n] + pad for n in in_view if n not in shared) - pad * len(shared)
    each = min(MAX_SHARED, max(MIN_SHARED, room // len(shared)))
    last = max(MIN_SHARED, room - each * (len(shared) - 1))  # the table's last column: the rest
    if shared[-1] != names[-1]:  # columns follow it: a wide terminal shows them too
        last = min(MAX_SHARED, last)
    return tuple((n, (last if n == shared[-1] else each) if n in shared else fixed[n]) for n in names)


def cut(value: object, style: str = "") -> Text:
    """An untrusted one-line cell that ends in "…" when its column is narrower."""
    text = untrusted(value, style, keep_newlines=False)
    text.no_wrap, text.overflow = True, "ellipsis"
    return text


class TrashPane(Pane):
    pane_id = "trash"
    main_widget = "#trash-table"
    BINDINGS = bindings("trash")

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.data = TrashData()
        self.moves: list[Move] = []
        # what the user looked at, passed back as ``expected=`` by every write of this pane:
        # the previewed trash file (restore, purge) and each planned file (apply)
        self.seen: dict[str, bytes | None] = {}
        self.plan_seen: dict[str, bytes | None] = {}
        self.plan_focus: str | None = None  # an action whose moves the next plan selects
        self.pending_item: str | None = None  # a trash key to select once loaded

    def compose(self) -> ComposeResult:
        """The tables get their columns here, not in ``on_mount``: a pane mounting as the app
        exits (its key or the idle chain, then ``q`` at once) has its children taken down
        before its own Mount, and an ``on_mount`` that queried them raised NoMatches at exit."""
        trash: DataTable[Any] = DataTable(id="trash-table", cursor_type="row", zebra_stripes=True)
        plan: DataTable[Any] = DataTable(id="plan-table", cursor_type="row", zebra_stripes=True)
        fresh_columns(trash, self._trash_columns(trash))  # at the widths before a layout
        fresh_columns(plan, self._plan_columns(plan))
        with Vertical():
            yield Label(
                f"Trash  ({hint(self.app.keymap, 'trash.restore', 'trash.purge', 'trash.plan')})", classes="section"
            )
            with Horizontal(id="trash-top"):
                yield trash
                with VerticalScroll(id="trash-preview-scroll", classes="right"):
                    yield Static(id="trash-preview", classes="meta")
                    yield Markdown("", id="trash-preview-body")  # drawn as the Index draws an entry
                    yield Static(id="trash-preview-keys")
            yield Label("", id="trash-status", classes="status")
            yield WorkProgress(id="trash-progress")
            yield Label(
                f"Lifecycle plan  ({key_of(self.app.keymap, 'trash.plan')} computes it)",
                id="plan-label",
                classes="section",
            )
            yield plan

    #: most useful first: title, when it goes and why share the table's width; the trash
    #: date and the original id follow (scroll right, or the preview shows them)
    TRASH_COLUMNS = ("title", "purge in", "reason", "trashed", "from")
    TRASH_FIXED = {"purge in": 9, "trashed": 10, "from": 30}
    PLAN_COLUMNS = ("action", "entry", "since", "why")
    PLAN_FIXED = {"action": 7, "since": 10}

    def _trash_columns(self, table: DataTable[Any] | None = None) -> tuple[tuple[str, int], ...]:
        table = table or self.query_one("#trash-table", DataTable)
        rows = len(self.data.items)
        return self._columns(table, 50, self.TRASH_FIXED, ("title", "reason"), self.TRASH_COLUMNS, rows)

    def _plan_columns(self, table: DataTable[Any] | None = None) -> tuple[tuple[str, int], ...]:
        table = table or self.query_one("#plan-table", DataTable)
        return self._columns(table, 78, self.PLAN_FIXED, ("entry", "why"), self.PLAN_COLUMNS, len(self.moves))

    def _columns(
        self,
        table: DataTable[Any],
        unsized: int,
        fixed: dict[str, int],
        shared: tuple[str, ...],
        names: tuple[str, ...],
        rows: int,
    ) -> tuple[tuple[str, int], ...]:
        """``shared_widths`` for one of the pane's tables (``unsized``: before its first
        layout), leaving room for a vertical scrollbar only when its ``rows`` overflow it
        (beside the header and the horizontal scrollbar)."""
        size = table.size
        overflows = not size.height or rows + 2 > size.height
        return shared_widths(size.width or unsized, fixed, shared, names, SCROLLBAR if overflows else 0)

    def on_resize(self) -> None:
        """The shared columns follow the terminal's width (the rows are drawn anew)."""
        super().on_resize()
        self.call_after_refresh(self._redraw_tables)

    def _redraw_tables(self) -> None:
        if self._data is not None:
            self.apply(self.data)
        if self.moves:
            self._show_plan(self.moves, self.plan_seen)

    def load(self) -> TrashData:
        if not self.ctx.store_exists():
            return TrashData(missing=f"no memory store at {home_relative(self.ctx.memory_root)}")
        return TrashData(items=self.ctx.mem.trash.items())

    def apply(self, data: TrashData) -> None:
        self.data = data
        table = self.query_one("#trash-table", DataTable)
        keep = table.cursor_row
        fresh_columns(table, self._trash_columns())
        status = self.query_one("#trash-status", Label)
        if data.missing:
            status.update(no_store(home_relative(self.ctx.memory_root), self.app.keymap))
            return
        for i in data.items:
            left = Text(plural(i.days_left, "day"), style=PALETTE.warning if i.days_left < 7 else "")
            if i.days_left <= 0:
                left = Text("due now", style=f"bold {PALETTE.error}")
            table.add_row(
                cut(i.title),  # a trashed file's words and folder names
                left,
                cut(i.reason or "—"),
                i.trashed,
                Squeezed(i.original_id),
                key=i.key,
            )
        if data.items:
            table.move_cursor(row=min(keep, len(data.items) - 1))
        if self.pending_item is not None:
            key, self.pending_item = self.pending_item, None
            keys = [i.key for i in data.items]
            if key in keys:
                table.move_cursor(row=keys.index(key))
        status.update(
            Text(plural(len(data.items), "trashed entry", "trashed entries"), style="dim")
            if data.items
            else trash_empty(self.app.keymap)
        )
        self._preview()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "trash-table":
            self._preview()

    @guard
    def _preview(self) -> None:
        table = self.query_one("#trash-table", DataTable)
        item = self.data.items[min(table.cursor_row, len(self.data.items) - 1)] if self.data.items else None
        p: TrashPreview | None = None
        if item is not None:
            p = self.ctx.mem.trash.preview(item)
            self.seen = {item.key: p.raw}
        head, body, keys = preview_parts(self, item, p)
        self.query_one("#trash-preview", Static).update(head)
        self.query_one("#trash-preview-body", Markdown).update(body)
        self.query_one("#trash-preview-keys", Static).update(keys)

    def action_preview(self) -> None:
        self.query_one("#trash-preview-scroll").focus()

    def _item(self) -> TrashItem | None:
        table = self.query_one("#trash-table", DataTable)
        if not self.data.items:
            self.app.notify("the trash is empty", severity="information")
            return None
        return self.data.items[min(table.cursor_row, len(self.data.items) - 1)]

    # -- actions --------------------------------------------------------------------
    @guard
    def action_restore(self) -> None:
        item = self._item()
        if item is None:
            return
        expected = self.seen.get(item.key)

        def restore() -> Outcome:
            out = self.ctx.mem.trash.restore(item.key, expected=expected)
            msg = f"restored {out.restored}"
            if not isinstance(out, CopyRestored) and out.renamed:
                msg += f" (renamed: {out.original_id} was taken)"
            return Outcome(msg + f" ({self.undoes})")

        self.run_write("restore", restore)

    @guard
    def action_purge(self) -> None:
        item = self._item()
        if item is None:
            return
        raw = self.seen.get(item.key)
        expected = {item.key: raw} if raw is not None else None

        def purge() -> Outcome:
            self.ctx.mem.trash.purge([item], yes=True, expected=expected)
            return Outcome(f"purged {item.original_id}")

        def done(ok: bool | None) -> None:
            if ok:
                self.run_write("purge", purge)

        self.app.push_screen(
            ConfirmModal(
                "Purge for good",
                f"Delete “{item.title}” ({item.original_id}) permanently?\nThis cannot be undone.",
                confirm="Purge",
            ),
            done,
        )

    def select_item(self, key: str) -> None:
        """Put the cursor on trashed item ``key`` (once the first load lands, if need be)."""
        keys = [i.key for i in self.data.items]
        table = self.query_one("#trash-table", DataTable)
        if key in keys:
            table.move_cursor(row=keys.index(key))
        else:
            self.pending_item = key
        if self.is_shown():
            table.focus()

    def plan_for(self, action: str) -> None:
        """Compute the plan and put the cursor on its first ``action`` move (archive,
        expire, trash, purge; "" for the first move): the Overview's lifecycle lines."""
        self.plan_focus = action
        self.action_plan()

    @guard
    def action_plan(self) -> None:
        self.query_one("#plan-label", Label).update("Lifecycle plan  (computing…)")
        set_busy(self.query_one("#plan-table", DataTable), True)
        self.run_worker(
            self._plan, thread=True, exclusive=True, group="plan", exit_on_error=False, name="lifecycle plan"
        )

    def _plan(self) -> None:
        lifecycle = self.ctx.mem.lifecycle
        try:
            moves = lifecycle.plan()
            seen = lifecycle.seen(moves)
        finally:  # the table looked up on the UI thread, and only while the pane is there
            call_while_shown(self, lambda: set_busy(self.query_one("#plan-table", DataTable), False))
        call_while_shown(self, self._show_plan, moves, seen)

    def _show_plan(self, moves: list[Move], seen: dict[str, bytes | None] | None = None) -> None:
        self.moves, self.plan_seen = moves, seen or {}
        table = self.query_one("#plan-table", DataTable)
        keep = table.cursor_row
        fresh_columns(table, self._plan_columns())
        for m in moves:
            table.add_row(
                Text(m.action, style=move_style(m.action)),
                Squeezed(m.id),  # category/entry-id: its start and end say the most
                m.since or "—",
                cut(m.reason),
            )
        if moves:
            table.move_cursor(row=min(keep, len(moves) - 1))
        applies = hint(self.app.keymap, "trash.apply")
        label = (
            f"Lifecycle plan: {plural(len(moves), 'move')} ({applies})" if moves else "Lifecycle plan: nothing to do"
        )
        self.query_one("#plan-label", Label).update(label)
        focus, self.plan_focus = self.plan_focus, None
        if focus is not None:
            self._focus_plan(focus)
        if not table.size.width:  # drawn before its first layout: again at the width it gets
            self.call_after_refresh(self._redraw_tables)

    def _focus_plan(self, action: str) -> None:
        table = self.query_one("#plan-table", DataTable)
        row = next((n for n, m in enumerate(self.moves) if not action or m.action == action), None)
        if row is None:
            if action:
                self.app.notify(
                    f"nothing is due to {action} today: the plan lists what is due now, "
                    "the Overview what falls due within 30 days",
                    title=self.label,
                )
            return
        table.move_cursor(row=row)
        if self.is_shown():  # focusing a hidden pane would switch tabs
            table.focus()

    @guard
    def action_apply_plan(self) -> None:
        if not self.moves:
            self.app.notify(
                f"compute the plan first ({self.key('trash.plan')}); it has nothing to apply", severity="information"
            )
            return
        counts = ", ".join(
            f"{sum(m.action == a for m in self.moves)} {a}"
            for a in ("archive", "expire", "trash", "purge")
            if any(m.action == a for m in self.moves)
        )
        purges = any(m.action == "purge" for m in self.moves)

        moves, expected = list(self.moves), dict(self.plan_seen)

        bar = self.query_one(WorkProgress)

        def apply() -> Outcome:
            try:  # confirmed here: carried out now, not proposed ([tui] review is for automated plans)
                out = self.ctx.mem.lifecycle.apply(
                    moves,
                    review=False,
                    progress=lambda d, t: bar.report(d, t, f"applying: {d}/{t}"),
                    expected=expected,
                )
            finally:
                call_while_shown(bar, bar.finish)
            return Outcome(f"applied {plural(len(out.applied), 'move')}, skipped {len(out.skipped)}")

        def done(ok: bool | None) -> None:
            if ok:
                self._show_plan([])
                bar.start(f"applying {len(moves)} moves…", len(moves))
                self.run_write("apply plan", apply)

        self.app.push_screen(
            ConfirmModal(
                "Apply the lifecycle plan",
                f"Carry out {counts}?\n"
                + (
                    f"Purges cannot be undone; the other moves can ({self.key('app.undo')})."
                    if purges
                    else f"{self.undoes} it."
                ),
                confirm="Apply",
            ),
            done,
        )
