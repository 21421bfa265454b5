"""Versions pane: entries with several versions or an open conflict; diff any two versions.

Left: the entries (open conflicts first). Middle: that entry's versions; the highlighted
one is compared with the pinned one (space pins; default: the version before it). Right:
the diff, side by side when the terminal is wide enough, unified otherwise (s toggles).
R restores the highlighted version (as a new version), c confirms an open conflict; both
pass the entry's bytes as the pane drew them (``expected``), so a change made since is
refused instead of buried under the restored text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from memsearch_tui.engine.api.errors import MemsearchError
from memsearch_tui.engine.api.types import Version, VersionedEntry
from memsearch_tui.tui.actions import bindings, hint
from memsearch_tui.tui.diffview import DiffView
from memsearch_tui.tui.empty_states import no_versions
from memsearch_tui.tui.modals import ConfirmModal
from memsearch_tui.tui.palette import PALETTE
from memsearch_tui.tui.panes.base import Context, Outcome, Pane, guard, plural
from memsearch_tui.tui.text import Squeezed, home_relative, untrusted


@dataclass
class VersionsData:
    rows: list[VersionedEntry] = field(default_factory=list)
    missing: str = ""


class VersionsPane(Pane):
    pane_id = "versions"
    main_widget = "#versioned"
    BINDINGS = bindings("versions")

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.data = VersionsData()
        self.entry_id: str | None = None
        self.versions: list[Version] = []
        self.pinned: int | None = None
        self.shown: int | None = None
        self.seen: bytes | None = None  # the entry file as the list and diff were drawn from it

    def compose(self) -> ComposeResult:
        with Horizontal(classes="columns"):
            with Vertical(classes="left-narrow"):
                yield Label("Entries", classes="section")
                yield OptionList(id="versioned")
                yield Label(f"Versions ({hint(self.app.keymap, 'versions.pick')})", classes="section")
                yield OptionList(id="version-list")
                yield Label("", id="versions-status", classes="status")
            with Vertical(classes="right"):
                yield Static(id="versions-head", classes="meta")
                with VerticalScroll(id="versions-diff-scroll"):
                    yield DiffView(id="versions-diff")

    def _load_then_apply(self) -> None:
        """The first load draws twice: the list as the catalog last saved its conflict marks
        (at once), then re-checked against every file (seconds at 100k entries)."""
        if self._data is None and self.ctx.store_exists():
            quick = VersionsData(rows=list(self.ctx.mem.versions.versioned(fresh=False)))
            if not self.apply_from_thread(quick):
                return  # the app is exiting: no re-check of every file for nothing
        super()._load_then_apply()

    def load(self) -> VersionsData:
        if not self.ctx.store_exists():
            return VersionsData(missing=f"no memory store at {home_relative(self.ctx.memory_root)}")
        return VersionsData(rows=list(self.ctx.mem.versions.versioned()))

    def apply(self, data: VersionsData) -> None:
        self.data = data
        lst = self.query_one("#versioned", OptionList)
        lst.clear_options()
        status = self.query_one("#versions-status", Label)
        if data.missing:
            status.update(Text(data.missing, style=PALETTE.warning))
            return
        for r in data.rows:
            label = untrusted(r.title, "bold", keep_newlines=False)
            label.append(f"  v{r.version}", style=PALETTE.accent)
            if r.conflict:
                label.append("  ⚠ conflict", style=f"bold {PALETTE.warning}")
            lst.add_option(Option(Group(label, Squeezed(r.id, "dim")), id=r.id))
        status.update(
            Text(
                f"{plural(len(data.rows), 'entry', 'entries')} with versions · "
                f"{plural(sum(r.conflict for r in data.rows), 'open conflict')}",
                style="dim",
            )
        )
        if not data.rows:
            self.query_one("#versions-head", Static).update(no_versions(self.app.keymap))
            self.query_one("#version-list", OptionList).clear_options()
            self.query_one("#versions-diff", DiffView).show_note("")
            return
        ids = [r.id for r in data.rows]
        index = ids.index(self.entry_id) if self.entry_id in ids else 0
        lst.highlighted = index
        self._open(ids[index], keep=self.shown)

    def open_entry(self, entry_id: str) -> None:
        ids = [r.id for r in self.data.rows]
        if entry_id in ids:
            self.query_one("#versioned", OptionList).highlighted = ids.index(entry_id)

    @guard
    def _open(self, entry_id: str, keep: int | None = None) -> None:
        if entry_id != self.entry_id:
            self.pinned, keep = None, None
        self.entry_id = entry_id
        self.seen = None
        # read first: a change landing while the pane draws makes a later write refuse, never pass
        _, self.seen = self.ctx.mem.entries.seen(entry_id)
        self.versions = list(self.ctx.mem.versions.list(entry_id))
        vl = self.query_one("#version-list", OptionList)
        vl.clear_options()
        for v in reversed(self.versions):
            label = Text(f"v{v.version}", style="bold")
            label.append(f"  {v.date}", style="dim")
            if v.current:
                label.append("  current", style=PALETTE.success)
            if not v.kept:
                label.append("  (not kept)", style=PALETTE.error)
            label.append("\n")
            label.append_text(untrusted(v.summary, keep_newlines=False))  # from the file's history lines
            vl.add_option(Option(label, id=str(v.version)))
        nums = [v.version for v in reversed(self.versions)]
        target = keep if keep in nums else nums[0]
        vl.highlighted = nums.index(target)
        self._diff(target)

    def _diff(self, b: int) -> None:
        versions = self.ctx.mem.versions
        assert self.entry_id is not None
        self.shown = b
        earlier = [v.version for v in self.versions if v.version < b]  # a number with no file is not listed
        a = self.pinned if self.pinned is not None and self.pinned != b else max(earlier, default=0)
        row = next((r for r in self.data.rows if r.id == self.entry_id), None)
        title = untrusted(row.title if row else self.entry_id, "bold", keep_newlines=False)
        head = Text()
        if row and row.conflict:
            head.append(
                "⚠ open conflict: the latest change contradicted the one before (both kept); "
                f"{self.key('versions.confirm')} confirms it, {self.key('versions.restore')} restores another.\n",
                style=PALETTE.warning,
            )
        diff = self.query_one("#versions-diff", DiffView)
        diff.switch_key = self.key("versions.layout")
        if a < 1:
            head.append(f"v{b} is the first version (space on another version pins it as the base)", style="dim")
            self._head(title, head)
            try:
                diff.show("", versions.text(self.entry_id, b).text, left="(nothing)", right=f"v{b}")
            except MemsearchError as exc:
                diff.show_note(str(exc))
            return
        head.append(f"comparing v{a} → v{b}" + ("  (pinned base)" if self.pinned == a else ""), style=PALETTE.accent)
        self._head(title, head)
        try:
            va, vb = versions.text(self.entry_id, a), versions.text(self.entry_id, b)
        except MemsearchError as exc:  # said once, in place of the diff: no toast per cursor move
            diff.show_note(str(exc))
            return
        diff.show(
            f"# {va.title}\n\n{va.text}",
            f"# {vb.title}\n\n{vb.text}",
            left=f"{self.entry_id}@v{a}",
            right=f"{self.entry_id}@v{b}",
        )

    def _head(self, title: Text, rest: Text) -> None:
        assert self.entry_id is not None
        self.query_one("#versions-head", Static).update(Group(title, Squeezed(self.entry_id, "dim"), rest))

    @guard
    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if not event.option.id:
            return
        if event.option_list.id == "versioned":
            if event.option.id != self.entry_id:
                self._open(event.option.id)
        elif event.option_list.id == "version-list" and self.entry_id:
            self._diff(int(event.option.id))

    # -- actions --------------------------------------------------------------------
    def action_toggle_layout(self) -> None:
        mode = self.query_one("#versions-diff", DiffView).toggle_mode()
        self.app.notify(f"diff layout: {mode}")

    @guard
    def action_pick_version(self) -> None:
        if self.shown is None:
            return
        self.pinned = None if self.pinned == self.shown else self.shown
        self.app.notify(f"base: v{self.pinned}" if self.pinned else "base: the previous version")
        self._diff(self.shown)

    @guard
    def action_restore_version(self) -> None:
        if not self.entry_id or self.shown is None:
            self.app.notify("select a version first", severity="warning")
            return
        entry_id, n, expected = self.entry_id, self.shown, self.seen
        current = next((v.version for v in self.versions if v.current), None)
        if n == current:
            self.app.notify(f"v{n} is already current", severity="information")
            return

        def restore() -> Outcome:
            out = self.ctx.mem.versions.restore(entry_id, n, expected=expected)
            return Outcome(out.message)

        def done(ok: bool | None) -> None:
            if ok:
                self.shown = None
                self.run_write("restore", restore)

        self.app.push_screen(
            ConfirmModal(
                "Restore version",
                f"Make v{n} of {entry_id} current again?\nIt becomes a new version; v{current} is kept. ({self.undoes})",
                confirm="Restore",
                danger=False,
            ),
            done,
        )

    @guard
    def action_confirm_conflict(self) -> None:
        row = next((r for r in self.data.rows if r.id == self.entry_id), None)
        if row is None or not row.conflict:
            self.app.notify("this entry has no open conflict", severity="information")
            return
        entry_id = row.id
        expected = self.seen if entry_id == self.entry_id else None

        def confirm() -> Outcome:
            out = self.ctx.mem.versions.confirm(entry_id, expected=expected)
            return Outcome(f"conflict settled: v{out.version} of {entry_id} stands ({self.undoes})")

        self.run_write("confirm", confirm)
