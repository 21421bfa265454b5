"""Index pane controller: loads the model, keeps tree and detail in step, runs the actions.

The detail always shows the tree's cursor row: every rebuild of the tree (a reload after
an outside change, a filter, a write) ends in ``sync_detail``, which re-reads the entry
under the cursor. Writes (add, edit, archive, trash) run in workers and pass the bytes the
edit started from, or the detail was drawn from (``expected``), so a change made meanwhile
by an agent or the CLI is never overwritten or moved away silently: the conflict dialog
asks (edits), or the write is refused and the pane reloads (archive, trash).
"""

from __future__ import annotations

import os
import shlex
import sqlite3
import subprocess
import tempfile
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from textual.app import ComposeResult, SuspendNotSupported
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Label, OptionList, Static, Tree

from memsearch_tui.engine.api import Memory
from memsearch_tui.engine.api.errors import Conflict, MemsearchError, NotFound
from memsearch_tui.tui.actions import bindings
from memsearch_tui.tui.empty_states import empty_store, no_store
from memsearch_tui.tui.panes.base import Context, Outcome, Pane, WriteFailed, guard, plural
from memsearch_tui.tui.panes.index.detail import EntryDetail
from memsearch_tui.tui.panes.index.model import IndexModel, NodeData
from memsearch_tui.tui.panes.index.tree import IndexTree
from memsearch_tui.tui.text import home_relative, safe
from memsearch_tui.tui.widgets.keys import EscInput

ACTIVATION_DELAY = 2.0  # seconds an entry stays on screen before it counts as read
FILTER_DELAY = 0.12  # seconds of quiet typing before the filter runs


class EntrySaver:
    """Saves an edit of one entry, refusing when the file changed since ``base`` was read."""

    def __init__(self, mem: Memory, entry_id: str, base: bytes) -> None:
        self.mem, self.entry_id, self.base = mem, entry_id, base
        self._theirs: bytes | None = None

    def save(self, text: str | bytes) -> Outcome:
        data = text.encode("utf-8") if isinstance(text, str) else text
        if data == self.base:
            return Outcome("no changes", refresh=False)
        self.mem.entries.replace(self.entry_id, data, expected=self.base)
        return Outcome(f"saved {self.entry_id}", select=self.entry_id)

    def theirs(self) -> str:
        self._theirs = self.mem.entries.seen(self.entry_id)[1]
        return self._theirs.decode("utf-8", errors="replace")

    def take_mine(self) -> None:
        """The next save overwrites the version read by ``theirs`` (and nothing newer)."""
        if self._theirs is not None:
            self.base = self._theirs


