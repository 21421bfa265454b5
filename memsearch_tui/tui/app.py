"""The Textual app: the panes of ``actions.PANES`` in tabs, one action registry, themes,
live refresh, undo.

The app is a thin shell over the engine (harlequin's model): panes ask the engine in
worker threads and render the answers; every write goes through an engine call that is
logged, so the undo history (``u``) can revert it. Errors from the engine become
notifications; anything unexpected is shown in a modal instead of ending the app.

Keyboard model (docs/tui.md): digits switch panes whenever no input box has focus; Escape
leaves any input box (the first press clears it); ``j k g G PgUp PgDn`` move in every list,
table and tree; no default binding sits on a terminal multiplexer's prefix.
"""

from __future__ import annotations

import asyncio
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from itertools import chain
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App, ComposeResult, ScreenError, SystemCommand
from textual.command import Hit, Hits, Provider
from textual.css.query import NoMatches
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme
from textual.widget import AwaitMount, Widget
from textual.widgets import ContentSwitcher, Header, TabbedContent, TabPane
from textual.worker import Worker, WorkerState

from memsearch_tui.engine.api.errors import MemsearchError, describe
from memsearch_tui.engine.api.types import HistoryItem
from memsearch_tui.tui import start_gc
from memsearch_tui.tui.actions import (
    APP,
    BY_ID,
    PANE_SPECS,
    PANE_TITLES,
    PANES,
    REGISTRY,
    bindings,
    clean_keymap,
    keys_for,
    pretty_keys,
)
from memsearch_tui.tui.badges import Badges
from memsearch_tui.tui.closing import quitting
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.palette import PALETTE
from memsearch_tui.tui.panes.base import Context, Outcome, Pane
from memsearch_tui.tui.screens.command_palette import ClearingPalette
from memsearch_tui.tui.screens.modal import MainScreen, Modal
from memsearch_tui.tui.text import home_relative, middle, safe, tone
from memsearch_tui.tui.textual_private import mark_styles_current
from memsearch_tui.tui.theme_switch import (
    RuleCache,
    hidden_panes,
    one_refresh_per_widget,
    shown_nodes,
    theme_variables,
)
from memsearch_tui.tui.themes import DEFAULT_THEME, load_state, load_themes, save_state
from memsearch_tui.tui.watch import FilesChanged, watch
from memsearch_tui.tui.widgets.keys import KeyFooter, move
from memsearch_tui.tui.writes import WriteFailed

