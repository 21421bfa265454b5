"""Overview pane (key 0): both memories at a glance, each line a way into its pane.

Journal turns per day (a sparkline), store size by category and status, what the
lifecycle will archive / expire / trash / purge in the next 30 days, open conflicts,
pending proposals and when the hooks last ran. Enter on a line opens the pane that
deals with it, at the thing the line is about: the chart's day (←/→ pick it) in the
Journal, the category in the Index, the due moves in the Trash's lifecycle plan, the
conflicting entry in Versions, the proposal or the task in Maintenance. Everything is
read in one worker; nothing here writes.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from memsearch_tui.engine.api.errors import MemsearchError
from memsearch_tui.engine.api.proposals import proposal_flag, proposal_name
from memsearch_tui.engine.api.text import redact_clip
from memsearch_tui.engine.api.types import JournalCopy, LifecycleForecast, OpenConflict, Proposal
from memsearch_tui.tui.actions import bindings, key_of, specs
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.names import task_name, trash_name
from memsearch_tui.tui.panes.base import Context, Pane, guard, plural
from memsearch_tui.tui.text import home_relative, short_time, tone, untrusted
from memsearch_tui.tui.widgets.charts import day_axis, sparkline, stacked_bar

if TYPE_CHECKING:
    from memsearch_tui.engine.api.hygiene import HygieneLast
    from memsearch_tui.engine.api.records import CategoryStats, TaskStatus
    from memsearch_tui.engine.api.sync import SyncState

ACTIVITY_DAYS = 56
FORECAST_DAYS = 30
DRAWN_WAIT = 1.0  # seconds the worker waits for the quick draw's frame before going on
LIST_LIMIT = 8  # conflicts / proposals listed one by one; the rest as "… N more"


@dataclass
class OverviewData:
    store_exists: bool = True
    activity: dict[date, int] = field(default_factory=dict)
    day_files: dict[date, Path] = field(default_factory=dict)  # the journal file of each day
    categories: list[CategoryStats] = field(default_factory=list)
    forecast: LifecycleForecast | None = None  # ``mem.lifecycle.forecast``: counts and first dates per action
    conflicts: list[OpenConflict] = field(default_factory=list)
    proposals: list[Proposal] = field(default_factory=list)  # PROJECT.md / USER.md rewrites
    store_proposals: list[Proposal] = field(default_factory=list)  # lifecycle, split, an agent's write (with moves)
    tasks: list[TaskStatus] = field(default_factory=list)
    upkeep: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    sync: SyncState | None = None  # last sync, ahead/behind, conflicts waiting (None: unreadable)
    copies: tuple[JournalCopy, ...] = ()  # sync tools' conflicted copies of days
    hygiene: HygieneLast | None = None  # the last weekly hygiene pass (``mem.hygiene.last``: no scan here)
    pending: bool = False  # the quick first draw: the files re-checked, conflicts still being read


def day_files(files: Iterable[Path], days: set[date]) -> dict[date, Path]:
    """The journal file of each of ``days`` (the first one by name when a day has several)."""
    out: dict[date, Path] = {}
    for path in sorted(files):
        try:
            day = date.fromisoformat(path.name[:10])
        except ValueError:
            continue
        if day in days:
            out.setdefault(day, path)
    return out


def step_day(active: list[date], current: date | None, step: int) -> date | None:
    """The active day ``step`` days (of those with turns) from ``current``, clamped at the ends."""
    if not active:
        return None
    if current not in active:
        return active[-1]
    return active[max(0, min(len(active) - 1, active.index(current) + step))]


class OverviewList(OptionList):
    """The Overview's list, with ←/→ (the registry's previous/next day keys) stepping the
    activity chart's day instead of scrolling a list that never scrolls sideways."""

    BINDINGS = [s.binding() for s in specs("overview") if s.id in ("overview.day_prev", "overview.day_next")]

    def action_day(self, step: int) -> None:
        pane = next(a for a in self.ancestors if isinstance(a, OverviewPane))
        pane.action_day(step)


