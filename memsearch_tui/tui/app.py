"""The Textual app: six panes in tabs, one action registry, themes, live refresh, undo.

The app is a thin shell over the engine (harlequin's model): panes ask the engine in
worker threads and render the answers; every write goes through an engine call that is
logged, so ``u`` can undo it. Errors from the engine become notifications; anything
unexpected is shown in a modal instead of ending the app.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Iterable
from pathlib import Path

from textual.app import App, ComposeResult, SystemCommand
from textual.command import Hit, Hits, Provider
from textual.screen import Screen
from textual.widgets import Footer, Header, TabbedContent, TabPane
from textual.worker import Worker, WorkerState

from memsearch_tui.engine.core.errors import MemsearchError
from memsearch_tui.tui.actions import APP, BY_ID, PANE_TITLES, PANES, REGISTRY, bindings, clean_keymap
from memsearch_tui.tui.modals import ErrorModal, HelpScreen
from memsearch_tui.tui.panes.base import Context, Pane
from memsearch_tui.tui.panes.index_pane import IndexPane
from memsearch_tui.tui.panes.journal_pane import JournalPane
from memsearch_tui.tui.panes.maintenance_pane import MaintenancePane
from memsearch_tui.tui.panes.notes_pane import NotesPane
from memsearch_tui.tui.panes.overview_pane import OverviewPane
from memsearch_tui.tui.panes.search_pane import SearchPane
from memsearch_tui.tui.panes.trash_pane import TrashPane
from memsearch_tui.tui.panes.versions_pane import VersionsPane
from memsearch_tui.tui.safe_text import home_relative, tone
from memsearch_tui.tui.screens.first_run import FirstRunScreen
from memsearch_tui.tui.themes import DEFAULT_THEME, load_state, load_themes, save_state
from memsearch_tui.tui.watch import FilesChanged, watch

BADGE_DELAY = 1.0  # seconds after start: conflict badges wait for the Index's first frame
REFRESH_DELAY = 0.25  # seconds: a burst of file events (an agent writing many files) refreshes once

PANE_CLASSES: dict[str, type[Pane]] = {
    "index": IndexPane,
    "journal": JournalPane,
    "versions": VersionsPane,
    "trash": TrashPane,
    "maintenance": MaintenancePane,
    "search": SearchPane,
    "notes": NotesPane,
    "overview": OverviewPane,
}


class SearchProvider(Provider):
    """Command palette: 'Search memory for …' with whatever was typed."""

    async def search(self, query: str) -> Hits:
        q = query.strip()
        if not q:
            return
        app = self.app
        assert isinstance(app, MemsearchApp)
        yield Hit(
            1.0,
            self.matcher(q).highlight(f"Search memory for “{q}”"),
            lambda: app.search_for(q),
            help="runs a search in the Search pane",
        )


class MemsearchApp(App[None]):
    """memsearch-tui: see, search and curate what your agents remember."""

    CSS_PATH = "app.tcss"
    TITLE = "memsearch-tui"
    BINDINGS = bindings(APP)
    COMMANDS = App.COMMANDS | {SearchProvider}

    def __init__(
        self, memory_root: Path, project: Path, *, watch_files: bool = True, remember_theme: bool = True
    ) -> None:
        super().__init__()
        self.ctx = Context(memory_root, project)
        self.watch_files = watch_files
        self.remember_theme = remember_theme
        self.errors: list[BaseException] = []
        self.keymap: dict[str, str] = {}
        self.watch_stop = asyncio.Event()
        self.startup_notes: list[tuple[str, str]] = []
        self._changed: set[Path] = set()
        self._setup_themes()

    # -- set-up ---------------------------------------------------------------------
    def _setup_themes(self) -> None:
        themes, problems = load_themes()
        for t in themes:
            self.register_theme(t)
        for p in problems:
            self.startup_notes.append((f"theme skipped: {p}", "warning"))
        wanted = load_state().get("theme") if self.remember_theme else None
        names = set(self.available_themes)
        self.theme = wanted if wanted in names else DEFAULT_THEME if DEFAULT_THEME in names else "textual-dark"

    def _theme_changed(self, theme) -> None:
        if self.remember_theme:
            save_state(theme=theme.name)

    def _setup_keymap(self) -> None:
        try:
            raw = self.ctx.config().tui.get("keymap", {})
        except MemsearchError as exc:
            self.startup_notes.append((f"config: {exc}", "error"))
            return
        keymap, problems = clean_keymap(raw)
        for p in problems:
            self.startup_notes.append((p, "warning"))
        if keymap:
            self.keymap = keymap
            self.set_keymap(keymap)

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with TabbedContent(id="tabs"):
            for n, (pid, title) in enumerate(PANES, 1):
                with TabPane(f"{n} {title}", id=pid):
                    yield PANE_CLASSES[pid](self.ctx)
            with TabPane("0 Overview", id="overview"):
                yield OverviewPane(self.ctx)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{home_relative(self.ctx.memory_root)}  ·  {home_relative(self.ctx.project)}"
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self._setup_keymap()
        for text, severity in self.startup_notes:
            self.notify(text, severity=severity, timeout=10)  # type: ignore[arg-type]
        self.pane("index").activate()
        if not self.ctx.store.exists():
            self.call_after_refresh(self.offer_init)
        from memsearch_tui.tui import badges

        badges.invalidate()  # another app in this process (tests) may have read an older state
        self.set_timer(BADGE_DELAY, self.load_badges)
        if self.watch_files:
            folders = [self.ctx.memory_root, self.ctx.msdir]
            self.run_worker(
                watch(self, folders), exclusive=True, group="watch", exit_on_error=False, name="watch files"
            )

    async def on_unmount(self) -> None:
        self.watch_stop.set()

    # -- panes ----------------------------------------------------------------------
    def pane(self, pid: str) -> Pane:
        return self.query_one(f"#pane-{pid}", Pane)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        pid = event.pane.id or ""
        if pid in PANE_CLASSES:
            pane = self.pane(pid)
            focused = self.focused
            if focused is None or pane not in focused.ancestors:
                pane.focus_main()
            pane.activate()

    def action_switch_pane(self, pid: str) -> None:
        tabs = self.query_one("#tabs", TabbedContent)
        if tabs.active != pid:
            tabs.active = pid
            # Move focus into the new pane at once: otherwise Textual hands focus from the
            # hidden pane's widget to a sibling there, and TabbedContent switches back.
            self.pane(pid).focus_main()
        self.pane(pid).activate()

    def load_badges(self) -> None:
        """Open conflicts → ⚠ badges on Index entries (a worker: reads every entry's frontmatter)."""
        self.run_worker(
            self._load_badges, thread=True, exclusive=True, group="badges", exit_on_error=False, name="badges"
        )

    def _load_badges(self) -> None:
        from memsearch_tui.tui import badges

        if not self.ctx.store.exists():
            return
        ids = {c["id"] for c in badges.conflicts_for(self.ctx.store)}
        if badges.set_conflicts(ids, tone(self, "warning", "bold")):
            self.call_from_thread(lambda: badges.relabel(self.query_one("#index-tree")))

    def refresh_panes(self, paths: set[Path] | None = None) -> None:
        """Reload every loaded pane (each keeps its selection and scroll)."""
        from memsearch_tui.tui import badges

        badges.invalidate()
        self.load_badges()
        for pid in PANE_CLASSES:
            pane = self.pane(pid)
            if paths is None:
                if pane.loaded:
                    pane.reload()
            else:
                pane.files_changed(paths)

    def on_files_changed(self, message: FilesChanged) -> None:
        """Coalesce: every change within ``REFRESH_DELAY`` of the first one refreshes once."""
        first = not self._changed
        self._changed |= message.paths
        if first:
            self.set_timer(REFRESH_DELAY, self._flush_changes)

    def _flush_changes(self) -> None:
        paths, self._changed = self._changed, set()
        if paths:
            self.refresh_panes(paths)

    def open_entry(self, entry_id: str) -> None:
        self.action_switch_pane("index")
        pane = self.pane("index")
        assert isinstance(pane, IndexPane)
        if pane.model.summaries:
            pane.select_entry(entry_id)
        else:
            pane.current = entry_id  # selected when the first load lands

    def open_journal(self, path: Path, line: int) -> None:
        pane = self.pane("journal")
        assert isinstance(pane, JournalPane)
        if pane.loaded:
            pane.open_at(path, line)
        else:
            pane.pending_open = (path, line)
        self.action_switch_pane("journal")

    def offer_init(self) -> None:
        """The first-run screen: what the two memories are, and ``init`` at the root in use."""
        if self.ctx.store.exists() or isinstance(self.screen, FirstRunScreen):
            return
        from memsearch_tui.engine.memsearch.journal import journal_files

        def done(create: bool | None) -> None:
            if create:
                self.init_store()

        journals = len(journal_files(self.ctx.msdir / "memory"))
        self.push_screen(FirstRunScreen(self.ctx.memory_root, self.ctx.project, journals), done)

    def action_import_notes(self) -> None:
        if not self.ctx.store.exists():
            self.offer_init()
            return
        from memsearch_tui.tui.screens.import_screen import ImportScreen

        self.push_screen(ImportScreen(self.ctx.store))

    def action_offer_init(self) -> None:
        if self.ctx.store.exists():
            self.notify(f"the store at {home_relative(self.ctx.memory_root)} exists already", title="init")
        self.offer_init()

    def init_store(self) -> None:
        try:
            self.ctx.store.init()
        except MemsearchError as exc:
            self.report(exc)
            return
        self.notify(f"created the store at {home_relative(self.ctx.memory_root)}", title="init")
        self.refresh_panes()

    def search_for(self, query: str) -> None:
        self.action_switch_pane("search")
        pane = self.pane("search")
        assert isinstance(pane, SearchPane)
        pane.focus_query(query)

    # -- actions --------------------------------------------------------------------
    def action_focus_search(self) -> None:
        self.action_switch_pane("search")
        pane = self.pane("search")
        assert isinstance(pane, SearchPane)
        pane.focus_query()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.keymap))

    def action_reload(self) -> None:
        self.refresh_panes()
        self.notify("reloaded")

    def action_cycle_theme(self) -> None:
        names = sorted(self.available_themes)
        mine = [n for n in names if n.startswith("memsearch")] + [n for n in names if not n.startswith("memsearch")]
        self.theme = mine[(mine.index(self.theme) + 1) % len(mine)] if self.theme in mine else mine[0]
        self.notify(f"theme: {self.theme}")

    def action_undo(self) -> None:
        self.run_worker(self._undo, thread=True, exclusive=True, group="undo", exit_on_error=False, name="undo")

    def _undo(self) -> None:
        from memsearch_tui.engine.history import undo

        try:
            rec = undo.undo_last(self.ctx.memory_root)
        except MemsearchError as exc:
            self.call_from_thread(self.notify, str(exc), title="Undo", severity="warning", timeout=8)
            return
        self.call_from_thread(self.notify, f"undone: {rec.summary}", title="Undo")
        self.call_from_thread(self.refresh_panes)

    # -- command palette ------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for spec in REGISTRY:
            if not spec.palette or spec.scope == APP and spec.id in ("app.quit",):
                continue
            where = "" if spec.scope == APP else f"{PANE_TITLES[spec.scope]}: "
            keys = self.keymap.get(spec.id, spec.keys)
            yield SystemCommand(
                f"{where}{spec.description}", f"{spec.id} · keys {keys}", lambda s=spec: self.run_spec(s.id)
            )

    def run_spec(self, spec_id: str) -> None:
        """Run a registry action from the palette: switch to its pane first if needed."""
        spec = BY_ID[spec_id]
        if spec.scope == APP:
            self.call_later(self.run_action, spec.action)
            return
        self.action_switch_pane(spec.scope)
        self.call_later(self.run_action, spec.action, self.pane(spec.scope))

    # -- errors ---------------------------------------------------------------------
    def report(self, exc: BaseException) -> None:
        """Engine errors → a notification; anything else → the error modal (never a crash)."""
        if isinstance(exc, MemsearchError):
            self.notify(str(exc), title=type(exc).__name__, severity="error", timeout=10)
            return
        self.errors.append(exc)
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.push_screen(ErrorModal(f"Unexpected error: {type(exc).__name__}: {exc}", detail))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.report(event.worker.error)


def run_app(memory_root: Path, project: Path) -> None:
    """Entry point used by ``memsearch-tui`` with no subcommand."""
    MemsearchApp(memory_root, project).run()