BADGE_DELAY = 1.0  # seconds after start: conflict badges wait for the Index's first frame
HEADER_CHROME = 22  # the header's icon, " — ", the space kept for a clock and margins
INDEX_AHEAD_GAP = 0.05  # seconds between two looks for the app's first idle moment: then the index is built
INDEX_AHEAD_DELAY = 2.0  # seconds after the first frame: the index is built then even if a pane still loads
PANES_AHEAD_DELAY = 2.0  # seconds after start: the panes not shown yet are made while idle, one per step
PANES_AHEAD_GAP = 0.05  # seconds between two panes made ahead: a key typed meanwhile is served first
PANES_AHEAD_QUIET = 0.5  # seconds after a key or a click before the next pane is made ahead
#: workers that run in the background, not for a key: the panes made ahead do not wait for them
AHEAD_IGNORES = frozenset({"watch", "badges", "search-build", "search-release"})
SETTLE_RECHECK = 0.25  # seconds between looks for an idle app: the chain's full collection waits for it
SETTLE_LOOKS = 2  # looks in a row that find no worker running: the app is idle
SETTLE_IGNORES = frozenset({"watch"})  # the file watcher runs for good: the app is idle beside it
PARSE_AHEAD_DELAY = 2.0  # seconds after start: the next theme's stylesheet is parsed while idle
REFRESH_DELAY = 0.25  # seconds: a burst of file events (an agent writing many files) refreshes once


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
    #: the screen's width and height classes (app.tcss): an 80×24 terminal gives the diffs
    #: and lists the rows that section gaps and wide columns would take
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]
    TITLE = "memsearch-tui"
    BINDINGS = bindings(APP)
    COMMANDS = App.COMMANDS | {SearchProvider}

    def __init__(
        self,
        memory_root: Path,
        project: Path,
        *,
        watch_files: bool = True,
        remember_theme: bool = True,
        prepare_index: bool = True,
        panes_ahead: bool = True,
    ) -> None:
        start_gc.hold()  # young objects collected less often until the first frame (a second app too)
        super().__init__()
        self.ctx = Context(memory_root, project)
        self.watch_files = watch_files
        self.prepare_index = prepare_index  # build the search index in the background after the first frames
        self.remember_theme = remember_theme
        self._quitting = False  # set by ``q``: no more panes made ahead
        self._input_at = float("-inf")  # ``time.monotonic`` of the last key or click (``_ahead_waits``)
        #: the last keys read and the widget each was sent to (``on_key``); a bounded list
        self._keys_sent: deque[tuple[events.Key, Widget | None]] = deque(maxlen=64)
        self._keys_resent: deque[events.Key] = deque(maxlen=64)  # the keys ``on_key`` sent again
        self.panes_ahead = panes_ahead  # make the other panes while idle after start (``make_panes_ahead``)
        self._settled = False  # the chain's full collection ran (``start_gc.settle``)
        self._idle_looks = 0  # looks in a row that found no worker running (``settle_when_idle``)
        self.errors: list[BaseException] = []
        self.watch_stop = asyncio.Event()
        self.startup_notes: list[tuple[str, str]] = []
        self._changed: set[Path] = set()
        self._panes: dict[str, Pane] = {}  # made on first use (``pane``): the first one by compose
        self._mounting: dict[str, AwaitMount] = {}  # panes made and not yet mounted
        self.badges = Badges()  # conflict badges of the Index (read in a worker)
        self.keymap: dict[str, str] = self._read_keymap()
        self._css_rules = RuleCache()  # parsed stylesheet rules per theme (``refresh_css``)
        self.ui_thread: int | None = None  # set at mount: ``notify`` from another thread toasts
        self.parses_ahead_done = 0  # finished ``parse_ahead`` runs: what a test waits for, not a clock
        self._stale_css: set[TabPane] = set()  # panes hidden at the last theme switch
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

    def get_default_screen(self) -> Screen[Any]:
        return MainScreen(id="_default")  # laid out once per size (``screens.modal``)

    def where(self, width: int) -> str:
        """The header's two places, each losing its middle when the terminal is too narrow
        for both (the header cut the project's path at its end)."""
        root, project = home_relative(self.ctx.memory_root), home_relative(self.ctx.project)
        sep = "  ·  "
        room = max(width - len(self.title) - HEADER_CHROME - len(sep), 16)
        if len(root) + len(project) <= room:
            return f"{root}{sep}{project}"
        half = room // 2
        return f"{middle(root, half)}{sep}{middle(project, room - half)}"

    def on_resize(self, event: events.Resize) -> None:
        self.sub_title = self.where(event.size.width)

    def refresh_css(self, animate: bool = True) -> None:
        """Textual's ``App.refresh_css`` (8.2.8) without its repeated work (``theme_switch``):
        rules come parsed from a per-theme cache, the stylesheet is applied to the pane on
        screen but not to the hidden ones (each takes it when shown: ``_pane_shown``), and
        each widget repaints once. A theme switch took ~0.6 s idle, most of it here."""
        sheet = self.stylesheet
        with one_refresh_per_widget():  # the repaints are asked for before the layout below
            self._css_rules.switch(sheet, self.get_css_variables())
            hidden = hidden_panes(self)
            self._stale_css = hidden  # every hidden pane misses this theme's styles
            self._apply_css(sheet, self, hidden, animate)
            for screen in self.screen_stack:  # the screens under a modal, as Textual does
                if screen != self.screen:
                    self._apply_css(sheet, screen, hidden, animate)
                    mark_styles_current(self, screen)
        try:
            if self.screen.is_mounted:  # laid out and drawn with the next frame, not at once:
                # that frame also holds what the theme-changed signal re-draws (one frame, not two)
                self.screen.refresh(layout=True)
                mark_styles_current(self, self.screen)
        except ScreenError:
            pass

    def get_css_variables(self) -> dict[str, str]:
        """Textual's, computed once per theme (``theme_switch.theme_variables``)."""
        self.theme_variables = theme_variables(self, self.current_theme)
        return self.theme_variables

    def next_theme(self) -> str:
        """The theme ``ctrl+t`` goes to: the memsearch themes first, then Textual's, by name."""
        names = sorted(self.available_themes)
        mine = [n for n in names if n.startswith("memsearch")] + [n for n in names if not n.startswith("memsearch")]
        return mine[(mine.index(self.theme) + 1) % len(mine)] if self.theme in mine else mine[0]

    def parse_ahead(self) -> None:
        """Parse the stylesheet for ``next_theme`` now, one source per step while nothing
        else waits: the next ``ctrl+t`` then only applies it (parsing was ~1/3 of a switch).
        The theme on screen too, as its sources are now (Textual keeps a source's rules
        when only its tie-breaker changes): switching back to it parses nothing either."""
        self._css_rules.remember(self.stylesheet, self.get_css_variables())  # the theme on screen's
        themes = [t for t in (self.current_theme, self.get_theme(self.next_theme())) if t is not None]
        steps = chain(*(self._css_rules.parse_ahead(self.stylesheet, theme_variables(self, t)) for t in themes))

        def step() -> None:
            if next(steps, False) is None:
                self.call_later(step)
            else:
                self.parses_ahead_done += 1

        self.call_later(step)

    @staticmethod
    def _apply_css(sheet: Stylesheet, root: DOMNode, hidden: set[TabPane], animate: bool) -> None:
        sheet.update_nodes(shown_nodes(root, hidden), animate=animate)

    def _pane_shown(self, pid: str | None) -> None:
        """A pane hidden at a theme switch is shown: its nodes take the stylesheet now,
        before its first frame (``ContentSwitcher.current`` calls this synchronously)."""
        stale = next((p for p in self._stale_css if p.id == pid), None)
        if stale is None:
            return
        self._stale_css.discard(stale)
        with one_refresh_per_widget():
            self.stylesheet.update(stale, animate=False)

    def _theme_changed(self, theme: Theme) -> None:
        PALETTE.use(self.get_css_variables())
        if self.remember_theme:
            save_state(theme=theme.name)
        for pane in self.panes():  # labels and diffs carry the old theme's colours
            pane.restyle()
        if self.badges.set_conflicts(set(self.badges.conflicted), tone(self, "warning", "bold")):
            self.badges.relabel(self.query_one("#index-tree"))
        self.call_after_refresh(self.parse_ahead)  # the theme after this one, once this one is drawn

    def _read_keymap(self) -> dict[str, str]:
        """The user's ``[tui.keymap]`` (read before composing, so labels show the user's keys)."""
        try:
            raw = self.ctx.config().tui.get("keymap", {})
        except MemsearchError as exc:
            self.startup_notes.append((f"config: {exc}", "error"))
            return {}
        keymap, problems = clean_keymap(raw)
        for p in problems:
            self.startup_notes.append((p, "warning"))
        return keymap

    def compose(self) -> ComposeResult:
        """The tabs, and only the first pane in its tab: each other pane is imported, built
        and mounted when first asked for (``pane``: its key, a jump, the palette), so the
        first frame waits for none of them (toolong's rule: draw only what is visible)."""
        yield Header(show_clock=False)
        with TabbedContent(id="tabs"):
            for i, spec in enumerate(PANES):
                with TabPane(f"{spec.key} {spec.title}", id=spec.id):
                    if i == 0:
                        yield self._made(spec.id)
        yield KeyFooter(id="footer")

    def _made(self, pid: str) -> Pane:
        pane: Pane = PANE_SPECS[pid].load()(self.ctx)
        self._panes[pid] = pane
        return pane

    def on_mount(self) -> None:
        self.ui_thread = threading.get_ident()  # the app's own thread (``notify``)
        self.sub_title = self.where(self.size.width)
        PALETTE.use(self.get_css_variables())
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        switcher = self.query_one("#tabs", TabbedContent).query_one(ContentSwitcher)
        self.watch(switcher, "current", self._pane_shown, init=False)
        if self.keymap:
            self.set_keymap(self.keymap)
        for text, severity in self.startup_notes:
            self.notify(text, severity=severity, timeout=10)  # type: ignore[arg-type]
        self.pane(PANES[0].id).activate()
        self.call_after_refresh(start_gc.release)  # the first frame is drawn by then
        if not self.ctx.store_exists():
            self.call_after_refresh(self.offer_init)
        self.set_timer(BADGE_DELAY, self.load_badges)
        self.set_timer(PARSE_AHEAD_DELAY, self.parse_ahead)
        if self.panes_ahead:
            self.set_timer(PANES_AHEAD_DELAY, self._next_pane_ahead)
        if self.prepare_index:  # the first meaning search then finds its vectors (issue 36 item 6)
            self.call_after_refresh(lambda: self._prepare_when_idle(time.monotonic() + INDEX_AHEAD_DELAY))
        if self.watch_files:
            folders = [self.ctx.memory_root, self.ctx.msdir]
            self.run_worker(
                watch(self, folders), exclusive=True, group="watch", exit_on_error=False, name="watch files"
            )

    async def on_unmount(self) -> None:
        start_gc.release()  # an app ended before its first frame
        self.watch_stop.set()
        self.ctx.mem.search.stop_sharing()  # the next face to search owns the warm index

    # -- panes ----------------------------------------------------------------------
    def pane(self, pid: str) -> Pane:
        """Pane ``pid``; the first time, it is made and mounted in its tab (mounted by the
        next refresh: ``is_mounted`` says when)."""
        pane = self._panes.get(pid)
        if pane is None:
            pane = self._made(pid)
            self._mounting[pid] = self.query_one("#tabs", TabbedContent).get_pane(pid).mount(pane)
        return pane

    async def mounted(self, pid: str) -> Pane:
        """Pane ``pid``, mounted: an action awaiting this holds the keys typed after its
        own until the pane is there (``/`` then a question: no letter lands in the Index)."""
        pane = self.pane(pid)
        waiting = self._mounting.get(pid)
        if waiting is not None:
            await waiting
            self._mounting.pop(pid, None)
        return pane

    def with_pane(self, pid: str, then: Callable[[Any], object]) -> None:
        """``then(pane)`` once pane ``pid`` is mounted: at once, or after the refresh that
        mounts a pane first asked for now (its widgets are not there before)."""
        pane = self.pane(pid)
        if pane.is_mounted:
            then(pane)
        else:
            self.call_after_refresh(self.with_pane, pid, then)

    def make_panes_ahead(self) -> None:
        """Make and mount the next pane not made yet, now; the one after it at the next idle
        moment (``_pane_ahead_if_idle``): a pane's first key then finds it there (its import
        and mount took up to ~0.2 s of that key at 100k entries), while the first frame waited
        for none of them. One pane per step: a key pressed meanwhile waits for one pane's
        making at most (all seven were made back to back, one per refresh: a key pressed as
        they began waited for up to all of them; the Overview's first visit at 10,000 journal
        days then took ~190 ms of UI-thread CPU, ~100 without them: benchmarks/README.md)."""
        missing = next((spec.id for spec in PANES if spec.id not in self._panes), None)
        if self._quitting:
            return
        if missing is None:
            self.settle_when_idle()
            return
        try:
            tab = self.query_one("#tabs", TabbedContent).get_pane(missing)
        except NoMatches:
            return
        if tab.is_attached:  # not once the app quits: a detached tab refuses a mount (MountError)
            self.pane(missing)
            self.call_after_refresh(self.set_timer, PANES_AHEAD_GAP, self._next_pane_ahead)

    def _next_pane_ahead(self) -> None:
        """A timer's step: the idle check is queued on the app behind whatever waits there,
        so a key already typed is handled (and noted: ``on_event``) before it runs."""
        if not self._quitting:
            self.call_later(self._pane_ahead_if_idle)

    def _pane_ahead_if_idle(self) -> None:
        if self._ahead_waits():
            self.set_timer(PANES_AHEAD_GAP, self._next_pane_ahead)
        else:
            self.make_panes_ahead()

    def _prepare_when_idle(self, latest: float) -> None:
        """Build a small memory's search index (``prepare``) at the first moment after the
        first frame that no pane is being made or loaded (the shown one's first load queued
        after that frame included), at the monotonic time ``latest`` at the latest. It
        started 2 s after the open: someone who opened the Search pane and typed a question
        at once pressed Enter about as the build ended, and waited for its rest (issue 36
        item 6b). Keys do not hold it back (the panes made ahead wait for a quiet keyboard):
        the question being typed is the one it is for."""
        if self._quitting:
            return
        if self._loading() and time.monotonic() < latest:
            self.set_timer(INDEX_AHEAD_GAP, lambda: self._prepare_when_idle(latest))
            return
        self.ctx.mem.search.prepare()

    def _loading(self) -> bool:
        """A pane not mounted yet, the shown one not loaded yet (its first load is queued after
        the first frame) or a pane's worker not finished (a pending one too: it has not
        started when the call after the first frame looks)."""
        if any(not pane.is_mounted or (pane.is_shown() and not pane.loaded) for pane in self._panes.values()):
            return True
        return any(not w.is_finished and w.group not in AHEAD_IGNORES for w in self.workers)

    def _ahead_waits(self) -> bool:
        """Is a key being served? A key or click less than ``PANES_AHEAD_QUIET`` ago, a pane
        not mounted yet (one a key asked for) or a worker run for a pane (its first load and
        what follows it): the panes made ahead wait, so the key's pane is made, loaded and
        drawn first."""
        return self._busy(AHEAD_IGNORES)

    def _busy(self, ignoring: frozenset[str]) -> bool:
        """A key or click less than ``PANES_AHEAD_QUIET`` ago, a pane not mounted yet or a
        running worker whose group is not in ``ignoring``: the one reading of "the app is
        serving someone" that the panes made ahead and the settling collection both wait on."""
        if time.monotonic() - self._input_at < PANES_AHEAD_QUIET:
            return True
        if any(not pane.is_mounted for pane in self._panes.values()):
            return True
        return any(w.is_running and w.group not in ignoring for w in self.workers)

    async def on_event(self, event: events.Event) -> None:
        """Note when the user last pressed a key or clicked (``_ahead_waits``), and where
        each key was sent (``on_key``)."""
        if isinstance(event, events.Key | events.MouseDown) and not event.is_forwarded:
            self._input_at = time.monotonic()
        if isinstance(event, events.Key) and not event.is_forwarded:
            again = any(key is event for key in self._keys_resent)  # sent once more at most
            self._keys_sent.append((event, None if again else self.focused))
        await super().on_event(event)

    def on_key(self, event: events.Key) -> None:
        """A key no widget took, sent to a widget of a pane no longer shown: sent again, to
        where the focus is now (or is about to be). Textual hands each key to the focused
        widget's queue as it reads it, so the letters typed right behind a pane's key
        (``6``, then ``reverse``) were queued on the old pane's widget before ``6`` switched
        panes, and lost there (trial s20 #6). Sent again as a new key (queued after the new
        pane's focus), its bindings and its widget are the new pane's; a key that does
        something where it went never gets here."""
        sent_to = next((to for key, to in self._keys_sent if key is event), None)
        if sent_to is not None and self._in_hidden_pane(sent_to):
            event.stop()
            event.prevent_default()
            again = events.Key(event.key, event.character)
            self._keys_resent.append(again)
            self.post_message(again)

    def _in_hidden_pane(self, widget: Widget) -> bool:
        """``widget`` is (in) a pane that is not the one shown."""
        pane = next((a for a in widget.ancestors_with_self if isinstance(a, Pane)), None)
        return pane is not None and pane.pane_id != self.query_one("#tabs", TabbedContent).active

    def settle_when_idle(self) -> None:
        """The chain's end: the full collection its mounts made due (``start_gc.settle``),
        once the app was not busy (``_busy``: no key just typed, no worker but the file watcher) for
        ``SETTLE_LOOKS`` looks in a row (a pane's load or
        rows being made, and the frames their answer asks for: the collection would hold them
        up); once an app."""
        if self._settled or self._quitting:
            return
        self._idle_looks = 0 if self._busy(SETTLE_IGNORES) else self._idle_looks + 1
        if self._idle_looks < SETTLE_LOOKS:
            self.set_timer(SETTLE_RECHECK, self.settle_when_idle)
            return
        self._settled = True
        start_gc.settle()

    async def action_quit(self) -> None:
        """Quit once every pane being mounted is in: a pane the idle chain (``make_panes_ahead``)
        had begun to mount ran its ``on_mount`` while the app was being taken down, and its
        NoMatches was a traceback over the user's terminal at exit (``q`` ~2.6 s after open)."""
        self._quitting = True
        quitting()  # the "stopping the vector build" line counts its wait from here (tui/closing.py)
        for waiting in list(self._mounting.values()):
            await waiting
        self.exit()

    def panes(self) -> list[Pane]:
        """The panes made so far (``pane``); one may not be mounted yet, nor loaded. A pane
        made later draws its first load as things are then: nothing to refresh in it before."""
        return list(self._panes.values())

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        pid = event.pane.id or ""
        if pid in PANE_TITLES:
            pane = self.pane(pid)
            if not pane.is_mounted:  # a key pressed in the first frame: once it is there
                self.call_after_refresh(self.action_switch_pane, pid)
                return
            focused = self.focused
            if focused is None or pane not in focused.ancestors:
                pane.focus_main()
            pane.activate()

    async def action_show_pane(self, pid: str) -> None:
        """A pane's key: the pane made and mounted first, if need be (``mounted``)."""
        await self.mounted(pid)
        self.action_switch_pane(pid)

    def action_switch_pane(self, pid: str) -> None:
        if not self.pane(pid).is_mounted:
            self.call_after_refresh(self.action_switch_pane, pid)
            return
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
        if not self.ctx.store_exists():
            return
        ids = {c.id for c in self.badges.conflicts_for(self.ctx.mem)}
        if self.badges.set_conflicts(ids, tone(self, "warning", "bold")):
            call_while_shown(self, lambda: self.badges.relabel(self.query_one("#index-tree")))

    def refresh_panes(self, paths: set[Path] | None = None, *, lazily: bool = False) -> None:
        """Reload every loaded pane (each keeps its selection and scroll); ``lazily``: the
        shown one now, each hidden one when it is next shown (``Pane.reload_when_shown``)."""
        self.badges.invalidate()
        self.load_badges()
        for pane in self.panes():
            if lazily:
                pane.reload_when_shown()
            elif paths is None:
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
        pane: Any = self.pane("index")
        if pane.model.counts:
            pane.select_entry(entry_id)
        else:
            pane.current = entry_id  # selected when the first load lands

    def open_journal(self, path: Path, line: int) -> None:
        pane: Any = self.pane("journal")
        if pane.loaded:
            pane.open_at(path, line)
        else:
            pane.pending_open = (path, line)
        self.action_switch_pane("journal")

    def open_note(self, path: Path) -> None:
        """PROJECT.md or USER.md in the Notes pane (a search hit on one of them)."""
        self.with_pane("notes", lambda pane: pane.open_note(path))
        self.action_switch_pane("notes")

    def offer_init(self) -> None:
        """The first-run screen: what the two memories are, and ``init`` at the root in use."""
        from memsearch_tui.tui.screens.first_run import FirstRunScreen  # a store's first frame shows no such screen

        if self.ctx.store_exists() or isinstance(self.screen, FirstRunScreen):
            return

        def done(create: bool | None) -> None:
            if create:
                self.init_store()

        journals = len(self.ctx.mem.journal.days())
        self.push_screen(FirstRunScreen(self.ctx.memory_root, self.ctx.project, journals), done)

    def action_import_notes(self) -> None:
        if not self.ctx.store_exists():
            self.offer_init()
            return
        from memsearch_tui.tui.screens.import_screen import ImportScreen

        self.push_screen(ImportScreen(self.pane("index")))

    def action_agent_memory(self) -> None:
        from memsearch_tui.tui.screens.agent_memory import AgentMemoryScreen

        self.push_screen(AgentMemoryScreen(self.ctx.mem))

    def action_hygiene(self) -> None:
        from memsearch_tui.tui.screens.hygiene import HygieneScreen

        self.push_screen(HygieneScreen(self.ctx.mem))

    def action_offer_init(self) -> None:
        if self.ctx.store_exists():
            self.notify(f"the store at {home_relative(self.ctx.memory_root)} exists already", title="init")
        self.offer_init()

    def init_store(self) -> None:
        """Create the store: a write of the pane on screen (``run_write``, the one write path)."""

        def init() -> Outcome:
            self.ctx.mem.entries.init_store()
            return Outcome(f"created the store at {home_relative(self.ctx.memory_root)}", title="init")

        self.pane(self.query_one("#tabs", TabbedContent).active).run_write("init", init, failed=self._init_failed)

    def _init_failed(self, message: WriteFailed) -> None:
        self.report(message.error)

    def search_for(self, query: str) -> None:
        self.action_switch_pane("search")
        self.with_pane("search", lambda pane: pane.focus_query(query))

    # -- actions --------------------------------------------------------------------
    async def action_focus_search(self) -> None:
        pane: Any = await self.mounted("search")
        self.action_switch_pane("search")
        pane.focus_query()

    def action_motion(self, where: str) -> None:
        """j/k/g/G/PgUp/PgDn on whatever list, table, tree or text has focus."""
        focused = self.focused
        if focused is None:
            tabs = self.query_one("#tabs", TabbedContent)
            self.pane(tabs.active).focus_main()
            focused = self.focused
        move(focused, where)

    def action_help(self) -> None:
        from memsearch_tui.tui.modals import HelpScreen  # the dialogs: not imported for the first frame

        unlisted = frozenset({"app.init"}) if self.ctx.store_exists() else frozenset()
        self.push_screen(HelpScreen(self.keymap, self.query_one("#tabs", TabbedContent).active, unlisted))

    def action_reload(self) -> None:
        self.refresh_panes()
        self.notify("reloaded")

    def action_cycle_theme(self) -> None:
        self.theme = self.next_theme()
        self.notify(f"theme: {self.theme}")

    def action_undo(self) -> None:
        """The undo history: what was done, by whom, when; ``u`` there undoes, ``r`` redoes."""
        from memsearch_tui.tui.modals import UndoModal

        on_screen = self.pane(self.query_one("#tabs", TabbedContent).active)
        self.push_screen(UndoModal(self._undo_records, self._undo, self._redo, on_screen))

    def _undo_records(self) -> list[HistoryItem]:
        return list(self.ctx.mem.history.list(limit=200)) if self.ctx.store_exists() else []

    def _undo(self, seq: int) -> Outcome:
        """Undo operation ``seq`` if it is still the newest one in effect (worker thread)."""
        from memsearch_tui.tui.modals import redo_hint

        rec = self.ctx.mem.history.undo(expected_seq=seq)  # the list reloads the panes (lazily)
        return Outcome(f"undone: {rec.summary} · {redo_hint()} redoes it", refresh=False, title="")

    def _redo(self, seq: int) -> Outcome:
        """Redo operation ``seq`` if it is still the one redo would re-apply (worker thread)."""
        rec = self.ctx.mem.history.redo(expected_seq=seq)
        return Outcome(f"redone: {rec.summary}", refresh=False, title="")

    # -- command palette ------------------------------------------------------------
    def action_command_palette(self) -> None:
        """Textual's palette, with the app's Escape rule (:mod:`.screens.command_palette`)."""
        if self.use_command_palette and not ClearingPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(ClearingPalette(id="--command-palette"))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for spec in REGISTRY:
            if not spec.palette or spec.id == "app.quit" or not self.can_run(spec.id):
                continue
            where = "" if spec.scope == APP else f"{PANE_TITLES[spec.scope]}: "
            keys = pretty_keys(keys_for(spec, self.keymap))
            yield SystemCommand(
                f"{where}{spec.description}", f"{spec.id} · keys {keys}", lambda s=spec: self.run_spec(s.id)
            )

    def can_run(self, spec_id: str) -> bool:
        """Can this action do anything now? The palette lists only those (``init`` with a
        store, accept with nothing pending would only say no)."""
        if spec_id == "app.init":
            return not self.ctx.store_exists()
        scope = BY_ID[spec_id].scope
        pane = self._panes.get(scope)  # a pane never made offers everything, as one never shown
        return scope == APP or pane is None or pane.can_run(spec_id)

    def run_spec(self, spec_id: str) -> None:
        """Run a registry action from the palette: switch to its pane first if needed."""
        spec = BY_ID[spec_id]
        if spec.scope == APP:
            self.call_later(self.run_action, spec.action)
            return
        self.action_switch_pane(spec.scope)
        self.with_pane(spec.scope, lambda pane: self.call_later(self.run_action, spec.action, pane))

    # -- toasts ---------------------------------------------------------------------
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every toast of the app passes here: secrets masked and control characters shown
        (``text.safe``), and no markup parsed, whichever pane or modal sends it, so a
        summary or error naming a secret or holding ``[red]`` can never reach the screen raw.
        While a dialog is up the notice is drawn inside it instead (``Modal.say``): a toast
        would cover the dialog's text."""
        top = self.screen_stack[-1] if self.screen_stack else None
        if isinstance(top, Modal) and threading.get_ident() == self.ui_thread:
            top.say(f"{title}: {message}" if title else message, severity=severity)
            top.heard()
            return
        super().notify(safe(message), title=safe(title), severity=severity, timeout=timeout, markup=False)

    def action_help_quit(self) -> None:
        """ctrl+c (Textual's own binding: it copies, it does not quit) says how to quit.
        Textual's message is markup (``[b]ctrl+q[/b]``), which ``notify`` draws as text."""
        keys = [key for key, active in self.active_bindings.items() if active.binding.action in ("quit", "app.quit")]
        if keys:
            self.notify(f"Press {' or '.join(keys)} to quit the app", title="Do you want to quit?")

    # -- errors ---------------------------------------------------------------------
    def report(self, exc: BaseException, *, title: str | None = None) -> None:
        """Engine errors → a notification; anything else → the error modal (never a crash)."""
        said = describe(exc)
        if said is not None:  # a refusal a user can cause: the same words as the CLI and MCP
            self.notify(
                str(exc) if isinstance(exc, MemsearchError) else said.message,
                title=title or said.title,
                severity="error",
                timeout=10,
            )
            return
        from memsearch_tui.tui.modals import ErrorModal

        self.errors.append(exc)
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.push_screen(ErrorModal(f"Unexpected error: {type(exc).__name__}: {safe(str(exc))}", safe(detail)))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.report(event.worker.error, title=f"{event.worker.name} failed" if event.worker.name else None)


def run_app(memory_root: Path, project: Path) -> None:
    """Entry point used by ``memsearch-tui`` with no subcommand."""
    from memsearch_tui.tui.closing import say_until_exit

    MemsearchApp(memory_root, project).run()
    say_until_exit()  # a build stopping: its line, should the exit still take a while (trial s20 #5)


# The imports are done and no app exists yet: the collector skips what they made from now
# on. Not in ``MemsearchApp.__init__``: the app object exists there already, and frozen with
# them it (and all it holds) would never be collected once dropped (a process's first app).
start_gc.freeze_imports()
