"""Search pane: a query box, the strategy that ran and why, the hits; Enter opens a hit.

One ``Searcher`` is kept for the app's life (model and Milvus stay warm after the first
vector query). Queries run in an exclusive worker group of their own, so a new query
cancels waiting for the old one; building the vector index runs in another group, so a
query never cancels a build, and a failed build is reported, not lost.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Label, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from memsearch_tui.tui.actions import bindings, hint
from memsearch_tui.tui.empty_states import no_hits
from memsearch_tui.tui.palette import PALETTE
from memsearch_tui.tui.panes.base import Pane, guard, plural, set_busy
from memsearch_tui.tui.panes.search_extras import hit_label, split_scope, titles_for
from memsearch_tui.tui.text import home_relative, safe, untrusted
from memsearch_tui.tui.widgets.keys import EscInput
from memsearch_tui.tui.widgets.work_progress import WorkProgress

STRATEGIES = ("auto", "grep", "index", "vector", "hybrid")
#: seconds of no search before Milvus Lite is closed: an open Lite data dir is locked, so
#: `doctor`, `vectors index` or a hook in another process would find it "locked" while the
#: app merely sits there. The embedding model stays loaded; reopening Lite takes ~1 s.
RELEASE_AFTER = 20.0


class SearchPane(Pane):
    pane_id = "search"
    main_widget = "#search-input"
    list_widget = "#search-hits"
    BINDINGS = bindings("search")

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.strategy = "auto"
        self.source = "all"  # ctrl+f: all | store | journal
        self.titles: dict[str, str] = {}
        self.warm = False  # a meaning search has run: the embedding model is loaded
        self.hits: list[Any] = []
        self._searcher = None
        self._release_timer = None

    def compose(self) -> ComposeResult:
        with Vertical():
            with Horizontal(id="search-bar"):
                yield EscInput(
                    placeholder=f"search: Enter runs · {hint(self.app.keymap, 'search.strategy')}",
                    id="search-input",
                )
                yield Label(f"strategy: {self.strategy}", id="search-strategy")
                yield Label("in: all", id="search-source")
            yield Label("", id="search-status", classes="status")
            yield WorkProgress(id="search-progress")
            yield ProgressBar(id="index-progress", show_eta=False)
            with Horizontal(classes="columns"):
                yield OptionList(id="search-hits", classes="left")
                with VerticalScroll(classes="right"):
                    yield Static(id="search-preview")

    def on_mount(self) -> None:
        self.query_one("#index-progress").display = False

    def files_changed(self, paths: set[Path]) -> None:
        """A memory file changed (the app, an agent, an editor): the warm searcher must not
        answer from its cached file listing for up to ``max_staleness`` seconds."""
        if self._searcher is not None:
            self._searcher.invalidate()
        super().files_changed(paths)

    def _get_searcher(self):
        if self._searcher is None:
            from memsearch_tui.engine.search import Searcher

            self._searcher = Searcher(self.ctx.memory_root, self.ctx.project)
        return self._searcher

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
        bar = self.query_one("#index-progress", ProgressBar)

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(bar.update, total=total, progress=done)
            self.app.call_from_thread(
                self.query_one("#search-status", Label).update,
                Text(f"indexing: embedded {done}/{total} chunks", style=PALETTE.warning),
            )

        try:
            rep = self._get_searcher().index(progress=progress)
        except Exception as exc:  # shown in the status line too; the app reports it
            self.app.call_from_thread(
                self.query_one("#search-status", Label).update,
                Text(f"building the vector index failed: {safe(str(exc))}", style=PALETTE.error),
            )
            raise
        finally:
            self.app.call_from_thread(setattr, bar, "display", False)
            self.app.call_from_thread(self._schedule_release)
        msg = (
            f"index up to date: {plural(rep.files, 'file')}, {rep.changed} changed, "
            f"{plural(rep.new_chunks, 'new chunk')}, {rep.embedded} embedded"
        )
        self.app.call_from_thread(self.query_one("#search-status", Label).update, Text(msg, style="dim"))
        self.app.call_from_thread(self.app.notify, msg, title="Vector index")

    def focus_query(self, text: str | None = None) -> None:
        box = self.query_one("#search-input", EscInput)
        if text is not None:
            box.value = text
            self.run_query(text)
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "search-input":
            self.run_query(event.value)

    def run_query(self, query: str) -> None:
        if not query.strip():
            return
        self.query_one("#search-status", Label).update(
            Text(f"searching “{safe(query)}” ({self.strategy})…", style=PALETTE.warning)
        )
        set_busy(self.query_one("#search-hits", OptionList), True)
        if not self.warm and self.strategy != "grep":  # the first meaning search loads the model
            self.set_timer(0.5, self._slow_search)
        self.run_worker(
            lambda: self._search(query, self.strategy),
            thread=True,
            exclusive=True,
            group="search-query",
            exit_on_error=False,
            name="search",
        )

    def _slow_search(self) -> None:
        """Still searching after 0.5 s on a cold searcher: say why (model loading), with a bar."""
        if any(w.is_running and w.name == "search" for w in self.workers):
            self.query_one(WorkProgress).start(
                "first meaning search: loading the embedding model (once per session)…", None
            )

    def _search(self, query: str, strategy: str) -> None:
        text, category = split_scope(query)
        try:
            result = self._get_searcher().search(text, strategy=strategy, k=30, category=category, source=self.source)
            titles = titles_for(self.ctx.store, result.hits)
        except Exception as exc:  # shown in the status line too; the app reports it
            self.app.call_from_thread(
                self.query_one("#search-status", Label).update,
                Text(f"search failed: {safe(str(exc))}", style=PALETTE.error),
            )
            raise
        finally:
            self.app.call_from_thread(set_busy, self.query_one("#search-hits", OptionList), False)
            self.app.call_from_thread(self.query_one(WorkProgress).finish)
            self.app.call_from_thread(self._schedule_release)
        if result.strategy in ("vector", "hybrid"):
            self.warm = True
        self.app.call_from_thread(self._show, result, titles)

    def _schedule_release(self) -> None:
        """Close Milvus (and free Lite's lock) once the pane has been idle ``RELEASE_AFTER`` s."""
        if self._release_timer is not None:
            self._release_timer.stop()
        self._release_timer = self.set_timer(RELEASE_AFTER, self._release)

    def _release(self) -> None:
        busy = any(w.is_running for w in self.workers if w.group in ("search-build", "search-query"))
        if self._searcher is None or busy:
            return
        searcher = self._searcher
        self.run_worker(searcher.close, thread=True, group="search-release", exit_on_error=False, name="close Milvus")

    def _show(self, result: Any, titles: dict[str, str] | None = None) -> None:
        self.hits = list(result.hits)
        self.titles = titles or {}
        lst = self.query_one("#search-hits", OptionList)
        lst.clear_options()
        for i, h in enumerate(self.hits):
            lst.add_option(Option(hit_label(self, h, self.titles), id=str(i)))
        status = Text(
            f"{plural(len(self.hits), 'hit')} · strategy {result.strategy} ({result.reason}) · "
            f"{plural(result.files, 'file')} · {result.took_ms:.0f} ms",
            style="dim",
        )
        for note in result.notes:
            status.append(f"\n{note}", style=PALETTE.warning)
        self.query_one("#search-status", Label).update(status)
        if self.hits:
            lst.highlighted = 0
            if self.app.query_one("#tabs").active == self.pane_id:
                lst.focus()  # not when the user has moved on: focusing would switch tabs back
        else:
            self.query_one("#search-preview", Static).update(no_hits(result.query, 0, self.app.keymap))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id != "search-hits" or event.option.id is None:
            return
        h = self.hits[int(event.option.id)]
        self.query_one("#search-preview", Static).update(
            Group(
                untrusted(self.titles.get(h.id) or h.heading or h.id, "bold", keep_newlines=False),
                untrusted(
                    f"{home_relative(h.path)}:{h.start}-{h.end} · score {h.score:.3f}", "dim", keep_newlines=False
                ),
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
            self.app.open_journal(Path(h.path), h.start)
        else:  # PROJECT.md / USER.md: no pane lists them line by line; show the hit itself
            from memsearch_tui.tui.modals import ViewerModal

            self.app.push_screen(ViewerModal(f"{home_relative(h.path)}:{h.start}-{h.end}  ({h.heading})", h.snippet))

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

    def on_unmount(self) -> None:
        if self._searcher is not None:
            try:
                self._searcher.close()
            except Exception:
                pass
