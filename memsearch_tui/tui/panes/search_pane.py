"""Search pane: a query box, the strategy that ran and why, the hits; Enter opens a hit.

Keyboard model (docs/tui.md): the box owns every printable key. A keyword search runs as
you type (debounced ``TYPE_DELAY``); Enter runs the chosen strategy (meaning search) and
keeps the focus in the box. ↓ or Tab move into the hits, where Enter opens one, ↑ on the
first hit goes back to the box, digits and ``/`` work as on every pane, and any
other printable key is typed into the box — so no key typed after a search runs a command.

One ``Searcher`` is kept for the app's life (model and Milvus stay warm after the first
vector query). Queries run in an exclusive worker group of their own, so a new query
cancels waiting for the old one; building the vector index runs in another group, so a
query never cancels a build, and a failed build is reported, not lost.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Input, Label, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, get_current_worker

from memsearch_tui.engine.api import MEANING_COMING
from memsearch_tui.engine.api.search import BuildStopped, Superseded
from memsearch_tui.engine.api.types import SearchHit, SearchResult
from memsearch_tui.tui.actions import bindings, bound_key, pretty_keys
from memsearch_tui.tui.closing import close_saying
from memsearch_tui.tui.empty_states import no_hits, search_start
from memsearch_tui.tui.from_thread import call_while_shown
from memsearch_tui.tui.palette import PALETTE
from memsearch_tui.tui.panes.base import Context, Pane, guard, plural, set_busy
from memsearch_tui.tui.panes.search_extras import explain_text, hit_kind, hit_label, split_scope
from memsearch_tui.tui.text import Squeezed, home_relative, safe, untrusted
from memsearch_tui.tui.widgets.keys import EscInput, types_text
from memsearch_tui.tui.widgets.lists import Drawn, SteadyList
from memsearch_tui.tui.widgets.work_progress import WorkProgress

if TYPE_CHECKING:
    from memsearch_tui.engine.api.records import QueryExplain

STRATEGIES = ("auto", "grep", "index", "vector", "hybrid")
#: seconds of no search before Milvus Lite is closed: an open Lite data dir is locked, so
#: `doctor`, `vectors index` or a hook in another process would find it "locked" while the
#: app merely sits there. The embedding model stays loaded; reopening Lite takes ~1 s.
RELEASE_AFTER = 20.0
#: seconds after the last keystroke before the as-you-type keyword search runs (it takes
#: 15–150 ms). 0.12 s is the gap between keys of a fast typist (100 words a minute is
#: 500 keys, one per 120 ms): typing at that pace or faster, no search runs per letter;
#: someone slower gets a search per letter also with the 0.2 s this was (anyone under 60
#: words a minute), and an answer whose query is no longer in the box is dropped, not drawn
TYPE_DELAY = 0.12
#: the strategy a typed query runs with: a keyword one, fast enough for every keystroke
TYPED = {"index": "index"}  # any other chosen strategy types with grep


class SearchBox(EscInput):
    """The query box: Tab, shift+Tab or ↓ move into the hits (the box keeps its text), even
    with no hit: the box never keeps the focus, so digits switch panes again from there."""

    LEAVE_KEYS = "tab,shift+tab,down"
    BINDINGS = [
        Binding(LEAVE_KEYS, "into_hits", "Hits", show=False),
    ]
    LEAVE = frozenset(LEAVE_KEYS.split(","))

    def action_into_hits(self) -> None:
        pane = next(a for a in self.ancestors if isinstance(a, SearchPane))
        pane.into_hits()

    async def on_key(self, event: events.Key) -> None:
        """Tab leaves at once, here: as a binding it ran only once the key had bubbled up to
        the app, after the keys typed right behind it (queued here already) went into the
        box ("deploy5"). Enter submits here too, so that Enter, Tab typed fast still search
        first (as a binding resolved after the Tab, it chose the first hit). A key that
        arrives once the box has let the focus go is sent on to where the focus is now (a
        digit on the hits switches panes). Any other key goes on to ``Input``'s own handler
        (Textual calls each class's handler in turn, this subclass's first, and stops at
        ``prevent_default``)."""
        left = self.screen.focused is not self  # ``has_focus`` follows only once Blur is handled
        if event.key not in self.LEAVE and event.key != "enter" and not left:
            return
        event.stop()
        event.prevent_default()
        if left:
            self.app.post_message(events.Key(event.key, event.character))
        elif event.key == "enter":
            await self.action_submit()
        else:
            self.action_into_hits()


class HitList(SteadyList):
    """The hits: Enter opens one; a letter typed here goes back to the box as text.

    Digits, ``/`` and ``?`` keep their meaning on every pane (switch pane, search, help);
    any other printable key would otherwise run an app command (``q`` quits) in the middle
    of typing a query.
    """

    PASSES = frozenset("0123456789/?")
    BINDINGS = [
        Binding("tab", "cursor_down", "Next hit", show=False),
        Binding("shift+tab", "cursor_up", "Previous hit", show=False),
    ]

    def _pane(self) -> SearchPane:
        return next(a for a in self.ancestors if isinstance(a, SearchPane))

    def takes_as_text(self, key: str) -> bool:
        """The footer asks: a letter here is text for the box, so its action is not offered."""
        return types_text(key) and pretty_keys(key) not in self.PASSES

    def on_key(self, event: events.Key) -> None:
        if event.is_printable and event.character and event.character not in self.PASSES:
            event.stop()
            event.prevent_default()
            self._pane().type_into_box(event.character)
        elif event.key == "up" and (self.highlighted or 0) == 0:
            event.stop()
            event.prevent_default()
            self.action_to_box()

    def action_to_box(self) -> None:
        self._pane().query_one(SearchBox).focus()


LOADING_FIRST = "first meaning search: loading the embedding model (once per session)…"


class SearchPane(Pane):
    pane_id = "search"
    main_widget = "#search-input"
    list_widget = "#search-hits"
    BINDINGS = bindings("search")

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.strategy = "auto"
        self.source = "all"  # ctrl+f: all | store | journal
        self.titles: dict[str, str] = {}
        self.warm = False  # a meaning search has run: the embedding model is loaded
        self.hits: list[SearchHit] = []
        self.explained: QueryExplain | None = None  # the last result's query-level explain record
        self._opened = False  # a search or an index build opened the warm searcher (``mem.search``)
        self._release_timer: Timer | None = None
        self._type_timer: Timer | None = None
        self._wait_timer: Timer | None = None  # a cold meaning search's wait, told every 0.5 s
        self._typed_worker: Worker[None] | None = None  # the as-you-type search running
        self._new_query = False  # the pane was just shown: the first letter typed on the hits starts anew
        self._asked = 0  # searches started: only the newest one's answer is shown
        self._asked_at = 0.0  # ``time.monotonic`` when the newest search was asked (Enter): its status times from there
        #: the searches asked with Enter whose worker thread still runs (added here, removed by
        #: the thread): while one waits (a cold meaning search waiting for the build), its
        #: progress line stays, also once a keyword search typed meanwhile has answered
        self._waiting: set[int] = set()
        self._shown = 0  # answers shown: with a hit's index, names the preview on the right
        self._previewed: tuple[int, int] | None = None  # (answer, hit) drawn on the right

    def compose(self) -> ComposeResult:
        """Drawn as it first shows here, not in ``on_mount``: a pane mounting as the app exits
        has its children taken down before its own Mount (``trash_pane.TrashPane.compose``)."""
        index_bar = ProgressBar(id="index-progress", show_eta=False)
        index_bar.display = False  # shown while ``v`` builds the vector index
        with Vertical():
            with Horizontal(id="search-bar"):
                yield SearchBox(
                    placeholder="type to search · Enter: by meaning",  # the strategy key is in the footer
                    id="search-input",
                    select_on_focus=False,  # a key typed after coming back must not replace the query
                )
                yield Label(f"strategy: {self.strategy}", id="search-strategy")
                yield Label("in: all", id="search-source")
            yield Label("", id="search-status", classes="status")
            yield WorkProgress(id="search-progress")
            yield index_bar
            with Horizontal(classes="columns"):
                yield HitList(id="search-hits", classes="left")
                with VerticalScroll(classes="right"):
                    yield Static(search_start(self.app.keymap, leave=self.leave_keys), id="search-preview")

    @property
    def leave_keys(self) -> tuple[str, str]:
        """The box's keys that leave it (Tab) and clear it (Esc), for the start hint."""
        return bound_key(SearchBox.BINDINGS, "into_hits"), bound_key(EscInput.BINDINGS, "clear_or_leave")

    def files_changed(self, paths: set[Path]) -> None:
        """A memory file changed (the app, an agent, an editor): the warm searcher must not
        answer from its cached file listing for up to ``max_staleness`` seconds."""
        self.ctx.mem.invalidate()
        super().files_changed(paths)

    def action_build_index(self) -> None:
        """Chunk and embed both memories (loads the model: slow the first time) in a worker."""
        bar = self.query_one("#index-progress", ProgressBar)
        bar.display = True
        bar.update(total=None, progress=0)
        self.query_one("#search-status", Label).update(Text("indexing: chunking changed files…", style=PALETTE.warning))
        self.run_worker(
            self._index, thread=True, exclusive=True, group="search-build", exit_on_error=False, name="vector index"
        )

    def _index(self) -> None:
        """Worker thread: every widget is looked up on the UI thread, while the pane is there
        (``from_thread``: the app may be exiting when the build reports)."""

        def progress(done: int, total: int) -> None:
            call_while_shown(self, self._index_progress, done, total)

        try:
            self._opened = True
            rep = self.ctx.mem.vectors.index(progress=progress)
        except BuildStopped:
            return  # the app is closing: the next index run goes on from here
        except Exception as exc:  # shown in the status line too; the app reports it
            failed = Text(f"building the vector index failed: {safe(str(exc))}", style=PALETTE.error)
            call_while_shown(self, self._index_status, failed)
            raise
        finally:
            call_while_shown(self, self._index_ended)
        msg = (
            f"index up to date: {plural(rep.files, 'file')}, {rep.changed_files} changed, "
            f"{plural(rep.new_chunks, 'new chunk')}, {rep.embedded} embedded"
        )
        call_while_shown(self, self._index_status, Text(msg, style="dim"))
        call_while_shown(self, self.app.notify, msg, title="Vector index")

    def _index_progress(self, done: int, total: int) -> None:
        self.query_one("#index-progress", ProgressBar).update(total=total, progress=done)
        self._index_status(Text(f"indexing: embedded {done:,} of {total:,}", style=PALETTE.warning))

    def _index_status(self, text: Text) -> None:
        self.query_one("#search-status", Label).update(text)

    def _index_ended(self) -> None:
        self.query_one("#index-progress", ProgressBar).display = False
        self._schedule_release()

    def focus_main(self) -> None:
        """Showing the pane: the hit list gets the focus, even empty, so a digit typed next
        switches panes as on every pane (flipping through panes must not get stuck in the
        box) and a letter goes into the box; a query that starts with a digit: ``/`` first.
        The first letter typed then starts a new query (coming back to the pane and typing
        must not add to the last one); a letter after Tab into the hits adds to it."""
        self._new_query = True
        self.query_one(HitList).focus()

    def focus_query(self, text: str | None = None) -> None:
        box = self.query_one(SearchBox)
        if text is not None:
            box.value = text
            self._cancel_typed()
            self.run_query(text)
        box.focus()
        box.cursor_position = len(box.value)

    def leave_input(self) -> None:
        """A second Esc in the box: the hit list, as Tab (``into_hits``): ``focus()`` on the
        list under a search's loading overlay did nothing, so while a cold meaning search
        waited, Esc Esc kept the box and the next digit was typed (trial s20 #3)."""
        self.into_hits()

    def into_hits(self) -> None:
        """Tab (shift+Tab, ↓) in the box: the hit list gets the focus, on its first hit when
        there is one; with none, the empty list (a digit switches panes, a letter types on).
        Also while a search runs: Textual does not focus a widget under its loading overlay,
        so the overlay goes (the status line still says "searching…") and the hits arrive there."""
        self._new_query = False
        hits = self.query_one(HitList)
        set_busy(hits, False)
        self.screen.set_focus(hits)  # now, not later as ``focus()`` does: the next key finds it moved
        if hits.option_count:
            hits.highlighted = hits.highlighted or 0

    def type_into_box(self, char: str) -> None:
        """A printable key pressed on the hit list: it is text, appended to the query."""
        box = self.query_one(SearchBox)
        if self._new_query:
            box.value = ""
        self._new_query = False
        self.screen.set_focus(box)  # now: the keys behind this one (a pasted Enter) go to the box
        box.cursor_position = len(box.value)
        box.insert_text_at_cursor(char)

    def on_input_changed(self, event: Input.Changed) -> None:
        """Keyword search as you type, once the typing pauses for ``TYPE_DELAY``."""
        if event.input.id != "search-input":
            return
        self._cancel_typed()
        if not event.value.strip() and not self.hits:  # nothing asked yet, or cleared on no hits
            self._previewed = None
            self.query_one("#search-preview", Static).update(search_start(self.app.keymap, leave=self.leave_keys))
        if event.value.strip():
            timer: Timer  # its own tick names it: a tick queued before a stop does nothing
            timer = self._type_timer = self.set_timer(TYPE_DELAY, lambda: self._run_typed(event.value, timer))

    def _cancel_typed(self) -> None:
        """A key typed (or Enter): the pending as-you-type search is not run, and the one
        running is stopped where it is (its literal scan asks its worker, see ``_search``)."""
        if self._type_timer is not None:
            self._type_timer.stop()
            self._type_timer = None
        if self._typed_worker is not None:
            self._typed_worker.cancel()
            self._typed_worker = None

    def _run_typed(self, query: str, timer: Timer) -> None:
        """The typing paused: search as typed, unless ``timer`` was stopped meanwhile. A timer
        that went off has queued this call already (``set_timer`` runs it through
        ``call_next``), and ``stop`` does not take it back: run after Enter's search had
        started, it replaced that search (the newest asked) and Enter's answer was dropped."""
        if timer is not self._type_timer:
            return
        self._type_timer = None
        if self.query_one(SearchBox).value == query:  # typed on since: that query's timer runs
            self.run_query(query, TYPED.get(self.strategy, "grep"), typed=True)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: the chosen strategy (meaning search); the focus stays in the box."""
        if event.input.id == "search-input":
            event.stop()
            self._cancel_typed()
            self.run_query(event.value)

    def run_query(self, query: str, strategy: str | None = None, *, typed: bool = False) -> None:
        """Search in a worker. ``typed`` (the as-you-type keyword search, 15–150 ms) shows
        no loading overlay and no "searching…" line: they would flicker on every keystroke,
        and drawing them (a layout of the screen) took the CPU from the search itself."""
        if not query.strip():
            return
        strategy = strategy or self.strategy
        self._asked += 1
        asked = self._asked
        self._asked_at = time.monotonic()
        if not typed:
            self._waiting.add(asked)
            self.query_one("#search-status", Label).update(
                Text(f"searching “{safe(query)}” ({strategy})…", style=PALETTE.warning)
            )
            set_busy(self.query_one("#search-hits", OptionList), True)
            if not self.warm and strategy != "grep":  # the first meaning search loads the model
                self.set_timer(0.5, self._slow_search)
        worker = self.run_worker(
            lambda: self._search(query, strategy, typed, asked),
            thread=True,
            exclusive=True,
            group="search-query",
            exit_on_error=False,
            name="search",
        )
        self._typed_worker = worker if typed else None

    def _slow_search(self) -> None:
        """Still searching after 0.5 s on a cold searcher: say why, with a bar, and keep
        saying it: the model loading, then (a memory too big for the build at open, or a
        build stopped mid-way) "embedding N of M", the rest of the build it waits for."""
        if any(w.is_running and w.name == "search" for w in self.workers):
            self.query_one(WorkProgress).start(LOADING_FIRST, None)
            if self._wait_timer is None:
                self._wait_timer = self.set_interval(0.5, self._search_waits)

    def _search_waits(self) -> None:
        """UI thread, every 0.5 s of a cold meaning search: the engine's count, once it counts;
        the line ends once no search asked with Enter is left waiting (``_waiting``)."""
        if not self._waiting:
            self._end_waiting()
            return
        counted = self.ctx.mem.search.embedding()
        if counted is not None:
            done, total = counted
            said = f"first meaning search: embedding {done:,} of {total:,} texts (the rest of the index)…"
            self.query_one(WorkProgress).step(done, total, said)

    def _search(self, query: str, strategy: str, typed: bool = False, asked: int = 0, again: int = 0) -> None:
        """Worker thread: ``_searching``, then the search no longer waits (``_waiting``)."""
        try:
            self._searching(query, strategy, typed, asked, again)
        finally:
            self._waiting.discard(asked)

    def _searching(self, query: str, strategy: str, typed: bool = False, asked: int = 0, again: int = 0) -> None:
        """Worker thread. As you type, the literal scan (seconds over a big memory) stops as
        soon as its worker is cancelled (a key typed since), and draws the best hits of the
        files scanned so far after ``PARTIAL_AFTER`` s, saying so, then the full list."""
        text, category = split_scope(query)
        worker = get_current_worker()

        def partial(result: SearchResult) -> None:
            call_while_shown(self, self._searched, asked, result, {}, typed, query, final=False)

        try:
            self._opened = True
            result = self.ctx.mem.search.query(
                text,
                k=30,
                strategy=strategy,
                source=self.source,
                category=category,
                explain=True,
                stop=(lambda: worker.is_cancelled) if typed else None,
                partial=partial if typed else None,
            )
            titles = {h.id: h.title for h in result.hits if h.title}
        except (Superseded, BuildStopped):
            return  # a newer query took its place, or the app is closing: nothing to draw
        except Exception as exc:  # shown in the status line too; the app reports it
            call_while_shown(self, self._searched, asked, failed=safe(str(exc)))
            raise
        if result.strategy in ("vector", "hybrid"):
            self.warm = True
        call_while_shown(self, self._searched, asked, result, titles, typed, query)
        if MEANING_COMING not in result.notes:
            return
        # keyword hits shown: again once the build has embedded some texts (meaning over those),
        # then once it has embedded them all (the final meaning ranking, before the vector store
        # is filled), then, were that one still partial, once it ends; once each, never a loop
        search = self.ctx.mem.search
        step = max(again, 0 if not {"vector", "hybrid"} & set(result.strategy.split("+")) else 1)
        waits = (search.wait_meaning, search.wait_all_meaning, search.wait_built)
        if step < len(waits) and waits[step]() and asked == self._asked:
            self._searching(query, strategy, typed, asked, again=step + 1)

    def _searched(
        self,
        asked: int,
        result: SearchResult | None = None,
        titles: dict[str, str] | None = None,
        typed: bool = False,
        query: str = "",
        failed: str | None = None,
        final: bool = True,
    ) -> None:
        """UI thread, once a search ends: one hop from the worker (each hop waits for the
        UI thread), which ends the busy signs, re-arms Milvus's idle close, and shows the
        answer if it is the newest search's (a slower, older one must not replace it) and,
        searched as you type, its query is still what the box holds (typed on since: the
        newer query's search is due, and drawing a stale list would slow the typing).
        A first part (not ``final``: "still searching…") is drawn, the busy signs kept on."""
        if final:
            set_busy(self.query_one("#search-hits", OptionList), False)
            if not self._waiting - {asked}:  # a keyword answer typed meanwhile: the build's line stays
                self._end_waiting()
            self._schedule_release()
        if failed is not None:
            self.query_one("#search-status", Label).update(Text(f"search failed: {failed}", style=PALETTE.error))
            return
        stale = asked != self._asked or (typed and self.query_one(SearchBox).value != query)
        if result is not None and not stale:
            self._show(result, titles, typed)

    def _end_waiting(self) -> None:
        """No search waits any more: the cold meaning search's line and its 0.5 s check end."""
        if self._wait_timer is not None:
            self._wait_timer.stop()
            self._wait_timer = None
        self.query_one(WorkProgress).finish()

    def _schedule_release(self) -> None:
        """Close Milvus (and free Lite's lock) once the pane has been idle ``RELEASE_AFTER`` s."""
        if self._release_timer is not None:
            self._release_timer.stop()
        self._release_timer = self.set_timer(RELEASE_AFTER, self._release)

    def _release(self) -> None:
        if not self._opened:
            return
        if any(w.is_running for w in self.workers if w.group in ("search-build", "search-query")):
            # a search still running (or a finished one whose worker has not yet said so):
            # try again later, else nothing would ever close Milvus and free Lite's lock
            self._schedule_release()
            return
        self._opened = False
        self.run_worker(
            self.ctx.mem.search.release, thread=True, group="search-release", exit_on_error=False, name="close Milvus"
        )

    def _show(self, result: SearchResult, titles: dict[str, str] | None = None, typed: bool = False) -> None:
        self.hits = list(result.hits)
        self._shown += 1
        self.explained = result.explain
        self.titles = titles or {}
        lst = self.query_one("#search-hits", OptionList)
        # one call, not one per hit (each ``add_option`` asked for a layout of its own)
        lst.set_options(Option(Drawn(lst, hit_label(self, h, self.titles)), id=str(i)) for i, h in enumerate(self.hits))
        status = Text(
            f"{plural(len(self.hits), 'hit')} · strategy {result.strategy} "
            f"({'keywords as you type; Enter searches by meaning' if typed else result.reason}) · "
            f"{plural(result.files, 'file')} · {self._took_ms(result):.0f} ms",
            style="dim",
        )
        for note in result.notes:
            status.append(f"\n{note}", style=PALETTE.warning)
        self.query_one("#search-status", Label).update(status)
        if self.hits:
            lst.highlighted = 0  # the focus stays where it is: typing goes on in the box
            self._preview(0)  # in this frame, not in one more after the highlight's message
        else:
            self._previewed = None
            self.query_one("#search-preview", Static).update(no_hits(result.query, 0, self.app.keymap))

    def _took_ms(self, result: SearchResult) -> float:
        """The wait the person had, from Enter (or the typing's pause) to this answer: a
        meaning search that waited minutes for the build said "516 ms", the last re-search's
        own time (trial s20 #3). Never less than the engine's own count."""
        return max(result.took_ms, (time.monotonic() - self._asked_at) * 1000)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id != "search-hits" or event.option.id is None:
            return
        self._preview(int(event.option.id))

    def _preview(self, index: int) -> None:
        """Hit ``index`` on the right (once: ``_show`` draws the first hit at once, and its
        highlight message, a moment later, must not draw it again)."""
        if self._previewed == (self._shown, index):
            return
        self._previewed = (self._shown, index)
        h = self.hits[index]
        self.query_one("#search-preview", Static).update(
            Group(
                untrusted(self.titles.get(h.id) or h.heading or h.id, "bold", keep_newlines=False),
                Squeezed(f"{home_relative(h.path)}:{h.lines[0]}-{h.lines[1]}", "dim"),
                Text(f"{hit_kind(h)} · score {h.score:.3f}", style="dim"),
                Text(""),
                untrusted(h.snippet),
                Text(""),
                Text("Enter opens it in its pane", style="dim italic"),
            )
        )

    @guard
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "search-hits" or event.option.id is None:
            return
        h = self.hits[int(event.option.id)]
        if h.source == "store":
            self.app.open_entry(h.id)
        elif h.kind == "journal":
            self.app.open_journal(Path(h.path), h.lines[0])
        else:  # PROJECT.md / USER.md: the Notes pane shows them
            self.app.open_note(Path(h.path))

    def action_explain_hit(self) -> None:
        """ctrl+n: why the highlighted hit ranks where it does — each leg's rank and score,
        the fusion weights and why, the matched terms (the search's explain records)."""
        at = self.query_one("#search-hits", OptionList).highlighted
        if at is None or not 0 <= at < len(self.hits):
            self.app.notify("No hit to explain: search first.", severity="warning")
            return
        from memsearch_tui.tui.modals import ViewerModal

        h = self.hits[at]
        title = self.titles.get(h.id) or h.heading or h.id
        self.app.push_screen(ViewerModal(f"Why #{at + 1} ranks here: {title}", explain_text(h, self.explained, at + 1)))

    def action_cycle_filter(self) -> None:
        """ctrl+f: search all memories, only the store, or only the journals."""
        order = ("all", "store", "journal")
        self.source = order[(order.index(self.source) + 1) % len(order)]
        self.query_one("#search-source", Label).update(f"in: {self.source}")
        box = self.query_one("#search-input", Input)
        if box.value.strip():
            self.run_query(box.value)

    def action_cycle_strategy(self) -> None:
        self.strategy = STRATEGIES[(STRATEGIES.index(self.strategy) + 1) % len(STRATEGIES)]
        self.query_one("#search-strategy", Label).update(f"strategy: {self.strategy}")
        box = self.query_one("#search-input", EscInput)
        if box.value.strip():
            self.run_query(box.value)

    async def on_unmount(self) -> None:
        """The app is closing: a build under way stops within a layer of the model (its work
        kept), so closing the searcher waits that long, not the whole build (minutes on a big
        memory); the screen gone, a longer wait says so in the terminal (:mod:`..closing`).
        The close waits off the UI thread: the build's progress report (``call_while_shown``)
        waits for this loop, and with the loop held by the close, each waited for the other."""
        building = self.ctx.mem.search.stop_building()
        if self._opened:
            try:
                release = asyncio.to_thread(self.ctx.mem.search.release)
                await close_saying(release, building=building, shown=self.app.is_running)
            except Exception:
                pass