class OverviewPane(Pane):
    pane_id = "overview"
    title = "Overview"
    main_widget = "#overview-list"
    BINDINGS = bindings("overview")

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.data = OverviewData()
        self.day: date | None = None  # the chart's selected day (Enter opens it in the Journal)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(
                "reading both memories… (a big store takes a while; the other panes work meanwhile)",
                id="overview-status",
                classes="status",
            )
            yield OverviewList(id="overview-list")

    # -- data (worker) --------------------------------------------------------------
    def _load_then_apply(self) -> None:
        """Three draws from one worker: what is quick (journal activity, proposals, tasks,
        sync, the store's counts as the catalog last saved them) at once; the lifecycle
        forecast from that catalog next (one query: a second or so at 100k entries on a
        busy machine); then the counts and the forecast re-checked against the disk, and
        the conflicts, which take seconds at 100k entries (benchmarks/tui_bench.py)."""
        quick = self.load_quick()
        if not self.apply_from_thread(quick) or not quick.store_exists:
            return  # the app is exiting: nothing more is drawn, and its exit waits for this thread
        self._wait_drawn()
        quick = self.with_cached_forecast(quick)
        if self.apply_from_thread(quick):
            self.apply_from_thread(self.load_rest(quick))

    def _wait_drawn(self) -> None:
        """Wait (worker thread) until the quick draw is on the screen: the forecast's query
        and imports hold the interpreter, and the frame showing the data waited for them
        (~0.1 s at 10,000 journal days). Bounded: a screen that never refreshes (the app
        closing) holds nothing up for long."""
        drawn = threading.Event()
        if call_while_shown(self, self.call_after_refresh, drawn.set):
            drawn.wait(DRAWN_WAIT)

    def load(self) -> OverviewData:
        data = self.load_quick()
        return self.load_rest(data) if data.store_exists else data

    def load_rest(self, quick: OverviewData) -> OverviewData:
        """``quick`` completed: the fresh counts, the forecast, the conflicts."""
        out = replace(quick, problems=list(quick.problems), pending=False)
        self._load_store(out)
        return out

    def load_quick(self) -> OverviewData:
        mem = self.ctx.mem
        out = OverviewData(store_exists=self.ctx.store_exists())
        files = mem.journal.recent_files(ACTIVITY_DAYS)  # listed once: the chart's turns and its days' files
        out.activity = mem.journal.activity(ACTIVITY_DAYS, files)
        out.day_files = day_files(files, {d for d, n in out.activity.items() if n})
        pending = mem.proposals.list("pending")
        out.proposals = [p for p in pending if p.origin == "project"]
        if out.store_exists:  # with its moves (``get``): the list says how many each makes
            out.store_proposals = [mem.proposals.get(p.id) for p in pending if p.origin == "store"]
        self._load_tasks(out)
        self._load_sync(out)
        if out.store_exists:
            out.categories = list(mem.entries.stats(fresh=False))
            out.upkeep = mem.maintenance.store_checks()
            out.hygiene = mem.hygiene.last()
            out.pending = True
        return out

    def with_cached_forecast(self, quick: OverviewData) -> OverviewData:
        """``quick`` with the lifecycle forecast as the catalog last saved it (no entry read)."""
        with contextlib.suppress(MemsearchError):  # the full load names what is wrong
            return replace(quick, forecast=self.ctx.mem.lifecycle.cached_forecast(FORECAST_DAYS))
        return quick

    def _load_tasks(self, out: OverviewData) -> None:
        try:  # no digest shown here: only an enabled task's "due" needs its folder's digest
            out.tasks = self.ctx.mem.maintenance.status(self.ctx.config(), disabled_digests=False)
        except Exception as exc:  # a broken config must not hide the rest
            out.problems.append(f"maintenance: {exc}")

    def _load_sync(self, out: OverviewData) -> None:
        try:
            out.sync = self.ctx.mem.sync.status() if out.store_exists else None
            out.copies = self.ctx.mem.journal.copies()
        except Exception as exc:  # a broken repository must not hide the rest
            out.problems.append(f"sync: {exc}")

    def _load_store(self, out: OverviewData) -> None:
        mem = self.ctx.mem
        out.categories = list(mem.entries.stats())  # the catalog re-checked against the files:
        out.forecast = self._forecast(out)  # the forecast asks it as it is now (no second check)
        out.conflicts = self.app.badges.conflicts_for(mem)

    def _forecast(self, out: OverviewData) -> LifecycleForecast | None:
        """The 30-day lifecycle summary: one query over the catalog ``stats`` has just
        re-checked (no entry read, no second check); a failure is a problem line."""
        try:
            return self.ctx.mem.lifecycle.cached_forecast(FORECAST_DAYS)
        except MemsearchError as exc:
            out.problems.append(f"lifecycle forecast: {exc.message}")
            return None

    def apply(self, data: OverviewData) -> None:
        self.data = data
        active = self._active_days()
        if self.day not in active:
            self.day = active[-1] if active else None
        self._draw()

    def _active_days(self) -> list[date]:
        return sorted(d for d, n in self.data.activity.items() if n and d in self.data.day_files)

    # -- drawing --------------------------------------------------------------------
    def _draw(self) -> None:
        lst = self.query_one("#overview-list", OptionList)
        keep = lst.highlighted
        lst.clear_options()
        opts = list(self._options(self.data))
        for n, opt in enumerate(opts):
            if opt is not None and opt.id:  # ids must be unique; the part before # says where to go
                opts[n] = Option(opt.prompt, id=f"{opt.id}#{n}", disabled=opt.disabled)
        lst.add_options(opts)  # at once: one by one, each separator re-measured every line above it
        if lst.option_count:
            first = next((i for i in range(lst.option_count) if not lst.get_option_at_index(i).disabled), 0)
            lst.highlighted = keep if keep is not None and keep < lst.option_count else first
        status = Text()
        for p in self.data.problems:
            status.append_text(untrusted(p + "\n", tone(self, "warning"), keep_newlines=False))
        label = self.query_one("#overview-status", Label)
        label.update(status)
        label.display = bool(self.data.problems)

    def _head(self, text: str, hint: str = "") -> Option:
        label = Text(text, style=tone(self, "primary", "bold"))
        if hint:
            label.append(f"   {hint}", style="dim")
        return Option(label, disabled=True)

    def _options(self, d: OverviewData) -> list[Option | None]:
        opts: list[Option | None] = []
        opts += self._activity(d)
        opts += self._store(d)
        opts += self._lifecycle(d)
        opts += self._conflicts(d)
        opts += self._sync(d)
        opts += self._proposals(d)
        opts += self._hygiene(d)
        opts += self._hooks(d)
        return opts

    def _activity(self, d: OverviewData) -> list[Option | None]:
        days = sorted(d.activity)
        values = [d.activity[k] for k in days]
        total, active = sum(values), sum(1 for v in values if v)
        keys = f"{key_of(self.app.keymap, 'overview.day_prev')}/{key_of(self.app.keymap, 'overview.day_next')}"
        out: list[Option | None] = [
            self._head(f"Journal activity · last {len(days)} days", f"{keys} pick a day · Enter: it in the Journal")
        ]
        if not total:
            out.append(
                Option(
                    Text(
                        "No journal turns yet. memsearch's agent plugin writes .memsearch/memory/YYYY-MM-DD.md "
                        "after each session.",
                        style="dim",
                    ),
                    id="go:journal",
                )
            )
            return out
        chart = Text.assemble(sparkline(values, tone(self, "accent")), "\n", day_axis(days))
        if self.day in days:  # the selected day, drawn reversed in the strip
            chart.stylize("reverse bold", days.index(self.day), days.index(self.day) + 1)
        chart.append(f"\n{total} turns on {active} days · most {max(values)} in a day", style="dim")
        if self.day is not None:
            chart.append(" · selected ", style="dim")
            chart.append(f"{self.day:%a %b %-d}: {plural(d.activity.get(self.day, 0), 'turn')}", style="bold")
        out.append(Option(chart, id="day:"))
        return out

    def _store(self, d: OverviewData) -> list[Option | None]:
        out: list[Option | None] = [None, self._head("Store by category", "active / archived / expired")]
        if not d.store_exists:
            out.append(
                Option(
                    Text(f"No store at {home_relative(self.ctx.memory_root)} yet: press i to create it.", style="dim"),
                    id="go:init",
                )
            )
            return out
        if not d.categories:
            out.append(
                Option(Text("The store is empty: press a in the Index to add an entry.", style="dim"), id="go:index")
            )
            return out
        top = max(c.total for c in d.categories)
        colours = {"active": tone(self, "success"), "archived": tone(self, "warning"), "expired": tone(self, "error")}
        for c in d.categories:
            row = Table.grid(padding=(0, 1))
            row.add_column(width=18, no_wrap=True, overflow="ellipsis")
            row.add_column(width=6, justify="right")
            row.add_column(width=24, no_wrap=True)
            row.add_column(no_wrap=True, overflow="ellipsis")
            parts = [(c.by_status.get(s, 0), colours[s]) for s in ("active", "archived", "expired")]
            counts = " ".join(f"{n} {s}" for s, n in sorted(c.by_status.items()) if n and s != "active")
            row.add_row(
                untrusted(c.category, keep_newlines=False),
                str(c.total),
                stacked_bar(parts, top, 24),
                Text(counts, style="dim"),
            )
            out.append(Option(row, id=f"cat:{c.category}"))
        return out

    def _lifecycle(self, d: OverviewData) -> list[Option | None]:
        out: list[Option | None] = [
            None,
            self._head(f"Lifecycle · next {FORECAST_DAYS} days", "Enter: the plan, or the first to go"),
        ]
        f = d.forecast
        if d.pending and f is None:
            out.append(Option(Text("counting from the catalog…", style="dim"), disabled=True))
            return out
        if f is None:
            out.append(Option(Text("Nothing to forecast without a store.", style="dim"), disabled=True))
            return out
        words = {"archive": "archived", "expire": "expired", "trash": "trashed", "purge": "purged for good"}
        styles = {"archive": "warning", "expire": "warning", "trash": "error", "purge": "error"}
        any_due = False
        for action, word in words.items():
            now, later = f.counts.get(action, (0, 0))
            if not later:
                continue
            any_due = True
            line = Text(f"{later:>4} ", style=tone(self, styles[action], "bold"))
            line.append(f"will be {word}")
            if now:
                line.append(f" ({now} due now)", style=tone(self, styles[action]))
            first = f.first.get(action)
            if first is not None:
                entry_id, on = first
                line.append(f" · {'since' if on <= f.today else 'first'} {on}: ", style="dim")
                shown = trash_name(entry_id) if action == "purge" else entry_id  # a purge lists trash keys
                line.append_text(untrusted(shown, "dim", keep_newlines=False))
            out.append(Option(line, id=f"plan:{action}"))
        if not any_due:
            out.append(
                Option(Text("Nothing is archived, trashed or purged in the next 30 days.", style="dim"), id="go:trash")
            )
        return out

    def _conflicts(self, d: OverviewData) -> list[Option | None]:
        if d.pending:
            return [None, self._head("Open conflicts · …"), Option(Text("reading…", style="dim"), disabled=True)]
        out: list[Option | None] = [
            None,
            self._head(f"Open conflicts · {len(d.conflicts)}", "Enter: the entry in Versions"),
        ]
        if not d.conflicts:
            out.append(Option(Text("No open conflicts.", style="dim"), id="go:versions"))
        for c in d.conflicts[:LIST_LIMIT]:
            line = Text("⚠ ", style=tone(self, "warning"))
            line.append_text(untrusted(c.title, keep_newlines=False))
            line.append(f"  v{c.version} · since {c.detected or '?'}", style="dim")
            out.append(Option(line, id=f"conflict:{c.id}"))
        if len(d.conflicts) > LIST_LIMIT:
            out.append(Option(Text(f"… {len(d.conflicts) - LIST_LIMIT} more", style="dim"), id="go:versions"))
        return out

    def _sync(self, d: OverviewData) -> list[Option | None]:
        """Sync across machines (``memsearch-tui sync``) and file-sync tools' day copies."""
        s = d.sync
        out: list[Option | None] = [None, self._head("Sync", "memsearch-tui sync · journal conflicts --merge")]
        if s is None or not s.initialised:
            out.append(Option(Text("Not synced across machines (memsearch-tui sync init --remote URL).", style="dim")))
        else:
            line = Text(f"{s.device}: last sync {short_time(s.last_sync, 'never') if s.last_sync else 'never'}")
            line.append(f" · {s.ahead} ahead · {s.behind} behind · {s.uncommitted} uncommitted", style="dim")
            out.append(Option(line))
            if s.interrupted:
                out.append(
                    Option(
                        Text("⚠ the last sync was interrupted: the next sync finishes it", style=tone(self, "warning"))
                    )
                )
        if d.copies:
            days = sorted({c.day for c in d.copies})
            line = Text("⚠ ", style=tone(self, "warning"))
            line.append(f"{plural(len(d.copies), 'conflicted copy', 'conflicted copies')} of {', '.join(days[:3])}")
            line.append("  journal conflicts --merge, then review in Maintenance", style="dim")
            out.append(Option(line, id="go:maintenance"))
        return out

    def _proposals(self, d: OverviewData) -> list[Option | None]:
        n = len(d.proposals) + len(d.store_proposals)
        flagged = sum(1 for p in d.proposals if p.tampered)  # counted, but never applied as they are
        title = f"Pending proposals · {n}" + (f" · {flagged} flagged, never applied" if flagged else "")
        out: list[Option | None] = [None, self._head(title, "Enter: the proposal in Maintenance")]
        if not n:
            out.append(Option(Text("Nothing waits for review.", style="dim"), id="go:maintenance"))
        for p in d.proposals[:LIST_LIMIT]:
            line = Text(style="bold")
            line.append_text(self._flag(p))  # a rewrite that may not be applied, marked as Maintenance marks it
            line.append_text(untrusted(proposal_name(p), keep_newlines=False))  # a name from a file
            line.append_text(
                untrusted(
                    f"  {task_name(p.author, p.task)} · {short_time(p.created, 'never')}  ", "dim", keep_newlines=False
                )
            )
            line.append_text(untrusted(redact_clip(p.reason, 120), keep_newlines=False))
            out.append(Option(line, id=f"prop:p:{p.id}"))
        for sp in d.store_proposals[:LIST_LIMIT]:
            line = untrusted(f"store {sp.kind or '?'}", "bold", keep_newlines=False)
            line.append(f"  {len(sp.changes)} moves  ", style="dim")
            line.append_text(untrusted(redact_clip(sp.summary, 120), keep_newlines=False))
            out.append(Option(line, id=f"prop:s:{sp.id}"))
        return out

    def _flag(self, p: Proposal) -> Text:
        """``[TAMPERED] `` or ``[NOT CHECKED] `` before a rewrite that may not be applied (the
        flag ``proposals list`` and the Maintenance pane show); nothing for one that may."""
        if not p.tampered:
            return Text()
        flag, _why = proposal_flag(p)
        return Text(f"[{flag}] ", style=tone(self, "error" if flag == "TAMPERED" else "warning", "bold"))

    def _hygiene(self, d: OverviewData) -> list[Option | None]:
        """Findings by kind from the last weekly pass (counts only: the scan itself runs on
        request, in the findings screen)."""
        h = d.hygiene
        key = key_of(self.app.keymap, "app.hygiene")
        when = f" · last pass {short_time(h.time, 'never')}" if h else ""
        out: list[Option | None] = [None, self._head(f"Hygiene{when}", f"Enter or {key}: the findings")]
        if h is None:
            text = "No hygiene pass yet: Enter scans every memory (hygiene_every_days in config.md: weekly)."
            out.append(Option(Text(text, style="dim"), id="hygiene:"))
        elif h.result != "done":
            out.append(
                Option(
                    untrusted(f"⚠ the last pass failed: {h.reason}", tone(self, "warning"), keep_newlines=False),
                    id="hygiene:",
                )
            )
        else:
            line = Text()
            for n, (kind, count) in enumerate(h.counts):
                line.append(" · " if n else "", style="dim")
                line.append(f"{count} {kind}", style=tone(self, "warning", "bold") if count else "dim")
            if h.proposals:
                line.append(f"  {plural(h.proposals, 'proposal')} filed", style="dim")
            out.append(Option(line, id="hygiene:"))
        return out

    def _hooks(self, d: OverviewData) -> list[Option | None]:
        out: list[Option | None] = [None, self._head("Last hook runs", "Enter: the task in Maintenance")]
        for r in d.tasks:
            line = Text(task_name(r.platform, r.task).ljust(30))
            if not r.enabled:
                line.append("disabled", style="dim")
                line.append(f" (would use {r.provider or 'native'})", style="dim")
            else:
                line.append(f"checked {short_time(r.last_checked_at, 'never')}", style="dim")
                if r.last_action == "error":
                    line.append(f"  failed {short_time(r.last_failed_at, 'never')}", style=tone(self, "error", "bold"))
                elif r.last_action:
                    line.append(f"  {r.last_action}", style=tone(self, "success"))
                if r.due:
                    line.append("  due", style=tone(self, "warning", "bold"))
            out.append(Option(line, id=f"task:{r.platform}.{r.task}"))
        for task in ("lifecycle", "split"):
            line = Text(f"Store · {task}".ljust(30))
            line.append(f"checked {short_time(d.upkeep.get(task, ''), 'never')}", style="dim")
            out.append(Option(line, id=f"store:{task}"))
        return out

    # -- actions --------------------------------------------------------------------
    @guard
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "overview-list" or not event.option.id:
            return
        self.go(event.option.id)

    def go(self, target: str) -> None:
        """Open the pane an overview line is about, at the thing it is about."""
        kind, _, arg = target.rpartition("#")[0].partition(":") if "#" in target else target.partition(":")
        app: Any = self.app
        if kind == "go" and arg == "init":
            app.offer_init()
        elif kind == "go":
            app.action_switch_pane(arg)
        elif kind == "day":
            self.open_day()
        elif kind == "cat":
            app.action_switch_pane("index")
            app.pane("index").select_category("" if arg == "(root)" else arg)
        elif kind == "plan":
            self._open_due(arg)
        elif kind == "conflict":
            versions = app.pane("versions")
            if versions.loaded:
                versions.open_entry(arg)
            else:
                versions.entry_id = arg  # selected when its first load lands
            app.action_switch_pane("versions")
        elif kind == "prop":
            app.action_switch_pane("maintenance")
            app.with_pane("maintenance", lambda pane: pane.open_proposal(arg))
        elif kind == "task":
            app.action_switch_pane("maintenance")
            app.with_pane("maintenance", lambda pane: pane.open_task(arg))
        elif kind == "store":
            self._open_store_task(arg)
        elif kind == "hygiene":
            app.action_hygiene()

    def open_day(self) -> None:
        """The chart's selected day, in the Journal (the day selected and opened)."""
        path = self.data.day_files.get(self.day) if self.day is not None else None
        app: Any = self.app
        if path is None:
            app.action_switch_pane("journal")
            return
        app.open_journal(path, 0)

    def _open_due(self, action: str) -> None:
        """A lifecycle line: the Trash's plan at its first ``action`` move when some are due
        now; otherwise the first one to go (a purge: that trashed item; else: the entry)."""
        app: Any = self.app
        f = self.data.forecast
        now = f.counts.get(action, (0, 0))[0] if f else 0
        first = f.first.get(action) if f else None
        if now or not first:
            app.action_switch_pane("trash")
            app.with_pane("trash", lambda pane: pane.plan_for(action))
            return
        ref, on = first
        word = {"archive": "archived", "expire": "expired", "trash": "trashed", "purge": "purged"}.get(action, action)
        app.notify(f"nothing is {word} today; the first one goes on {on}", title=self.label)
        if action == "purge":
            app.action_switch_pane("trash")
            app.with_pane("trash", lambda pane: pane.select_item(ref))
        else:
            app.open_entry(ref)

    def _open_store_task(self, task: str) -> None:
        """A store check: its pending proposal in Maintenance if one waits; else lifecycle →
        the Trash's plan; a split check with nothing waiting says so here (Maintenance
        would only show an unrelated proposal)."""
        app: Any = self.app
        waiting = next((sp for sp in self.data.store_proposals if sp.kind == task), None)
        if waiting is not None:
            app.action_switch_pane("maintenance")
            app.with_pane("maintenance", lambda pane: pane.open_proposal(f"s:{waiting.id}"))
        elif task == "lifecycle":
            app.action_switch_pane("trash")
            app.with_pane("trash", lambda pane: pane.plan_for(""))
        else:
            app.notify(
                "no split proposal waits: no category is over the split threshold "
                "(`memsearch-tui split plan CATEGORY` shows what a split would do)",
                title="Overview",
            )

    @guard
    def action_day(self, step: int) -> None:
        """←/→: the previous / next day with journal turns; the chart line gets the cursor."""
        self.day = step_day(self._active_days(), self.day, step)
        self._draw()
        lst = self.query_one("#overview-list", OptionList)
        chart = next(
            (i for i in range(lst.option_count) if (lst.get_option_at_index(i).id or "").startswith("day:")), None
        )
        if chart is not None:
            lst.focus()
            lst.highlighted = chart

    def action_cursor(self, where: str) -> None:
        lst = self.query_one("#overview-list", OptionList)
        lst.focus()
        lst.action_cursor_down() if where == "down" else lst.action_cursor_up()

    @guard
    def action_open_line(self) -> None:
        lst = self.query_one("#overview-list", OptionList)
        if lst.highlighted is not None:
            opt = lst.get_option_at_index(lst.highlighted)
            if opt.id:
                self.go(opt.id)