class AddSaver:
    """Adds the new entry (``mem.entries.add``: on an existing topic an update, or a kept
    conflicting version, as for every face)."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem

    def save(self, data: dict[str, Any]) -> Outcome:
        out = self.mem.entries.add(data["category"], data["title"], data["body"], data["tags"])
        assert out.entry is not None  # a person's write lands at once (no review)
        entry_id = out.entry.id
        note = f"added {entry_id}"
        if out.action == "conflict" or out.conflict_reason:
            note = out.message or "conflict detected, both versions kept"
        elif out.action == "updated":
            note = out.message or f"updated {entry_id}"
        return Outcome(note, select=entry_id)

    def theirs(self) -> str:  # a new entry cannot have changed meanwhile
        return ""

    def take_mine(self) -> None:
        pass


class IndexPane(Pane):
    pane_id = "index"
    main_widget = "#index-tree"
    list_widget = "#index-tree"
    BINDINGS = bindings("index")

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.model = IndexModel()
        self.current: str | None = None  # selected entry id
        self.seen: tuple[str, bytes] | None = None  # the entry on screen and the bytes it was drawn from
        self._filter_timer: Timer | None = None
        self._filter = ""
        self._expanded_before_filter: set[str] = set()
        self._activation_timer: Timer | None = None
        self.pending_category: str | None = None  # a category to select once the tree is built
        self._tally_ahead = self._read_tally_ahead()  # the first frame's counts (``_quick_model``)

    def _read_tally_ahead(self) -> Future[dict[str, tuple[int, int]] | None]:
        """The catalog's cached counts, read on a thread from the moment the pane is made:
        SQLite leaves the interpreter while it reads (~20 ms at 100k entries), so the read
        overlaps Textual mounting the app, which it had followed before the first frame."""
        ahead: Future[dict[str, tuple[int, int]] | None] = Future()
        entries = self.ctx.mem.entries

        def read() -> None:
            try:
                ahead.set_result(entries.cached_tally())
            except BaseException as exc:  # raised where it is used, on the UI thread
                ahead.set_exception(exc)

        threading.Thread(target=read, name="index counts", daemon=True).start()
        return ahead

    def compose(self) -> ComposeResult:
        with Horizontal(classes="columns"):
            with Vertical(id="index-left", classes="left"):
                yield EscInput(placeholder="filter: title, id or tag", id="index-filter")
                yield IndexTree(id="index-tree")
                yield Label("loading…", id="index-status", classes="status")
            yield EntryDetail(id="index-right", classes="right")

    @property
    def tree(self) -> IndexTree:  # type: ignore[override]  # Textual's DOMNode.tree: a debug view, unused here
        return self.query_one("#index-tree", IndexTree)

    @property
    def detail(self) -> EntryDetail:
        return self.query_one(EntryDetail)

    def status(self, text: str) -> None:
        self.query_one("#index-status", Label).update(text)

    # -- data -----------------------------------------------------------------------
    def activate(self) -> None:
        """Two phases: category counts from the catalog cache first, drawn at once on this
        thread (one SQL ``GROUP BY``: in a worker it had to share the interpreter with the
        app mounting its other panes and took several times as long), then the counts
        from a worker after the cache is brought up to date."""
        if not self.loaded and not self.model.counts:
            try:
                quick = self._quick_model()
            except (MemsearchError, OSError, sqlite3.Error):
                quick = None  # a cache that cannot be read: the worker's full load reports why
            if quick is not None:
                self._apply_guarded(quick)
                # the full load once this is drawn: its thread shared the interpreter with the
                # first frame's styling, layout and render (~1/4 of that frame at 100k entries)
                self.call_after_refresh(super().activate)
                return
        super().activate()

    def _quick_model(self) -> IndexModel | None:
        entries = self.ctx.mem.entries
        tally = self._tally_ahead.result()
        if tally is None:
            return None
        # The categories that hold entries (and their parents) only: the walk of every
        # folder that also finds the empty ones lists all 100k files (~0.15 s before the
        # first frame); the worker's full load adds them a moment later.
        return IndexModel.from_tally(tally, [], entries, partial=True)

    def load(self) -> IndexModel:
        """The catalog brought up to date with the disk, and its counts (no entry is listed:
        a category's rows are fetched when it is expanded)."""
        entries = self.ctx.mem.entries
        try:
            tally = entries.tally()
        except NotFound as exc:
            if entries.exists():
                return IndexModel(error=safe(str(exc)))
            where = home_relative(self.ctx.memory_root)  # first run: short, and what to press
            return IndexModel(error=f"no memory store at {where} yet: {self.key('app.init')} creates it")
        return IndexModel.from_tally(tally, list(entries.category_names()), entries)

    def apply(self, model: IndexModel) -> None:
        tree = self.tree
        keep = self.current
        keep_cat = self.pending_category
        if keep_cat is None and not self._filter:
            keep_cat = self._cursor_category() or None  # a category under the cursor stays selected
        expanded = self._expanded_before_filter if self._filter else tree.expanded_keys()
        line = tree.scroll_offset
        self.model = model
        if model.error:
            tree.clear()
            self.detail.clear()
            self.status(model.error)
            if not self.ctx.store_exists():
                where = home_relative(self.ctx.memory_root)
                self.query_one("#entry-meta", Static).update(no_store(where, self.app.keymap))
            return
        tree.fill(model)
        if self._filter:
            self._expanded_before_filter = expanded
            tree.show_filter(self._filter)
        else:
            tree.restore(expanded)
            tree.scroll_to(y=line.y, animate=False)
            if keep and model.find(keep) is not None:
                self._reveal(keep)
            elif keep_cat is not None:
                self._reveal_category(keep_cat, expand=keep_cat == self.pending_category)
        self.pending_category = None
        if keep and not model.partial and model.find(keep) is None:
            self.current = None
        # the quick frame knows no empty category (finding them walks every folder): it gives
        # no category count rather than one that grows a moment later (13, then 14)
        self.status(
            f"{plural(model.counts.get('', 0), 'entry', 'entries')}"
            + (
                " · loading details…"
                if model.partial
                else f" in {plural(model.category_count(), 'category', 'categories')}"
            )
        )
        self.sync_detail()
        if model.partial and keep:  # the cursor sits on a category meanwhile: select `keep` when all is in
            self.current = keep
        if not model.counts.get("", 0) and not model.partial:  # an empty store says what to press
            self.query_one("#entry-meta", Static).update(empty_store(self.app.keymap))
        focused = self.app.focused
        if self.is_shown() and (focused is None or self not in focused.ancestors):
            # only while this pane is on screen: focusing it would switch tabs. At once, not
            # ``focus()``'s call_later: arriving after the first layout, the focus made the
            # tree draw its rows again for the first frame (issue 37 item 5)
            self.screen.set_focus(tree)

    # -- keeping the detail on the cursor row ------------------------------------------
    def sync_detail(self) -> None:
        """Show whatever the tree's cursor is on, read afresh (the file may have changed)."""
        node = self.tree.cursor_node
        data = node.data if node is not None else None
        if data is None or data.kind == "more":
            self.current = None
            self.detail.clear()
        elif data.kind == "entry":
            self.show_entry(data.key)
        else:
            self.show_category(data.key)

    def _reveal(self, entry_id: str) -> bool:
        s = self.model.find(entry_id)
        if s is None:
            return False
        node = self.tree.reveal(entry_id, s.category)
        if node is None:
            return False
        self.tree.go_to(node)
        return True

    def _cursor_category(self) -> str | None:
        node = self.tree.cursor_node
        data = node.data if node is not None else None
        return data.key if data is not None and data.kind in ("cat", "root") else None

    def _reveal_category(self, key: str, *, expand: bool) -> bool:
        node = self.tree.find_cat(key, expand=True)
        if node is None:
            return False
        if expand:
            self.tree.populate(node)
            node.expand()
        self.tree.go_to(node)
        return True

    def select_category(self, key: str, *, focus: bool = True) -> bool:
        """Expand category ``key`` (its ancestors too) and put the cursor on it; before
        the first load lands, remember it (``apply`` selects it)."""
        if not self.model.counts and not self.model.error:
            self.current, self.pending_category = None, key
            return False
        if self._filter:
            self._clear_filter()
        if not self._reveal_category(key, expand=True):
            self.app.notify(f"no category '{key}' in this store", severity="warning")
            return False
        self.show_category(key)
        if focus:
            self.tree.focus()
        return True

    def select_entry(self, entry_id: str, *, focus: bool = True) -> bool:
        """Reveal ``entry_id`` in the tree (expanding and loading batches) and select it."""
        known = self.model.find(entry_id) is not None
        if not known and self.model.partial:
            self.current = entry_id  # selected when the catalog is up to date
            return False
        if not known:
            self.app.notify(f"no entry '{entry_id}' in this store", severity="warning")
            return False
        if self._filter:
            self._clear_filter()
        if not self._reveal(entry_id):
            return False
        self.show_entry(entry_id)
        if focus:
            self.tree.focus()
        return True

    # -- events ---------------------------------------------------------------------
    @guard
    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeData]) -> None:
        if event.node.tree is self.tree:
            self.tree.populate(event.node)

    @guard
    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NodeData]) -> None:
        if event.node.tree is self.tree and event.node.data is not None:
            self.sync_detail()

    @guard
    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        if event.node.tree is not self.tree or event.node.data is None:
            return
        if event.node.data.kind == "more":
            nxt = self.tree.load_more(event.node)
            if nxt is not None:
                self.tree.move_cursor(nxt)

    @guard
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "entry-related" and event.option.id:
            self.select_entry(event.option.id)

    def on_input_changed(self, event: EscInput.Changed) -> None:
        if event.input.id != "index-filter":
            return
        if self._filter_timer is not None:
            self._filter_timer.stop()
        value = event.value
        self._filter_timer = self.set_timer(FILTER_DELAY, lambda: self.apply_filter(value))

    def on_input_submitted(self, event: EscInput.Submitted) -> None:
        if event.input.id == "index-filter":
            if self._filter_timer is not None:
                self._filter_timer.stop()
            self.apply_filter(event.value)
            self.tree.focus()

    # -- detail ---------------------------------------------------------------------
    def show_entry(self, entry_id: str) -> None:
        self.current = entry_id
        try:
            entry, data = self.ctx.mem.entries.seen(entry_id)
        except MemsearchError as exc:  # an [invalid] file: the catalog's reason, and where it is
            self.seen = None
            s = self.model.find(entry_id)
            self.detail.show_error(entry_id, s.error if s and s.error else str(exc), self._file_of(entry_id))
            return
        self.seen = (entry.id, data)
        related = {rid: s for rid in entry.related if (s := self.model.find(rid)) is not None}
        self.detail.show_entry(entry, data, related)
        self._schedule_activation(entry_id)

    def _file_of(self, entry_id: str) -> str:
        try:
            return self.ctx.mem.entries.path_of(entry_id)
        except MemsearchError:
            return ""

    def show_category(self, key: str) -> None:
        self.current = None
        self.detail.show_category(self.model, key)

    def _schedule_activation(self, entry_id: str) -> None:
        """Reading counts as activation (lifecycle): recorded once the entry stayed on screen."""
        if self._activation_timer is not None:
            self._activation_timer.stop()

        def fire() -> None:
            if self.current == entry_id:
                self.run_worker(
                    lambda: self._activate(entry_id),
                    thread=True,
                    group="activate",
                    exit_on_error=False,
                    name="record access",
                )

        self._activation_timer = self.set_timer(ACTIVATION_DELAY, fire)

    def _activate(self, entry_id: str) -> None:
        self.ctx.mem.entries.record_access(entry_id)

    # -- filter ---------------------------------------------------------------------
    def apply_filter(self, text: str) -> None:
        """Show only matching entries; an empty filter brings back the tree as it was."""
        text = text.strip()
        if text == self._filter:
            return
        if not self._filter:
            self._expanded_before_filter = self.tree.expanded_keys()
        self._filter = text
        if not text:
            self._clear_filter()
            return
        n = self.tree.show_filter(text)
        self.status(f"{plural(n, 'matching entry', 'matching entries')}" if n else "no entry matches")
        self.sync_detail()

    def _clear_filter(self) -> None:
        keep = self.current
        box = self.query_one("#index-filter", EscInput)
        if box.value:
            with box.prevent(EscInput.Changed):
                box.value = ""
        self._filter = ""
        self.tree.fill(self.model)
        self.tree.restore(self._expanded_before_filter)
        if keep:
            self._reveal(keep)
        self.status(plural(self.model.total, "entry", "entries"))
        self.sync_detail()

    # -- actions --------------------------------------------------------------------
    def action_focus_filter(self) -> None:
        self.query_one("#index-filter", EscInput).focus()

    def _selected_category(self) -> str:
        node = self.tree.cursor_node
        if node is None or node.data is None:
            return ""
        if node.data.kind == "entry":
            s = self.model.find(node.data.key)
            return s.category if s else ""
        return node.data.key if node.data.kind in ("cat", "more") else ""

    def _require_entry(self) -> str | None:
        if not self.current:
            self.app.notify("select an entry first", severity="warning")
            return None
        return self.current

    def _shown_bytes(self, entry_id: str) -> bytes | None:
        """The bytes the detail was drawn from, passed as ``expected=`` by archive and trash:
        a change made after the user looked is refused, not moved away unseen."""
        return self.seen[1] if self.seen is not None and self.seen[0] == entry_id else None

    def _hold_activation(self) -> None:
        """An edit starts: the access record must not write the file under the editor
        (it would turn the user's own save into a conflict); the save dates the entry."""
        if self._activation_timer is not None:
            self._activation_timer.stop()

    def after_write(self, outcome: Outcome) -> None:
        if outcome.select:
            self.current = outcome.select  # selected when the reload lands

    @guard
    def action_follow_related(self) -> None:
        related = self.query_one("#entry-related", OptionList)
        if not related.display or related.option_count == 0:
            self.app.notify("this entry has no related entries", severity="information")
            return
        related.focus()
        if related.highlighted is None:
            related.highlighted = 0

    @guard
    def action_add_entry(self) -> None:
        if not self.ctx.store_exists():  # first run: no store to add to, offer init first
            self.app.offer_init()
            return
        from memsearch_tui.tui.modals import AddEntryModal  # the dialogs: not imported for the first frame

        self.app.push_screen(AddEntryModal(self._selected_category(), saver=AddSaver(self.ctx.mem), pane=self))

    @guard
    def action_edit_inline(self) -> None:
        entry_id = self._require_entry()
        if entry_id is None:
            return
        self._hold_activation()
        base = self.ctx.mem.entries.seen(entry_id)[1]
        saver = EntrySaver(self.ctx.mem, entry_id, base)
        text = base.decode("utf-8", errors="replace")
        from memsearch_tui.tui.modals import TextEditModal

        self.app.push_screen(TextEditModal(f"Edit {entry_id}", text, saver=saver, pane=self, what=entry_id))

    @guard
    def action_edit_external(self) -> None:
        entry_id = self._require_entry()
        if entry_id is None:
            return
        self._hold_activation()
        original = self.ctx.mem.entries.seen(entry_id)[1]
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        with tempfile.NamedTemporaryFile("wb", suffix=".md", prefix="memsearch-", delete=False) as tmp:
            tmp.write(original)
        path = Path(tmp.name)
        try:
            with self.app.suspend():
                subprocess.run([*shlex.split(editor), str(path)], check=False)
            edited = path.read_bytes()
        except SuspendNotSupported:
            path.unlink(missing_ok=True)
            self.app.notify(
                f"this terminal cannot hand over to $EDITOR; {self.key('index.edit_inline')} edits here",
                title="Edit",
                severity="warning",
            )
            return
        except (OSError, ValueError) as exc:
            self.app.notify(f"could not run {editor!r}: {exc}", title="Edit", severity="error")
            path.unlink(missing_ok=True)
            return
        if edited == original:
            path.unlink(missing_ok=True)
            self.app.notify("no changes", title="Edit")
            return
        self._save_external(EntrySaver(self.ctx.mem, entry_id, original), edited, path)

    def _save_external(self, saver: EntrySaver, edited: bytes, path: Path) -> None:
        """Save what $EDITOR wrote; on a conflict ask; on a refusal keep the text in ``path``."""

        def write() -> Outcome:
            try:
                out = saver.save(edited)
            except Conflict as exc:
                exc.theirs = saver.theirs()  # type: ignore[attr-defined]
                raise
            path.unlink(missing_ok=True)
            return out

        def failed(message: WriteFailed) -> None:
            exc = message.error
            if isinstance(exc, Conflict) and hasattr(exc, "theirs"):
                mine = edited.decode("utf-8", errors="replace")

                def resolved(choice: str | None) -> None:
                    if choice == "mine":
                        saver.take_mine()
                        self._save_external(saver, edited, path)
                    else:
                        note = (
                            "kept the version on disk"
                            if choice == "theirs"
                            else f"not saved; your text is in {kept(saver.entry_id, edited, path)}"
                        )
                        path.unlink(missing_ok=True)
                        self.app.notify(note, title="Edit", severity="warning", timeout=15)

                from memsearch_tui.tui.modals import ConflictModal

                self.app.push_screen(ConflictModal(saver.entry_id, mine, exc.theirs), resolved)
            elif isinstance(exc, MemsearchError):
                where = kept(saver.entry_id, edited, path)
                self.app.notify(f"{exc}\nYour text is kept in {where}", title="Not saved", severity="error", timeout=15)
            else:
                self.app.report(exc)

        self.run_write("edit", write, failed=failed)

    @guard
    def action_archive_entry(self) -> None:
        entry_id = self._require_entry()
        if entry_id is None:
            return
        expected = self._shown_bytes(entry_id)

        def archive() -> Outcome:
            self.ctx.mem.lifecycle.archive(entry_id, expected=expected)
            return Outcome(f"archived {entry_id} ({self.undoes})")

        def done(ok: bool | None) -> None:
            if ok:
                self.run_write("archive", archive)

        from memsearch_tui.tui.modals import ConfirmModal

        self.app.push_screen(
            ConfirmModal(
                "Archive entry", f"Move {entry_id} to archived/? ({self.undoes})", confirm="Archive", danger=False
            ),
            done,
        )

    @guard
    def action_trash_entry(self) -> None:
        entry_id = self._require_entry()
        if entry_id is None:
            return
        expected = self._shown_bytes(entry_id)

        def move() -> Outcome:
            self.ctx.mem.trash.put(entry_id, "trashed in the TUI", expected=expected)
            return Outcome(f"moved {entry_id} to the trash ({self.undoes})")

        def done(ok: bool | None) -> None:
            if ok:
                self.current = None
                self.run_write("trash", move)

        from memsearch_tui.tui.modals import ConfirmModal

        self.app.push_screen(
            ConfirmModal(
                "Move to trash",
                f"Move {entry_id} to the trash? It can be restored from the Trash pane (or {self.undoes}).",
            ),
            done,
        )


def kept(entry_id: str, edited: bytes, path: Path) -> Path:
    """Keep an external edit that was not saved where a reboot does not empty it (the data
    folder's ``unsaved/``, not the editor's temp copy ``path``, removed once kept)."""
    from memsearch_tui.engine.api.places import keep_unsaved

    where = keep_unsaved(edited, f"{entry_id.replace('/', '-')}.md")
    path.unlink(missing_ok=True)
    return where
